package org.iq80.leveldb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class WriteBatchTest {

    @Test
    void anImplementationWithoutTheExtensionsFailsClearly() {
        WriteBatch batch = new MinimalBatch();
        UnsupportedOperationException size =
                assertThrows(UnsupportedOperationException.class, batch::size);
        assertEquals("size() is not implemented by " + MinimalBatch.class.getName()
                + "; the batches returned by DB.createWriteBatch() of this project's engine "
                + "implement it", size.getMessage());
        UnsupportedOperationException bytes =
                assertThrows(UnsupportedOperationException.class, batch::approximateSize);
        assertEquals("approximateSize() is not implemented by " + MinimalBatch.class.getName()
                + "; the batches returned by DB.createWriteBatch() of this project's engine "
                + "implement it", bytes.getMessage());
    }

    @Test
    void implementationsCanProvideTheExtensions() {
        WriteBatch batch = new CountingBatch();
        batch.put(new byte[] {1}, new byte[200]).delete(new byte[] {2, 3});
        assertEquals(2, batch.size());
        // 12-byte header; put: tag, varint 1, 1 key byte, varint 200 (2 bytes), 200 value
        // bytes; delete: tag, varint 2, 2 key bytes.
        assertEquals(12 + (1 + 1 + 1 + 2 + 200) + (1 + 1 + 2), batch.approximateSize());
    }

    /** A batch written against 0.12, which had neither size method. */
    private static final class MinimalBatch implements WriteBatch {
        @Override
        public WriteBatch put(byte[] key, byte[] value) {
            return this;
        }

        @Override
        public WriteBatch delete(byte[] key) {
            return this;
        }

        @Override
        public void close() {
        }
    }

    /** A batch that keeps the count and encoded size the way the engine's batches do. */
    private static final class CountingBatch implements WriteBatch {
        private int count;
        private long bytes = 12;

        @Override
        public WriteBatch put(byte[] key, byte[] value) {
            count++;
            bytes += 1 + lengthPrefixed(key.length) + lengthPrefixed(value.length);
            return this;
        }

        @Override
        public WriteBatch delete(byte[] key) {
            count++;
            bytes += 1 + lengthPrefixed(key.length);
            return this;
        }

        @Override
        public int size() {
            return count;
        }

        @Override
        public long approximateSize() {
            return bytes;
        }

        @Override
        public void close() {
        }

        private static long lengthPrefixed(int length) {
            int varintBytes = 1;
            for (int v = length; v >= 0x80; v >>>= 7) {
                varintBytes++;
            }
            return varintBytes + length;
        }
    }
}
