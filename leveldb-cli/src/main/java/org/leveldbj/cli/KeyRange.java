package org.leveldbj.cli;

import java.io.IOException;
import java.util.Arrays;
import java.util.Map;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.DBIterator;

/**
 * A range of keys in bytewise order, {@code [lower, upper)}, and the scan of a database over it
 * in either direction.
 *
 * <p>Thread safety: immutable.
 *
 * @param lower the first key, inclusive, or {@code null} for the start of the database
 * @param upper the key the range stops before, or {@code null} for the end of the database
 */
record KeyRange(byte[] lower, byte[] upper) {
    /** Every key. */
    static final KeyRange ALL = new KeyRange(null, null);

    /**
     * The range of keys that are at least {@code from}, below {@code to} and start with
     * {@code prefix}; each may be {@code null}.
     *
     * @param from the inclusive start
     * @param to the exclusive end
     * @param prefix the prefix
     * @return the range
     */
    static KeyRange of(byte[] from, byte[] to, byte[] prefix) {
        byte[] lower = from;
        byte[] upper = to;
        if (prefix != null) {
            lower = max(lower, prefix);
            upper = min(upper, successor(prefix));
        }
        return new KeyRange(lower, upper);
    }

    /** The smallest key greater than every key starting with {@code prefix}; {@code null} if none. */
    static byte[] successor(byte[] prefix) {
        for (int i = prefix.length - 1; i >= 0; i--) {
            if (prefix[i] != (byte) 0xff) {
                byte[] s = Arrays.copyOf(prefix, i + 1);
                s[i]++;
                return s;
            }
        }
        return null;
    }

    private static byte[] max(byte[] a, byte[] b) {
        return a == null ? b : b == null ? a : Arrays.compareUnsigned(a, b) >= 0 ? a : b;
    }

    private static byte[] min(byte[] a, byte[] b) {
        return a == null ? b : b == null ? a : Arrays.compareUnsigned(a, b) <= 0 ? a : b;
    }

    /** @return whether {@code key} lies in the range */
    boolean contains(byte[] key) {
        return (lower == null || Arrays.compareUnsigned(key, lower) >= 0)
                && (upper == null || Arrays.compareUnsigned(key, upper) < 0);
    }

    /** Receives the entries of a scan; returns {@code false} to stop it. */
    @FunctionalInterface
    interface EntryConsumer {
        /**
         * One entry.
         *
         * @param key the key
         * @param value the value
         * @return whether to go on
         * @throws IOException if handling it fails (the scan stops)
         */
        boolean accept(byte[] key, byte[] value) throws IOException;
    }

    /**
     * Visits the database's entries in the range, in key order or in reverse.
     *
     * @param db the database
     * @param reverse whether to go from the last key to the first
     * @param limit the most entries to visit; {@code 0} or less for no limit
     * @param consumer receives the entries
     * @return how many entries were visited
     * @throws IOException if the consumer fails
     */
    long scan(DB db, boolean reverse, long limit, EntryConsumer consumer) throws IOException {
        long max = limit > 0 ? limit : Long.MAX_VALUE;
        long n = 0;
        try (DBIterator it = db.iterator()) {
            if (!reverse) {
                if (lower == null) {
                    it.seekToFirst();
                } else {
                    it.seek(lower);
                }
                while (n < max && it.hasNext()) {
                    Map.Entry<byte[], byte[]> e = it.next();
                    if (upper != null && Arrays.compareUnsigned(e.getKey(), upper) >= 0) {
                        break;
                    }
                    n++;
                    if (!consumer.accept(e.getKey(), e.getValue())) {
                        break;
                    }
                }
                return n;
            }
            // The cursor sits on an entry and prev() returns the one before it (DBIterator).
            boolean positioned = false;
            if (upper != null) {
                it.seek(upper);
                positioned = it.hasNext();
            }
            if (!positioned) {
                // Every key is below the upper bound: start on the last entry itself.
                it.seekToLast();
                if (!it.hasNext()) {
                    return 0;
                }
                Map.Entry<byte[], byte[]> last = it.peekNext();
                if (lower != null && Arrays.compareUnsigned(last.getKey(), lower) < 0) {
                    return 0;
                }
                n++;
                if (!consumer.accept(last.getKey(), last.getValue()) || n >= max) {
                    return n;
                }
            }
            while (n < max && it.hasPrev()) {
                Map.Entry<byte[], byte[]> e = it.prev();
                if (lower != null && Arrays.compareUnsigned(e.getKey(), lower) < 0) {
                    break;
                }
                n++;
                if (!consumer.accept(e.getKey(), e.getValue())) {
                    break;
                }
            }
            return n;
        }
    }
}
