package org.iq80.leveldb;

import java.nio.ByteBuffer;
import java.util.Arrays;

/** The built-in {@link PrefixExtractor}s: immutable values, equal when their names are. */
final class PrefixExtractors {
    private PrefixExtractors() {
    }

    /** A key's first {@code length} bytes. */
    static final class FixedLength implements PrefixExtractor {
        private final int length;

        FixedLength(int length) {
            this.length = length;
        }

        @Override
        public String name() {
            return "leveldbj.FixedPrefix." + length;
        }

        @Override
        public boolean inDomain(byte[] key) {
            return key.length >= length;
        }

        @Override
        public byte[] prefix(byte[] key) {
            if (key.length < length) {
                throw new IllegalArgumentException("key of " + key.length + " bytes is outside the domain of " + name());
            }
            return Arrays.copyOf(key, length);
        }

        @Override
        public int prefixLength(ByteBuffer key, int offset, int keyLength) {
            return keyLength >= length ? length : -1;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof FixedLength && ((FixedLength) o).length == length;
        }

        @Override
        public int hashCode() {
            return length;
        }

        @Override
        public String toString() {
            return name();
        }
    }

    /** A key up to and including the first delimiter byte. */
    static final class Delimited implements PrefixExtractor {
        private final byte delimiter;

        Delimited(byte delimiter) {
            this.delimiter = delimiter;
        }

        @Override
        public String name() {
            return "leveldbj.DelimitedPrefix." + (delimiter & 0xff);
        }

        @Override
        public boolean inDomain(byte[] key) {
            return indexOf(key) >= 0;
        }

        @Override
        public byte[] prefix(byte[] key) {
            int i = indexOf(key);
            if (i < 0) {
                throw new IllegalArgumentException("key without the delimiter is outside the domain of " + name());
            }
            return Arrays.copyOf(key, i + 1);
        }

        private int indexOf(byte[] key) {
            for (int i = 0; i < key.length; i++) {
                if (key[i] == delimiter) {
                    return i;
                }
            }
            return -1;
        }

        @Override
        public int prefixLength(ByteBuffer key, int offset, int keyLength) {
            for (int i = 0; i < keyLength; i++) {
                if (key.get(offset + i) == delimiter) {
                    return i + 1;
                }
            }
            return -1;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Delimited && ((Delimited) o).delimiter == delimiter;
        }

        @Override
        public int hashCode() {
            return delimiter;
        }

        @Override
        public String toString() {
            return name();
        }
    }
}
