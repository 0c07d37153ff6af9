package org.leveldbj.memtable;

import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.iq80.leveldb.WriteBufferBudget;

/**
 * A limit on the memtable memory of several databases (RocksDB's {@code WriteBufferManager}):
 * each database is a {@link Member} that reports its memtables' memory; when the total reaches
 * the capacity and the memtables still taking writes hold at least half of it (beyond those
 * already asked to switch), the member with the largest such memtable is asked to switch it
 * and flush it ({@link Member#isAsked()}, and its callback). Memtables being flushed count
 * until they are released. Writes are never stopped: the capacity is a target, overshot by the
 * writes made while the asked databases switch and flush.
 *
 * <p>Why half: memory being flushed is on its way out, and asking more databases while their
 * flushes run would only make many small tables; C++-style stalls are left to each database's
 * own write buffer and level-0 limits.
 *
 * <p>Thread safety: safe for concurrent use without locks: the totals are atomics, the members
 * a copy-on-write list. A member's own reports ({@link Member#memTableIs},
 * {@link Member#switched}, {@link Member#flushed}, {@link Member#leave}) come from one thread
 * at a time (its database holds its lock); asking ({@link Member#isAsked()} and the callback)
 * may happen on any member's thread, so the callback must not take a lock its database may
 * hold while it reports (the engine's schedules a background step).
 *
 * <p>Lifetime: the budget outlives its members; a member that {@linkplain Member#leave leaves}
 * takes its memory off the totals.
 */
public final class MemTableBudget implements WriteBufferBudget {
    private final long capacity;
    /** Bytes of every member's memtables, those being flushed included. */
    private final AtomicLong usage = new AtomicLong();
    /** Bytes of the memtables taking writes. */
    private final AtomicLong mutable = new AtomicLong();
    /** Bytes of the memtables taking writes whose members were asked to switch them. */
    private final AtomicLong asked = new AtomicLong();
    private final CopyOnWriteArrayList<Member> members = new CopyOnWriteArrayList<>();

    /**
     * Creates a budget.
     *
     * @param capacityBytes the memory the members' memtables aim to stay under, above 0
     * @throws IllegalArgumentException if the capacity is not above 0
     */
    public MemTableBudget(long capacityBytes) {
        if (capacityBytes <= 0) {
            throw new IllegalArgumentException("a write buffer budget must be above 0 bytes, but was " + capacityBytes);
        }
        this.capacity = capacityBytes;
    }

    @Override
    public long capacity() {
        return capacity;
    }

    @Override
    public long usage() {
        return usage.get();
    }

    /** @return how many members the budget has now */
    public int members() {
        return members.size();
    }

    /**
     * Adds a member.
     *
     * @param name the member, for {@link #toString()}
     * @param onAsk run when the member is asked to switch its memtable; on the thread of
     *     whichever member's report went over the budget, possibly holding that member's lock
     * @return the member
     */
    public Member join(String name, Runnable onAsk) {
        Member m = new Member(name, onAsk);
        members.add(m);
        return m;
    }

    /** Asks the member with the largest memtable not yet asked to switch it, when the budget says so. */
    private void maybeAsk() {
        if (usage.get() < capacity) {
            return;
        }
        if (mutable.get() - asked.get() < capacity / 2) {
            return; // what is being flushed or was asked will bring the total down
        }
        Member largest = null;
        long most = 0;
        for (Member m : members) {
            long bytes = m.mutableView;
            if (bytes > most && m.askedBytes.get() == 0) {
                largest = m;
                most = bytes;
            }
        }
        if (largest != null && largest.askedBytes.compareAndSet(0, most)) {
            asked.addAndGet(most);
            largest.onAsk.run();
        }
    }

    @Override
    public String toString() {
        return "WriteBufferBudget[capacity=" + capacity + ", usage=" + usage.get() + ", members=" + members.size() + "]";
    }

    /**
     * One database's share: what its memtables hold, reported by the database.
     *
     * <p>Thread safety: the reports come from one thread at a time (the database's lock);
     * {@link #isAsked()} from any thread.
     */
    public final class Member {
        private final String name;
        private final Runnable onAsk;
        // Reported by the member's database, one thread at a time.
        private long mutableCharged;
        private long immutableCharged;
        private boolean left;
        /** {@link #mutableCharged}, for {@link #maybeAsk} on other members' threads. */
        private volatile long mutableView;
        /** The bytes it was asked for, 0 while not asked. */
        private final AtomicLong askedBytes = new AtomicLong();

        private Member(String name, Runnable onAsk) {
            this.name = name;
            this.onAsk = onAsk;
        }

        /**
         * Reports the memory of the memtable taking writes, after writes to it; may ask a
         * member (this one or another) to switch.
         *
         * @param bytes its approximate memory usage
         */
        public void memTableIs(long bytes) {
            if (left) {
                return;
            }
            long delta = bytes - mutableCharged;
            mutableCharged = bytes;
            mutableView = bytes;
            usage.addAndGet(delta);
            mutable.addAndGet(delta);
            maybeAsk();
        }

        /**
         * Reports that the memtable taking writes became the one being flushed, and a new empty
         * one takes writes: an ask, if any, is answered.
         */
        public void switched() {
            immutableCharged += mutableCharged;
            mutable.addAndGet(-mutableCharged);
            mutableCharged = 0;
            mutableView = 0;
            answered();
        }

        /** Reports that the memtable being flushed was written to a table and released. */
        public void flushed() {
            usage.addAndGet(-immutableCharged);
            immutableCharged = 0;
        }

        /**
         * Whether the member was asked to switch its memtable and has not yet. Any thread.
         *
         * @return {@code true} while asked
         */
        public boolean isAsked() {
            return askedBytes.get() != 0;
        }

        /** Forgets an ask that cannot be answered (the memtable is empty). */
        public void answered() {
            long bytes = askedBytes.getAndSet(0);
            if (bytes != 0) {
                asked.addAndGet(-bytes);
            }
        }

        /** Takes the member's memory off the totals and the member out of the budget; idempotent. */
        public void leave() {
            if (left) {
                return;
            }
            left = true;
            usage.addAndGet(-(mutableCharged + immutableCharged));
            mutable.addAndGet(-mutableCharged);
            mutableCharged = 0;
            immutableCharged = 0;
            mutableView = 0;
            answered();
            members.remove(this);
        }

        @Override
        public String toString() {
            return "Member[" + name + ", mutable=" + mutableView + ", asked=" + isAsked() + "]";
        }
    }
}
