package org.leveldbj.table;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The entries of one restart interval of a block, decoded once so that a {@link BlockIterator}
 * can step backwards through them without decoding the interval again for each step: each
 * entry's offset, value offset and length, and (within a memory budget) its full key, all keys
 * back to back in one array.
 *
 * <p>Thread safety: confined to the iterator that owns it. Arrays are allocated on first use and
 * reused for later intervals.
 */
final class DecodedInterval {
    private static final int[] NO_INTS = {};
    private static final byte[] NO_BYTES = {};

    /** The restart point the entries start at. */
    int restart;
    /** The offset the last entry ends at. */
    int end;
    /** The number of entries. */
    int count;
    /** Whether {@link #keys} holds every entry's key (false when they exceeded the budget). */
    boolean hasKeys;
    int[] offset = NO_INTS;
    int[] valueOffset = NO_INTS;
    int[] valueLength = NO_INTS;
    /** Key {@code i} is {@code keys[keyEnd[i - 1], keyEnd[i])}, with {@code keyEnd[-1] = 0}. */
    int[] keyEnd = NO_INTS;
    byte[] keys = NO_BYTES;
    /** A view of {@link #keys} for comparisons; its limit stays the array's length. */
    ByteBuffer keysWhole = ByteBuffer.wrap(NO_BYTES);
    /** A view of {@link #keys} handed to callers, who only read it (its array speeds their copies and comparisons). */
    ByteBuffer keysView = ByteBuffer.wrap(NO_BYTES);
    private int keyBytes;
    private int previousKeyStart;

    /** Starts a new interval. */
    void clear(int restartIndex, int endOffset) {
        restart = restartIndex;
        end = endOffset;
        count = 0;
        hasKeys = true;
        keyBytes = 0;
        previousKeyStart = 0;
    }

    /**
     * Appends the key of the next entry: {@code shared} bytes of the previous key followed by
     * {@code nonShared} bytes of the block. Gives up on keeping keys (clears {@link #hasKeys})
     * once they would need more than {@code budget} bytes.
     */
    void appendKey(int shared, BlockIterator source, int deltaAt, int nonShared, int budget) {
        if (!hasKeys) {
            return;
        }
        int n = shared + nonShared;
        if (n > budget - keyBytes) {
            hasKeys = false;
            return;
        }
        if (keys.length - keyBytes < n) {
            keys = Arrays.copyOf(keys, Math.max(Math.max(keyBytes + n, 256), 2 * keys.length));
            keysWhole = ByteBuffer.wrap(keys);
            keysView = ByteBuffer.wrap(keys);
        }
        System.arraycopy(keys, previousKeyStart, keys, keyBytes, shared);
        source.copyFromBlock(deltaAt, keys, keyBytes + shared, nonShared);
        previousKeyStart = keyBytes;
        keyBytes += n;
    }

    /** Appends the next entry; its key, if kept, was appended just before. */
    void addEntry(int entryOffset, int entryValueOffset, int entryValueLength) {
        int i = count;
        if (i == offset.length) {
            int n = Math.max(16, 2 * i);
            offset = Arrays.copyOf(offset, n);
            valueOffset = Arrays.copyOf(valueOffset, n);
            valueLength = Arrays.copyOf(valueLength, n);
            keyEnd = Arrays.copyOf(keyEnd, n);
        }
        offset[i] = entryOffset;
        valueOffset[i] = entryValueOffset;
        valueLength[i] = entryValueLength;
        keyEnd[i] = keyBytes;
        count = i + 1;
    }

    /** Where key {@code i} starts in {@link #keys}. Requires: {@link #hasKeys}. */
    int keyStart(int i) {
        return i == 0 ? 0 : keyEnd[i - 1];
    }
}
