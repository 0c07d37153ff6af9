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
 *
 * <p>The crash test's compaction filter ({@link StressCompactionFilter}) decides from the
 * operation number alone: it removes the values of the operations {@link #doomed} says, and
 * shortens those {@link #shortened} says (a prefix of a value still decodes to its operation).
 * Any round may run it, and a value written in one round may be compacted in another, so every
 * check compares states through {@link #visible}: a doomed operation's value counts as absent,
 * found or not. A removal that brought an older value back is still caught, unless that value is
 * doomed too.
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

    /**
     * Whether the crash test's compaction filter removes the value of an operation: one in 16.
     *
     * @param op the operation number
     * @return {@code true} when the filter removes its values
     */
    static boolean doomed(long op) {
        return (mix(op) & 15) == 0;
    }

    /**
     * Whether the crash test's compaction filter replaces the value of an operation by a prefix
     * of it (half its filler): one in 16, none of them doomed.
     *
     * @param op the operation number
     * @return {@code true} when the filter shortens its values
     */
    static boolean shortened(long op) {
        return (mix(op) & 15) == 1;
    }

    /**
     * A key's state as the checks compare it: the value of a doomed operation counts as absent.
     *
     * @param state an operation number, or {@link ExpectedState#ABSENT}
     * @return the state, or {@link ExpectedState#ABSENT} for a doomed operation
     */
    static long visible(long state) {
        return state != ExpectedState.ABSENT && doomed(state) ? ExpectedState.ABSENT : state;
    }

    /**
     * A key's state read from the database, as the checks compare it.
     *
     * @return {@link #visible} of the value's operation, or {@link ExpectedState#ABSENT} for none
     * @throws IllegalArgumentException as {@link #decode} does
     */
    static long state(int thread, int index, byte[] value) {
        return value == null ? ExpectedState.ABSENT : visible(decode(thread, index, value));
    }

    private static long mix(long op) {
        long z = op * 0xBF58476D1CE4E5B9L;
        return z ^ (z >>> 31);
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
