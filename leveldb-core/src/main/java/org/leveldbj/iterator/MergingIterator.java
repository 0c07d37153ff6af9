package org.leveldbj.iterator;

import java.nio.ByteBuffer;
import java.util.List;
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
 * backward; a step moves the child on top and sifts it down (one or two key comparisons when
 * that child keeps yielding the next entries, the common case of a scan). With up to
 * {@value #LINEAR_MAX} children, a step scans every child's key instead, as C++ LevelDB always
 * does: measured on forward merges of 2 to 12 in-memory children (keys interleaved at random,
 * or one child holding 90% of them), the scan is 10 to 25% faster up to 3 children, about even
 * at 4, and the heap is faster from 6 on (about 2.5 times at 12 when one child holds most
 * entries). Changing direction repositions every child other than the current
 * one relative to the current key, as C++ LevelDB's merging iterator does: going forward, each
 * moves to its first entry after the current one; going backward, to its last entry before it.
 * Steps allocate nothing. {@link #of} returns the only child itself when there is one, and an
 * empty iterator when there is none.
 *
 * <p>Errors: an exception thrown by a child leaves this iterator unpositioned and propagates.
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
    /** Linear mode: the child whose entry comes out second, or -1 when no other is valid. */
    private int second = -1;
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
        switch (children.size()) {
            case 0:
                return EmptyIterator.INSTANCE;
            case 1:
                return children.get(0);
            default:
                return new MergingIterator(comparator, children);
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
                    while (child.valid() && compare(child.key(), k) == 0) {
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
                    while (child.valid() && compare(child.key(), k) == 0) {
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
        second = runnerUp;
    }

    private void replaceTop(int c, SortedIterator child) {
        if (linear) {
            if (child.valid()) {
                keys[c] = child.key();
                // Still before the runner-up, hence before every other child: one comparison.
                if (second < 0 || before(c, second)) {
                    return;
                }
            } else {
                keys[c] = null;
            }
            scan();
            return;
        }
        if (child.valid()) {
            keys[c] = child.key();
        } else {
            keys[c] = null;
            int last = --heapSize;
            if (last == 0) {
                return;
            }
            heap[0] = heap[last];
        }
        siftDown(0);
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
        int c = compare(keys[a], keys[b]);
        if (c == 0) {
            c = Integer.compare(a, b);
        }
        return reverse ? c > 0 : c < 0;
    }

    private int compare(ByteBuffer a, ByteBuffer b) {
        return comparator.compare(a, a.position(), a.remaining(), b, b.position(), b.remaining());
    }
}
