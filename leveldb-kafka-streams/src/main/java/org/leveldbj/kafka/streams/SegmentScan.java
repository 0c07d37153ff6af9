package org.leveldbj.kafka.streams;

import java.util.AbstractMap;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * A walk over the segments of a window or session store's data (see {@link SegmentedData}),
 * forwards or backwards, between two segment ids, visiting in each segment only the schema keys
 * between two bounds and returning those a predicate accepts. Segments that hold nothing cost
 * one seek: the walk jumps from segment to segment by seeking, so a range of segment ids with
 * few stored segments is cheap. Optionally ({@link #sortedWithinSegments}) the accepted entries
 * of each segment are returned in another order, holding one segment's accepted entries at a
 * time.
 *
 * <p>Thread safety: one thread at a time. Lifetime: the cursor belongs to the caller.
 */
final class SegmentScan {
    private static final byte[] EMPTY = new byte[0];

    private final DataIterator cursor;
    private final long fromSegment;
    private final long toSegment;
    private final byte[] low;
    private final byte[] high;
    private final Predicate<byte[]> accept;
    private final boolean forward;
    private boolean lastPending;
    private boolean done;
    private long lastSegment;
    private Comparator<byte[]> withinSegment;
    private final ArrayDeque<Map.Entry<byte[], byte[]>> sorted = new ArrayDeque<>();
    private Map.Entry<byte[], byte[]> pushedBack;
    private long pushedBackSegment;

    /**
     * @param cursor an open data iterator
     * @param fromSegment the first segment id to visit
     * @param toSegment the last segment id to visit
     * @param low the smallest schema key to visit in each segment, or {@code null}
     * @param high the largest schema key to visit in each segment, or {@code null}
     * @param accept which visited schema keys to return
     * @param forward ascending when {@code true}
     */
    SegmentScan(DataIterator cursor, long fromSegment, long toSegment, byte[] low, byte[] high,
                Predicate<byte[]> accept, boolean forward) {
        this.cursor = cursor;
        this.fromSegment = fromSegment;
        this.toSegment = toSegment;
        this.low = low;
        this.high = high;
        this.accept = accept;
        this.forward = forward;
        if (fromSegment > toSegment) {
            done = true;
        } else if (forward) {
            cursor.seek(SegmentedData.dataKey(fromSegment, low == null ? EMPTY : low));
        } else {
            positionBefore(afterHigh(toSegment));
        }
    }

    /** The smallest data key above every visited key of a segment. */
    private byte[] afterHigh(long segment) {
        if (high == null) {
            return SegmentedData.segmentPrefix(segment + 1);
        }
        byte[] k = SegmentedData.dataKey(segment, high);
        return Arrays.copyOf(k, k.length + 1); // high, then a zero byte: the next key up
    }

    /** Positions the cursor so that the next backward step returns the last key below {@code key}. */
    private void positionBefore(byte[] key) {
        cursor.seek(key);
        lastPending = false;
        if (!cursor.hasNext()) {
            cursor.seekToLast();
            lastPending = true;
        }
    }

    private Map.Entry<byte[], byte[]> step() {
        if (forward) {
            return cursor.hasNext() ? cursor.next() : null;
        }
        if (lastPending) {
            lastPending = false;
            return cursor.hasNext() ? cursor.peekNext() : null;
        }
        return cursor.hasPrev() ? cursor.prev() : null;
    }

    /**
     * Returns each segment's accepted entries sorted by {@code order} (of their schema keys)
     * instead of the stored order; segments still come in the walk's order. Call before the
     * first {@link #next()}.
     *
     * @param order the order within a segment
     * @return this
     */
    SegmentScan sortedWithinSegments(Comparator<byte[]> order) {
        this.withinSegment = order;
        return this;
    }

    /**
     * @return the next accepted entry, its key being the schema key (without the segment id),
     *     or {@code null} when the walk is over
     */
    Map.Entry<byte[], byte[]> next() {
        if (withinSegment == null) {
            return nextStored();
        }
        if (sorted.isEmpty()) {
            Map.Entry<byte[], byte[]> e = pushedBack != null ? pushedBack : nextStored();
            long segment = pushedBack != null ? pushedBackSegment : lastSegment;
            pushedBack = null;
            List<Map.Entry<byte[], byte[]>> one = new ArrayList<>();
            while (e != null) {
                one.add(e);
                e = nextStored();
                if (e != null && lastSegment != segment) {
                    pushedBack = e;
                    pushedBackSegment = lastSegment;
                    break;
                }
            }
            one.sort((a, b) -> withinSegment.compare(a.getKey(), b.getKey()));
            sorted.addAll(one);
        }
        return sorted.poll();
    }

    /** The next accepted entry in the stored order. */
    private Map.Entry<byte[], byte[]> nextStored() {
        while (!done) {
            Map.Entry<byte[], byte[]> e = step();
            if (e == null) {
                done = true;
                break;
            }
            byte[] key = e.getKey();
            long segment = SegmentedData.segmentOf(key);
            byte[] schema = SegmentedData.schemaKey(key);
            if (forward) {
                if (segment > toSegment) {
                    done = true;
                } else if (low != null && Arrays.compareUnsigned(schema, low) < 0) {
                    cursor.seek(SegmentedData.dataKey(segment, low));
                } else if (high != null && Arrays.compareUnsigned(schema, high) > 0) {
                    if (segment == toSegment) {
                        done = true;
                    } else {
                        cursor.seek(SegmentedData.dataKey(segment + 1, low == null ? EMPTY : low));
                    }
                } else if (accept.test(schema)) {
                    lastSegment = segment;
                    return new AbstractMap.SimpleImmutableEntry<>(schema, e.getValue());
                }
            } else {
                if (segment < fromSegment) {
                    done = true;
                } else if (high != null && Arrays.compareUnsigned(schema, high) > 0) {
                    positionBefore(afterHigh(segment));
                } else if (low != null && Arrays.compareUnsigned(schema, low) < 0) {
                    if (segment == fromSegment) {
                        done = true;
                    } else {
                        positionBefore(SegmentedData.segmentPrefix(segment));
                    }
                } else if (accept.test(schema)) {
                    lastSegment = segment;
                    return new AbstractMap.SimpleImmutableEntry<>(schema, e.getValue());
                }
            }
        }
        return null;
    }
}
