package org.leveldbj.table;

import java.nio.ByteBuffer;
import java.util.Arrays;
import org.leveldbj.comparator.KeyComparator;
import org.leveldbj.util.ByteSink;

/**
 * Builds one block: sorted entries with shared-prefix key compression and a restart array (the
 * layout is in the package documentation). Every {@code restartInterval} entries the key is
 * stored whole and the entry's offset is recorded as a restart point, so that a reader can
 * binary-search the restart points and then scan forward.
 *
 * <p>Thread safety: confined to one thread.
 *
 * <p>Lifetime: reusable; {@link #finish()} returns a view of the builder's buffer that stays
 * valid until {@link #reset()}.
 */
public final class BlockBuilder {
    private final int restartInterval;
    private final KeyComparator comparator;
    private final ByteSink buffer = new ByteSink(4096);
    private int[] restarts = new int[32];
    private int restartCount;
    /** Entries added since the last restart point. */
    private int counter;
    private int entries;
    private boolean finished;
    private byte[] lastKey = new byte[64];
    private int lastKeyLength;

    /**
     * Creates an empty builder.
     *
     * <p>Requires: {@code restartInterval >= 1}.
     *
     * @param restartInterval how many entries share one restart point
     * @param comparator the key order, used to check that keys are added in order
     */
    public BlockBuilder(int restartInterval, KeyComparator comparator) {
        if (restartInterval < 1) {
            throw new IllegalArgumentException("restartInterval must be at least 1: " + restartInterval);
        }
        this.restartInterval = restartInterval;
        this.comparator = comparator;
        reset();
    }

    /** Empties the builder so that it can build another block. */
    public void reset() {
        buffer.reset();
        restarts[0] = 0; // the first entry is always a restart point
        restartCount = 1;
        counter = 0;
        entries = 0;
        finished = false;
        lastKeyLength = 0;
    }

    /**
     * Tells whether no entry was added since the last {@link #reset()}.
     *
     * @return {@code true} when empty
     */
    public boolean isEmpty() {
        return entries == 0;
    }

    /**
     * The number of entries added.
     *
     * @return the entry count
     */
    public int entryCount() {
        return entries;
    }

    /**
     * The size the block would have if finished now.
     *
     * @return entries plus restart array plus restart count, in bytes
     */
    public int currentSizeEstimate() {
        return buffer.length() + restartCount * 4 + 4;
    }

    /**
     * Appends an entry. Requires: not finished, and {@code key} after every key added before.
     *
     * @param key the key (remaining bytes; position not moved)
     * @param value the value (remaining bytes; position not moved)
     */
    public void add(ByteBuffer key, ByteBuffer value) {
        int keyOffset = key.position();
        int keyLength = key.remaining();
        assert !finished : "block already finished";
        assert entries == 0 || comparator.compare(key, keyOffset, keyLength,
                ByteBuffer.wrap(lastKey), 0, lastKeyLength) > 0 : "keys must be added in increasing order";
        int shared = 0;
        if (counter < restartInterval) {
            int n = Math.min(lastKeyLength, keyLength);
            if (key.hasArray()) {
                int from = key.arrayOffset() + keyOffset;
                int diff = Arrays.mismatch(lastKey, 0, n, key.array(), from, from + n);
                shared = diff < 0 ? n : diff;
            } else {
                while (shared < n && lastKey[shared] == key.get(keyOffset + shared)) {
                    shared++;
                }
            }
        } else {
            if (restartCount == restarts.length) {
                restarts = Arrays.copyOf(restarts, 2 * restarts.length);
            }
            restarts[restartCount++] = buffer.length();
            counter = 0;
        }
        int nonShared = keyLength - shared;
        int valueLength = value.remaining();
        buffer.putVarint32(shared).putVarint32(nonShared).putVarint32(valueLength);
        buffer.put(key, keyOffset + shared, nonShared);
        buffer.put(value, value.position(), valueLength);
        if (lastKey.length < keyLength) {
            lastKey = Arrays.copyOf(lastKey, Math.max(keyLength, 2 * lastKey.length));
        }
        key.get(keyOffset + shared, lastKey, shared, nonShared);
        lastKeyLength = keyLength;
        counter++;
        entries++;
    }

    /**
     * Appends an entry held in arrays; see {@link #add(ByteBuffer, ByteBuffer)}.
     *
     * @param key the key
     * @param value the value
     */
    public void add(byte[] key, byte[] value) {
        add(ByteBuffer.wrap(key), ByteBuffer.wrap(value));
    }

    /**
     * Appends the restart array and returns the finished block. Requires: not finished.
     *
     * @return a heap view of the block's bytes, valid until {@link #reset()}
     */
    public ByteBuffer finish() {
        assert !finished : "block already finished";
        for (int i = 0; i < restartCount; i++) {
            buffer.putFixed32(restarts[i]);
        }
        buffer.putFixed32(restartCount);
        finished = true;
        return buffer.view();
    }

    /**
     * The last key added.
     *
     * @return a copy of the last key, or an empty array when the block is empty
     */
    public byte[] lastKey() {
        return Arrays.copyOf(lastKey, lastKeyLength);
    }
}
