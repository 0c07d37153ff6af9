package org.leveldbj.comparator;

import java.nio.ByteBuffer;
import java.util.Objects;
import org.iq80.leveldb.DBComparator;
import org.leveldbj.util.Bytes;

/**
 * Turns the API's user comparator into the engine's: {@code null} (the default) becomes the
 * allocation-free bytewise order, and a {@link DBComparator} is adapted by copying the compared
 * ranges into arrays, since its methods take arrays.
 *
 * <p>Errors: whatever the application's comparator throws is rethrown as a
 * {@link ComparatorFailure} naming it, with its exception as the cause, so that it is never
 * mistaken for an I/O error or a corruption.
 *
 * <p>Thread safety: stateless; the adapter is as thread-safe as the comparator it wraps.
 */
public final class UserComparators {
    private UserComparators() {
    }

    /**
     * Returns the engine comparator for an API comparator.
     *
     * @param comparator the application's comparator, or {@code null} for bytewise order
     * @return a key comparator with the same order and name
     */
    public static KeyComparator of(DBComparator comparator) {
        return comparator == null ? BytewiseComparator.INSTANCE : new Adapter(comparator);
    }

    private static final class Adapter implements KeyComparator {
        private final DBComparator comparator;
        private final String name;

        Adapter(DBComparator comparator) {
            this.comparator = comparator;
            this.name = Objects.requireNonNull(comparator.name(), "DBComparator.name() returned null");
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public int compare(ByteBuffer a, int aOffset, int aLength, ByteBuffer b, int bOffset, int bLength) {
            return compare(Bytes.copy(a, aOffset, aLength), Bytes.copy(b, bOffset, bLength));
        }

        @Override
        public int compare(byte[] a, byte[] b) {
            try {
                return comparator.compare(a, b);
            } catch (RuntimeException e) {
                throw new ComparatorFailure(name, e);
            }
        }

        @Override
        public byte[] findShortestSeparator(byte[] start, byte[] limit) {
            byte[] result;
            try {
                result = comparator.findShortestSeparator(start, limit);
            } catch (RuntimeException e) {
                throw new ComparatorFailure(name, e);
            }
            return result == null ? start : result;
        }

        @Override
        public byte[] findShortSuccessor(byte[] key) {
            byte[] result;
            try {
                result = comparator.findShortSuccessor(key);
            } catch (RuntimeException e) {
                throw new ComparatorFailure(name, e);
            }
            return result == null ? key : result;
        }

        @Override
        public String toString() {
            return name;
        }
    }
}
