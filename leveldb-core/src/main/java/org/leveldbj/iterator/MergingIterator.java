package org.leveldbj.iterator;

import java.nio.ByteBuffer;
import java.util.List;
import org.iq80.leveldb.CorruptionException;
import org.leveldbj.comparator.KeyComparator;

/**
 * The sorted union of several {@link SortedIterator}s: each step yields the smallest (going
 * forward) or largest (going backward) current entry among the children. The database merges
 * its memtables, its level-0 tables and one iterator per deeper level this way.
 *
 * <p>Order: entries are ordered by key under the comparator and, among equal keys held by
 * different children, by the child's index in the list, lower first. The merge is thus exactly
 * the concatenation-then-stable-sort of the children, in both directions, also across direction
 * changes. (The database never has equal keys in two children, since internal keys carry unique
 * sequence numbers; the tie rule only makes the merge a total order.)
 *
 * <p>Algorithm: with more than {@value #LINEAR_MAX} children, the positioned children are kept
 * in a binary heap of child indexes, a min-heap while moving forward and a max-heap while moving
 * backward; with up to {@value #LINEAR_MAX} children, the child to yield next is found by
 * looking at every child's key instead, as C++ LevelDB always does: measured on forward merges
 * of 2 to 12 in-memory children (keys interleaved at random, or one child holding 90% of them),
 * the scan is 10 to 25% faster up to 3 children, about even at 4, and the heap is faster from 6
 * on (about 2.5 times at 12 when one child holds most entries). Either way the merge notes the
 * runner-up, the child whose entry comes out second; a step moves the current child and, while
 * its new key still comes before the runner-up's, which does not move, keeps it current after
 * one key comparison (the common case of a scan, where one child yields long stretches of
 * entries), and only otherwise scans the children or sifts the heap.
 *
 * <p>Runs: when built with {@code trustRunLimits}, a forward step does not even make that
 * comparison while the current child stays in a run (a table's data block, see
 * {@link SortedIterator#runStamp()}) whose limit was found before the runner-up's key: one
 * comparison per run instead of one per entry. This trusts the children's run limits (for
 * tables, the index keys) to bound their runs, as reads trust them to find a key; a table whose
 * index broke that rule would yield entries out of order. The database's iterators trust them;
 * compactions, whose output must stay sorted whatever they read, do not.
 *
 * <p>Changing direction repositions every child other than the current
 * one relative to the current key, as C++ LevelDB's merging iterator does: going forward, each
 * moves to its first entry after the current one; going backward, to its last entry before it.
 * Steps allocate nothing. {@link #of} returns the only child itself when there is one, and an
 * empty iterator when there is none.
 *
 * <p>Errors: an exception thrown by a child leaves this iterator unpositioned and propagates;
 * so does a comparator's report of a malformed key, made to name the file and offset of the child
 * that holds the key.
 *
 * <p>Thread safety: confined to one thread, like every {@link SortedIterator}.
 *
 * <p>Lifetime: owns the children and closes them all when closed (a failure to close one does
 * not prevent closing the others); closing twice is harmless.
 */
public final class MergingIterator implements SortedIterator {
    /** The most children merged by scanning rather than with a heap. */
    static final int LINEAR_MAX = 3;

    private final KeyComparator comparator;
    private final SortedIterator[] children;
    /** The current key of each positioned child (as its last move left it), else {@code null}. */
    private final ByteBuffer[] keys;
    /**
     * Child indexes; {@code heap[0]} is the current child. With a heap, only positioned children
     * are held; when scanning, {@code heap[0]} is the only one used.
     */
    private final int[] heap;
    /** Whether steps scan the children instead of keeping a heap. */
    private final boolean linear;
    private int heapSize;
    /** The child whose entry comes out second, or -1 when no other is valid. */
    private int second = -1;
    /** Whether forward steps skip the comparison inside runs bounded before the runner-up. */
    private final boolean trustRunLimits;
    /** The current child's run stamp when its run limit was last compared, else NO_RUN. */
    private long checkedRun = NO_RUN;
    /** Whether the run {@link #checkedRun} names ends before the runner-up's key. */
    private boolean runAhead;
    /** A run stamp no child returns while its limit matters (children start at 0 and count up). */
    private static final long NO_RUN = Long.MIN_VALUE;
    /** {@code true} while the heap is a max-heap (moving backward). */
    private boolean reverse;
    private boolean closed;

    /**
     * Merges children.
     *
     * @param comparator the order of the children's keys
     * @param children the children, owned from now on; their order breaks ties between equal keys
     */
    public MergingIterator(KeyComparator comparator, List<? extends SortedIterator> children) {
        this(comparator, children, false);
    }

    /**
     * Merges children, trusting their run limits or not (see the class description).
     *
     * @param comparator the order of the children's keys
     * @param children the children, owned from now on; their order breaks ties between equal keys
     * @param trustRunLimits whether forward steps may skip comparisons inside runs whose limit
     *     comes before the runner-up's key
     */
    public MergingIterator(KeyComparator comparator, List<? extends SortedIterator> children,
                           boolean trustRunLimits) {
        this.trustRunLimits = trustRunLimits;
        this.comparator = comparator;
        this.children = children.toArray(new SortedIterator[0]);
        this.keys = new ByteBuffer[this.children.length];
        this.heap = new int[Math.max(1, this.children.length)];
        this.linear = this.children.length <= LINEAR_MAX;
    }

    /**
     * Merges children, short-cutting the trivial cases: no child gives an iterator that is never
     * positioned, one child is returned itself.
     *
     * @param comparator the order of the children's keys
     * @param children the children, owned by the result from now on
     * @return an iterator over the union of the children's entries, unpositioned
     */
    public static SortedIterator of(KeyComparator comparator, List<? extends SortedIterator> children) {
        return of(comparator, children, false);
    }

    /**
     * Merges children as {@link #of(KeyComparator, List)} does, trusting their run limits or
     * not (see the class description).
     *
     * @param comparator the order of the children's keys
     * @param children the children, owned by the result from now on
     * @param trustRunLimits whether forward steps may skip comparisons inside runs whose limit
     *     comes before the runner-up's key
     * @return an iterator over the union of the children's entries, unpositioned
     */
    public static SortedIterator of(KeyComparator comparator, List<? extends SortedIterator> children,
                                    boolean trustRunLimits) {
        switch (children.size()) {
            case 0:
                return EmptyIterator.INSTANCE;
            case 1:
                return children.get(0);
            default:
                return new MergingIterator(comparator, children, trustRunLimits);
        }
    }

    @Override
    public boolean valid() {
        return heapSize > 0;
    }

    @Override
    public void seekToFirst() {
        heapSize = 0;
        for (SortedIterator child : children) {
            child.seekToFirst();
        }
        rebuild(false);
    }

    @Override
    public void seekToLast() {
        heapSize = 0;
        for (SortedIterator child : children) {
            child.seekToLast();
        }
        rebuild(true);
    }

    @Override
    public void seek(ByteBuffer target) {
        heapSize = 0;
        for (SortedIterator child : children) {
            child.seek(target);
        }
        rebuild(false);
    }

    @Override
    public void next() {
        assert valid();
        try {
            if (reverse) {
                turnForward();
            }
            int c = heap[0];
            SortedIterator child = children[c];
            child.next();
            replaceTop(c, child);
        } catch (RuntimeException | Error e) {
            heapSize = 0;
            throw e;
        }
    }

    @Override
    public void prev() {
        assert valid();
        try {
            if (!reverse) {
                turnBackward();
            }
            int c = heap[0];
            SortedIterator child = children[c];
            child.prev();
            replaceTop(c, child);
        } catch (RuntimeException | Error e) {
            heapSize = 0;
            throw e;
        }
    }

    @Override
    public ByteBuffer key() {
        assert valid();
        return keys[heap[0]];
    }

    @Override
    public ByteBuffer value() {
        assert valid();
        return children[heap[0]].value();
    }

    @Override
    public String source() {
        return children[heap[0]].source();
    }

    @Override
    public long sourceOffset() {
        return children[heap[0]].sourceOffset();
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        heapSize = 0;
        RuntimeException failure = null;
        for (SortedIterator child : children) {
            try {
                child.close();
            } catch (RuntimeException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    /**
     * Repositions every child but the current one after the current entry, and makes the heap a
     * min-heap. A child before the current one in the list must also step over keys equal to the
     * current key, which sort before the current entry.
     */
    private void turnForward() {
        int c = heap[0];
        ByteBuffer k = keys[c];
        for (int i = 0; i < children.length; i++) {
            if (i != c) {
                SortedIterator child = children[i];
                child.seek(k);
                if (i < c) {
                    while (child.valid() && compare(child.key(), i, k, c) == 0) {
                        child.next();
                    }
                }
            }
        }
        rebuildKeepingTop(c, false);
    }

    /**
     * Repositions every child but the current one before the current entry, and makes the heap
     * a max-heap. A child before the current one in the list keeps keys equal to the current
     * key, which sort before the current entry.
     */
    private void turnBackward() {
        int c = heap[0];
        ByteBuffer k = keys[c];
        for (int i = 0; i < children.length; i++) {
            if (i != c) {
                SortedIterator child = children[i];
                child.seek(k);
                if (i < c) {
                    while (child.valid() && compare(child.key(), i, k, c) == 0) {
                        child.next();
                    }
                }
                if (child.valid()) {
                    child.prev();
                } else {
                    child.seekToLast();
                }
            }
        }
        rebuildKeepingTop(c, true);
    }

    /** Rebuilds the heap from every positioned child, the current child {@code c} among them. */
    private void rebuildKeepingTop(int c, boolean backward) {
        rebuild(backward);
        assert heapSize > 0 && heap[0] == c;
    }

    /** Rebuilds the heap from every positioned child, in the given direction. */
    private void rebuild(boolean backward) {
        reverse = backward;
        int n = 0;
        for (int i = 0; i < children.length; i++) {
            SortedIterator child = children[i];
            if (child.valid()) {
                keys[i] = child.key();
                heap[n++] = i;
            } else {
                keys[i] = null;
            }
        }
        if (linear) {
            scan();
            return;
        }
        heapSize = n;
        for (int i = (n >>> 1) - 1; i >= 0; i--) {
            siftDown(i);
        }
        noteHeapRunnerUp();
    }

    /** Heap mode: notes the runner-up, the better of the top's two children in the heap. */
    private void noteHeapRunnerUp() {
        int n = heapSize;
        int[] h = heap;
        setRunnerUp(n < 2 ? -1 : n == 2 || before(h[1], h[2]) ? h[1] : h[2]);
    }

    /** Notes the runner-up; a run limit checked against the previous one no longer counts. */
    private void setRunnerUp(int child) {
        second = child;
        checkedRun = NO_RUN;
    }

    /**
     * Linear mode: makes the first child in this direction current, and notes the runner-up,
     * by looking at every child's key.
     */
    private void scan() {
        int best = -1;
        int runnerUp = -1;
        for (int i = 0; i < keys.length; i++) {
            if (keys[i] == null) {
                continue;
            }
            if (best < 0) {
                best = i;
            } else if (before(i, best)) {
                runnerUp = best;
                best = i;
            } else if (runnerUp < 0 || before(i, runnerUp)) {
                runnerUp = i;
            }
        }
        heap[0] = best;
        heapSize = best >= 0 ? 1 : 0;
        setRunnerUp(runnerUp);
    }

    /** Takes the current child {@code c}'s move into account: keeps it current or finds the next. */
    private void replaceTop(int c, SortedIterator child) {
        if (child.valid()) {
            keys[c] = child.key();
            // Still before the runner-up, hence before every other child.
            if (second < 0 || staysAhead(c, child)) {
                return;
            }
        } else {
            keys[c] = null;
        }
        if (linear) {
            scan();
            return;
        }
        if (keys[c] == null) {
            int last = --heapSize;
            if (last == 0) {
                setRunnerUp(-1);
                return;
            }
            heap[0] = heap[last];
        }
        siftDown(0);
        noteHeapRunnerUp();
    }

    /**
     * Whether the current child {@code c}, just moved, still comes before the runner-up: by its
     * run's limit when runs are trusted and that limit was found before the runner-up's key
     * (one comparison per run), else by its key.
     */
    private boolean staysAhead(int c, SortedIterator child) {
        if (trustRunLimits && !reverse) {
            long run = child.runStamp();
            if (run != checkedRun) {
                ByteBuffer limit = child.runLimit();
                runAhead = limit != null && compare(limit, c, keys[second], second) < 0;
                checkedRun = run;
            }
            if (runAhead) {
                return true;
            }
        }
        return before(c, second);
    }

    private void siftDown(int at) {
        int[] h = heap;
        int n = heapSize;
        int x = h[at];
        int i = at;
        while (true) {
            int l = 2 * i + 1;
            if (l >= n) {
                break;
            }
            int best = h[l];
            int r = l + 1;
            if (r < n && before(h[r], best)) {
                best = h[r];
                l = r;
            }
            if (!before(best, x)) {
                break;
            }
            h[i] = best;
            i = l;
        }
        h[i] = x;
    }

    /** Whether child {@code a}'s entry comes out before child {@code b}'s in this direction. */
    private boolean before(int a, int b) {
        int c = compare(keys[a], a, keys[b], b);
        if (c == 0) {
            c = Integer.compare(a, b);
        }
        return reverse ? c > 0 : c < 0;
    }

    /**
     * Compares a key of child {@code a} with one of child {@code b}. A comparator that finds the
     * bytes malformed (an internal key shorter than its trailer, which it reports by the shorter
     * length) names no place; its report is thrown again naming the file and offset of the child
     * whose key is the shorter.
     */
    private int compare(ByteBuffer ka, int a, ByteBuffer kb, int b) {
        try {
            return comparator.compare(ka, ka.position(), ka.remaining(), kb, kb.position(), kb.remaining());
        } catch (CorruptionException e) {
            if (e.file() != null) {
                throw e;
            }
            SortedIterator culprit = children[ka.remaining() <= kb.remaining() ? a : b];
            throw new CorruptionException(e.reason(), culprit.source(), culprit.sourceOffset(), e);
        }
    }
}
