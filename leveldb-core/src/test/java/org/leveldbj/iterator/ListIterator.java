package org.leveldbj.iterator;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.leveldbj.comparator.KeyComparator;

/**
 * An in-test {@link SortedIterator} over a list of key/value pairs already sorted by a
 * comparator. Key and value views are fresh read-only buffers (like a child that cannot lend
 * one view for long), and it counts how often it was closed.
 */
public final class ListIterator implements SortedIterator {
    private final List<byte[][]> entries;
    private final KeyComparator comparator;
    private int pos = -1;
    private int closes;

    /**
     * @param entries {key, value} pairs sorted by {@code comparator} (not copied)
     * @param comparator their order
     */
    public ListIterator(List<byte[][]> entries, KeyComparator comparator) {
        this.entries = new ArrayList<>(entries);
        this.comparator = comparator;
    }

    /** How many times {@link #close()} was called. */
    public int closes() {
        return closes;
    }

    @Override
    public boolean valid() {
        return pos >= 0 && pos < entries.size();
    }

    @Override
    public void seekToFirst() {
        pos = entries.isEmpty() ? -1 : 0;
    }

    @Override
    public void seekToLast() {
        pos = entries.size() - 1;
    }

    @Override
    public void seek(ByteBuffer target) {
        int lo = 0;
        int hi = entries.size();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            byte[] k = entries.get(mid)[0];
            if (comparator.compare(ByteBuffer.wrap(k), 0, k.length, target, target.position(), target.remaining()) < 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        pos = lo < entries.size() ? lo : -1;
    }

    @Override
    public void next() {
        if (!valid()) {
            throw new IllegalStateException("not positioned");
        }
        pos++;
        if (pos >= entries.size()) {
            pos = -1;
        }
    }

    @Override
    public void prev() {
        if (!valid()) {
            throw new IllegalStateException("not positioned");
        }
        pos--;
    }

    @Override
    public ByteBuffer key() {
        return ByteBuffer.wrap(entries.get(pos)[0]).asReadOnlyBuffer();
    }

    @Override
    public ByteBuffer value() {
        return ByteBuffer.wrap(entries.get(pos)[1]).asReadOnlyBuffer();
    }

    @Override
    public void close() {
        closes++;
        pos = -1;
    }
}
