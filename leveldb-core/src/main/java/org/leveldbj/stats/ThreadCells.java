package org.leveldbj.stats;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.leveldbj.util.LockRank;
import org.leveldbj.util.OrderedLock;

/**
 * A few counters that many threads bump on the read path, without a lock and without an atomic
 * instruction: each thread has a cell of its own (one per database), which only it writes, and a
 * reader adds the cells up. An atomic add (a {@code LongAdder}'s compare-and-set) also drains the
 * processor's store buffer, which a lookup that has just copied a value fills: measured, that
 * cost a cached lookup of a present key 5-8% of its time; a plain store costs nothing measurable.
 *
 * <p>Thread safety / invariants:
 * <ul>
 *   <li>A cell's slots are written only by its owner thread, with opaque stores of the value it
 *       read (so never torn, and never decreasing), and read by anyone with opaque loads.</li>
 *   <li>The list of cells and the counts of finished threads ({@code retired}) are guarded by
 *       this object's lock, rank {@link LockRank#STATISTICS}, the last rank: nothing is taken
 *       inside it. A thread takes it once per database, to register its cell, and a sum takes it
 *       while it adds.</li>
 *   <li>A cell whose owner has ended is folded into {@code retired} and dropped: its owner's
 *       writes happen before {@link Thread#isAlive()} returns {@code false}, so its values are
 *       final. Folding keeps every count, so a count never decreases from one sum to the next.
 *       Registrations fold the dead cells whenever the list has doubled since the last fold, so
 *       threads that come and go (a pool's, virtual ones) do not grow it without bound.</li>
 * </ul>
 */
final class ThreadCells {
    private static final VarHandle SLOTS = MethodHandles.arrayElementVarHandle(long[].class);
    private static final int FIRST_FOLD = 64;

    private final int slots;
    private final ThreadLocal<Cell> mine = new ThreadLocal<>();
    /** This object's lock (doc/impl.md, Locks). */
    private final OrderedLock lock = new OrderedLock(LockRank.STATISTICS);
    @GuardedBy("lock")
    private final List<Cell> cells = new ArrayList<>();
    @GuardedBy("lock")
    private final long[] retired;
    @GuardedBy("lock")
    private int foldAt = FIRST_FOLD;

    /** One thread's counts. */
    private static final class Cell {
        final WeakReference<Thread> owner;
        final long[] counts;

        Cell(Thread owner, int slots) {
            this.owner = new WeakReference<>(owner);
            this.counts = new long[slots];
        }

        /** @return whether the owner has ended (a collected thread has) */
        boolean ended() {
            Thread t = owner.get();
            return t == null || !t.isAlive();
        }
    }

    /**
     * Makes the counters.
     *
     * @param slots how many
     */
    ThreadCells(int slots) {
        this.slots = slots;
        this.retired = new long[slots];
    }

    /**
     * Adds one to a counter, in the calling thread's cell.
     *
     * @param slot the counter
     */
    void increment(int slot) {
        Cell c = mine.get();
        if (c == null) {
            c = register();
        }
        SLOTS.setOpaque(c.counts, slot, (long) SLOTS.getOpaque(c.counts, slot) + 1);
    }

    private Cell register() {
        Cell c = new Cell(Thread.currentThread(), slots);
        lock.lock();
        try {
            if (cells.size() >= foldAt) {
                foldEnded();
                foldAt = Math.max(FIRST_FOLD, 2 * cells.size());
            }
            cells.add(c);
        } finally {
            lock.unlock();
        }
        mine.set(c);
        return c;
    }

    /** Folds the cells whose owners ended into the retired counts, and drops them. */
    @GuardedBy("lock")
    private void foldEnded() {
        for (Iterator<Cell> it = cells.iterator(); it.hasNext();) {
            Cell c = it.next();
            if (c.ended()) {
                for (int i = 0; i < slots; i++) {
                    retired[i] += (long) SLOTS.getOpaque(c.counts, i);
                }
                it.remove();
            }
        }
    }

    /** @return how many cells are kept (live threads', and ended ones' not folded yet); tests only */
    int cellsForTesting() {
        lock.lock();
        try {
            return cells.size();
        } finally {
            lock.unlock();
        }
    }

    /**
     * The counters' values now: every increment that happened before this call is counted.
     *
     * @return a new array, one value per slot
     */
    long[] sum() {
        lock.lock();
        try {
            foldEnded();
            long[] sum = retired.clone();
            for (Cell c : cells) {
                for (int i = 0; i < slots; i++) {
                    sum[i] += (long) SLOTS.getOpaque(c.counts, i);
                }
            }
            return sum;
        } finally {
            lock.unlock();
        }
    }
}
