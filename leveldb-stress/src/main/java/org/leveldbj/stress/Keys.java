package org.leveldbj.stress;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The keys of the stress test: thread {@code t} owns the keys {@code t003/00000042} (thread 3,
 * key index 42), so each thread's keys form one contiguous range and no two threads write the
 * same key. Stateless; safe for concurrent use.
 */
final class Keys {
    private static final int LENGTH = 13;
    /** The length of {@link #shortPrefix}: a key without its last digit. */
    static final int SHORT_PREFIX_LENGTH = LENGTH - 1;

    private Keys() {
    }

    static byte[] key(int thread, int index) {
        return String.format("t%03d/%08d", thread, index).getBytes(StandardCharsets.US_ASCII);
    }

    /** The first key of the thread's range (every key of the range starts with it). */
    static byte[] prefix(int thread) {
        return String.format("t%03d/", thread).getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * The prefix of ten consecutive keys of the thread's range: {@code t003/0000004} for the keys
     * 40 to 49.
     */
    static byte[] shortPrefix(int thread, int index) {
        return Arrays.copyOf(key(thread, index), SHORT_PREFIX_LENGTH);
    }

    /** The smallest key greater than every key of the thread's range. */
    static byte[] limit(int thread) {
        return String.format("t%03d0", thread).getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * Parses a key.
     *
     * @return {@code {thread, index}}, or {@code null} when the key is not a stress key
     */
    static int[] parse(byte[] key) {
        if (key.length != LENGTH || key[0] != 't' || key[4] != '/') {
            return null;
        }
        int thread = digits(key, 1, 4);
        int index = digits(key, 5, LENGTH);
        return thread < 0 || index < 0 ? null : new int[] {thread, index};
    }

    static String show(byte[] key) {
        return new String(key, StandardCharsets.US_ASCII);
    }

    private static int digits(byte[] b, int from, int to) {
        int n = 0;
        for (int i = from; i < to; i++) {
            if (b[i] < '0' || b[i] > '9') {
                return -1;
            }
            n = n * 10 + (b[i] - '0');
        }
        return n;
    }
}
