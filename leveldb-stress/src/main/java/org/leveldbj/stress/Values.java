package org.leveldbj.stress;

import java.nio.ByteBuffer;

/**
 * The values of the stress test, which name the write that produced them, so a value found
 * after a crash tells exactly which operation it came from.
 *
 * <p>Layout (big-endian): magic {@code int}, thread {@code int}, key index {@code int}, operation
 * number {@code long}, then filler up to the value's length, a pseudo-random sequence seeded by
 * (thread, key index, operation) that {@link #decode} checks byte by byte. Stateless; safe for
 * concurrent use.
 */
final class Values {
    /** The smallest value length: the header alone. */
    static final int HEADER = 20;
    private static final int MAGIC = 0x53545253;

    private Values() {
    }

    static byte[] encode(int thread, int index, long op, int length) {
        assert length >= HEADER;
        byte[] value = new byte[length];
        ByteBuffer.wrap(value).putInt(MAGIC).putInt(thread).putInt(index).putLong(op);
        long state = seed(thread, index, op);
        for (int i = HEADER; i < length; i++) {
            state = next(state);
            value[i] = (byte) state;
        }
        return value;
    }

    /**
     * Reads the operation number out of a value written for the given key.
     *
     * @return the operation number
     * @throws IllegalArgumentException naming what is wrong when the value is not one
     *     {@link #encode} wrote for this key
     */
    static long decode(int thread, int index, byte[] value) {
        if (value.length < HEADER) {
            throw new IllegalArgumentException("value of " + value.length + " bytes, shorter than its header");
        }
        ByteBuffer b = ByteBuffer.wrap(value);
        int magic = b.getInt();
        int t = b.getInt();
        int i = b.getInt();
        long op = b.getLong();
        if (magic != MAGIC || t != thread || i != index) {
            throw new IllegalArgumentException(String.format(
                    "value header magic=%08x thread=%d index=%d does not belong to this key", magic, t, i));
        }
        long state = seed(thread, index, op);
        for (int k = HEADER; k < value.length; k++) {
            state = next(state);
            if (value[k] != (byte) state) {
                throw new IllegalArgumentException("value of op " + op + " damaged at byte " + k + " of "
                        + value.length);
            }
        }
        return op;
    }

    private static long seed(int thread, int index, long op) {
        long s = op * 0x9E3779B97F4A7C15L + ((long) thread << 32 | index);
        return s == 0 ? 1 : s;
    }

    private static long next(long x) {
        x ^= x << 13;
        x ^= x >>> 7;
        x ^= x << 17;
        return x;
    }
}
