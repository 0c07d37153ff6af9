package org.leveldbj.iterator;

import java.nio.ByteBuffer;
import java.util.NavigableMap;
import org.leveldbj.comparator.KeyComparator;

/**
 * A sorted iterator over user entries (a database's) with a sorted map of changes laid over
 * them: an entry of the map replaces the base's entry of the same key, or hides it when its
 * value is the map's tombstone, and adds its key when the base has none. This is how a write
 * batch with an index is read through, RocksDB's "base delta" iterator.
 *
 * <p>How it moves: it keeps a cursor on each side, the base iterator and a key of the map, and
 * is on whichever of the two keys comes first in the direction of travel (the map's on a tie,
 * the base then waiting on the same key). Tombstones are stepped over, taking the base's equal
 * key with them. Changing direction re-positions both sides around the current key. The map is
 * consulted by key ({@code higherKey}, {@code lowerKey}, ...) at each move, never through a map
 * iterator, so changes made to the map between moves are seen at the keys not yet passed, and
 * cannot break the iterator. Memory: the two cursors and the current key; nothing is copied.
 *
 * <p>Thread safety: confined to one thread at a time, with the map and the base.
 *
 * <p>Lifetime: owns the base iterator and closes it; the map is the caller's.
 */
public final class OverlayIterator implements SortedIterator {
    private final SortedIterator base;
    private final NavigableMap<byte[], byte[]> delta;
    private final byte[] tombstone;
    private final KeyComparator comparator;

    /** The map's cursor: a key of the map, or {@code null} when it is off the map's end. */
    private byte[] deltaKey;
    /** Whether the iterator is on the map's key (else on the base's, or unpositioned). */
    private boolean onDelta;
    private boolean forward = true;
    private boolean valid;

    /**
     * Creates an unpositioned iterator.
     *
     * @param base user entries in {@code comparator}'s order; owned from now on
     * @param delta the changes, ordered by {@code comparator}; a value identical to
     *     {@code tombstone} (the same array) deletes its key
     * @param tombstone the marker of a deletion in {@code delta}
     * @param comparator the user key order of both sides
     */
    public OverlayIterator(SortedIterator base, NavigableMap<byte[], byte[]> delta, byte[] tombstone,
                           KeyComparator comparator) {
        this.base = base;
        this.delta = delta;
        this.tombstone = tombstone;
        this.comparator = comparator;
    }

    @Override
    public boolean valid() {
        return valid;
    }

    @Override
    public void seekToFirst() {
        base.seekToFirst();
        deltaKey = delta.isEmpty() ? null : delta.firstKey();
        forward = true;
        settleForward();
    }

    @Override
    public void seekToLast() {
        base.seekToLast();
        deltaKey = delta.isEmpty() ? null : delta.lastKey();
        forward = false;
        settleBackward();
    }

    @Override
    public void seek(ByteBuffer target) {
        base.seek(target);
        byte[] t = new byte[target.remaining()];
        target.get(target.position(), t);
        deltaKey = delta.ceilingKey(t);
        forward = true;
        settleForward();
    }

    @Override
    public void next() {
        assert valid;
        if (!forward) {
            turnForward();
        } else if (onDelta) {
            if (base.valid() && compareBaseToDelta() == 0) {
                base.next();
            }
            deltaKey = delta.higherKey(deltaKey);
        } else {
            base.next();
        }
        settleForward();
    }

    @Override
    public void prev() {
        assert valid;
        if (forward) {
            turnBackward();
        } else if (onDelta) {
            if (base.valid() && compareBaseToDelta() == 0) {
                base.prev();
            }
            deltaKey = delta.lowerKey(deltaKey);
        } else {
            base.prev();
        }
        settleBackward();
    }

    @Override
    public ByteBuffer key() {
        assert valid;
        return onDelta ? ByteBuffer.wrap(deltaKey).asReadOnlyBuffer() : base.key();
    }

    @Override
    public ByteBuffer value() {
        assert valid;
        if (onDelta) {
            byte[] v = delta.get(deltaKey);
            // The key may have left the map since the move (a caller's change): read it as gone.
            return ByteBuffer.wrap(v == null || v == tombstone ? new byte[0] : v).asReadOnlyBuffer();
        }
        return base.value();
    }

    @Override
    public void close() {
        base.close();
    }

    /** Puts both sides past the current key, going forward from it. */
    private void turnForward() {
        byte[] current = currentKey();
        if (!base.valid()) {
            base.seekToFirst();
        }
        while (base.valid() && compareBase(current) <= 0) {
            base.next();
        }
        deltaKey = delta.higherKey(current);
        forward = true;
    }

    /** Puts both sides before the current key, going backward from it. */
    private void turnBackward() {
        byte[] current = currentKey();
        if (!base.valid()) {
            base.seekToLast();
        }
        while (base.valid() && compareBase(current) >= 0) {
            base.prev();
        }
        deltaKey = delta.lowerKey(current);
        forward = false;
    }

    private byte[] currentKey() {
        if (onDelta) {
            return deltaKey;
        }
        ByteBuffer k = base.key();
        byte[] copy = new byte[k.remaining()];
        k.get(k.position(), copy);
        return copy;
    }

    /** Lands on the smaller of the two sides' keys, stepping over tombstones. */
    private void settleForward() {
        while (true) {
            if (deltaKey == null) {
                onDelta = false;
                valid = base.valid();
                return;
            }
            int c = base.valid() ? compareBaseToDelta() : 1;
            if (delta.get(deltaKey) == tombstone) {
                if (c == 0) {
                    base.next();
                    continue;
                }
                if (c < 0) {
                    onDelta = false;
                    valid = true;
                    return;
                }
                deltaKey = delta.higherKey(deltaKey);
                continue;
            }
            onDelta = c >= 0;
            valid = true;
            return;
        }
    }

    /** Lands on the larger of the two sides' keys, stepping over tombstones. */
    private void settleBackward() {
        while (true) {
            if (deltaKey == null) {
                onDelta = false;
                valid = base.valid();
                return;
            }
            int c = base.valid() ? compareBaseToDelta() : -1;
            if (delta.get(deltaKey) == tombstone) {
                if (c == 0) {
                    base.prev();
                    continue;
                }
                if (c > 0) {
                    onDelta = false;
                    valid = true;
                    return;
                }
                deltaKey = delta.lowerKey(deltaKey);
                continue;
            }
            onDelta = c <= 0;
            valid = true;
            return;
        }
    }

    private int compareBaseToDelta() {
        return compareBase(deltaKey);
    }

    private int compareBase(byte[] key) {
        ByteBuffer k = base.key();
        return comparator.compare(k, k.position(), k.remaining(), ByteBuffer.wrap(key), 0, key.length);
    }
}
