package org.leveldbj.memtable;

import java.nio.ByteBuffer;
import org.leveldbj.key.InternalKeys;

/**
 * The bytes of one memtable entry, as C++ LevelDB's memtable lays them out:
 * <pre>
 *   varint32  internal key length (user key length + 8)
 *   bytes     user key
 *   fixed64   trailer: sequence &lt;&lt; 8 | type (little-endian)
 *   varint32  value length
 *   bytes     value                (empty for a deletion)
 * </pre>
 * The entry is written once, before its node is published, and never changes.
 *
 * <p>Decoding trusts the bytes: they were written by {@link #write} into arena memory that no
 * one else writes, so lengths are checked by assertions only.
 *
 * <p>Thread safety: stateless.
 */
final class MemTableEntry {
    /** The largest user key or value accepted: its length and the entry must fit an int. */
    static final int MAX_PART_LENGTH = Integer.MAX_VALUE / 2 - 64;

    private MemTableEntry() {
    }

    /**
     * The encoded length of an entry.
     *
     * <p>Requires: {@code 0 <= keyLength, valueLength <= MAX_PART_LENGTH}.
     *
     * @param keyLength the user key's length
     * @param valueLength the value's length
     * @return the number of bytes {@link #write} produces
     */
    static int encodedLength(int keyLength, int valueLength) {
        assert keyLength >= 0 && keyLength <= MAX_PART_LENGTH : "keyLength=" + keyLength;
        assert valueLength >= 0 && valueLength <= MAX_PART_LENGTH : "valueLength=" + valueLength;
        int internalKeyLength = keyLength + InternalKeys.TRAILER_SIZE;
        return varint32Length(internalKeyLength) + internalKeyLength + varint32Length(valueLength) + valueLength;
    }

    /**
     * Writes an entry at an absolute index (the buffer's position is not used).
     *
     * <p>Requires: {@code encodedLength(keyLength, valueLength)} bytes are free at {@code index}.
     *
     * @param dst the buffer
     * @param index where the entry starts
     * @param trailer the packed sequence and type
     * @param key array holding the user key
     * @param keyOffset index of its first byte
     * @param keyLength its length
     * @param value array holding the value
     * @param valueOffset index of its first byte
     * @param valueLength its length
     */
    static void write(ByteBuffer dst, int index, long trailer, byte[] key, int keyOffset, int keyLength,
                      byte[] value, int valueOffset, int valueLength) {
        int p = putVarint32(dst, index, keyLength + InternalKeys.TRAILER_SIZE);
        dst.put(p, key, keyOffset, keyLength);
        p += keyLength;
        dst.putLong(p, trailer);
        p += InternalKeys.TRAILER_SIZE;
        p = putVarint32(dst, p, valueLength);
        dst.put(p, value, valueOffset, valueLength);
        assert p + valueLength - index == encodedLength(keyLength, valueLength);
    }

    /**
     * Decodes the internal key's length prefix.
     *
     * @param src the buffer
     * @param entry where the entry starts
     * @return the internal key's length in the low 32 bits and the index of its first byte in
     *     the high 32 bits
     */
    static long internalKey(ByteBuffer src, int entry) {
        return getVarint32(src, entry);
    }

    /**
     * Decodes the value's length prefix.
     *
     * @param src the buffer
     * @param entry where the entry starts
     * @return the value's length in the low 32 bits and the index of its first byte in the high
     *     32 bits
     */
    static long value(ByteBuffer src, int entry) {
        long key = getVarint32(src, entry);
        return getVarint32(src, start(key) + length(key));
    }

    /**
     * The length half of a decoded prefix.
     *
     * @param packed a result of {@link #internalKey} or {@link #value}
     * @return the length
     */
    static int length(long packed) {
        return (int) packed;
    }

    /**
     * The start half of a decoded prefix.
     *
     * @param packed a result of {@link #internalKey} or {@link #value}
     * @return the index of the first byte
     */
    static int start(long packed) {
        return (int) (packed >>> 32);
    }

    private static long getVarint32(ByteBuffer src, int index) {
        int b = src.get(index);
        if (b >= 0) {
            return ((long) (index + 1) << 32) | b;
        }
        int result = b & 0x7f;
        for (int shift = 7, i = index + 1; ; shift += 7, i++) {
            assert shift <= 28 : "bad varint32 at " + index;
            b = src.get(i);
            result |= (b & 0x7f) << shift;
            if (b >= 0) {
                return ((long) (i + 1) << 32) | (result & 0xffffffffL);
            }
        }
    }

    private static int putVarint32(ByteBuffer dst, int index, int value) {
        assert value >= 0;
        while (value >= 0x80) {
            dst.put(index++, (byte) (value | 0x80));
            value >>>= 7;
        }
        dst.put(index++, (byte) value);
        return index;
    }

    private static int varint32Length(int value) {
        assert value >= 0;
        return value < (1 << 7) ? 1 : value < (1 << 14) ? 2 : value < (1 << 21) ? 3 : value < (1 << 28) ? 4 : 5;
    }
}
