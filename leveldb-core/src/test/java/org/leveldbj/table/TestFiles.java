package org.leveldbj.table;

import java.nio.ByteBuffer;
import java.util.HexFormat;
import org.iq80.leveldb.Env;
import org.leveldbj.util.ByteSink;

/** In-test files: a writable file collecting bytes, and random-access files over a byte array. */
final class TestFiles {
    private TestFiles() {
    }

    static byte[] hex(String s) {
        return HexFormat.of().parseHex(s.replace(" ", "").replace("\n", ""));
    }

    static byte[] bytes(String s) {
        return s.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
    }

    /** Collects appended bytes in memory. */
    static final class MemWritableFile implements Env.WritableFile {
        private final ByteSink sink = new ByteSink(1024);

        @Override
        public void append(ByteBuffer data) {
            sink.put(data, data.position(), data.remaining());
            data.position(data.limit());
        }

        @Override
        public void flush() {
        }

        @Override
        public void sync() {
        }

        @Override
        public void close() {
        }

        byte[] bytes() {
            return sink.toByteArray();
        }
    }

    /**
     * Reads a byte array: as fresh heap buffers (like positional reads) or as views of one direct
     * buffer (like a memory mapping).
     */
    static final class BufferFile implements Env.RandomAccessFile {
        private final ByteBuffer data;
        private final boolean mapped;

        private BufferFile(ByteBuffer data, boolean mapped) {
            this.data = data;
            this.mapped = mapped;
        }

        static BufferFile heap(byte[] bytes) {
            return new BufferFile(ByteBuffer.wrap(bytes.clone()), false);
        }

        static BufferFile direct(byte[] bytes) {
            ByteBuffer b = ByteBuffer.allocateDirect(bytes.length);
            b.put(bytes).flip();
            return new BufferFile(b, true);
        }

        static BufferFile of(byte[] bytes, boolean direct) {
            return direct ? direct(bytes) : heap(bytes);
        }

        @Override
        public long size() {
            return data.limit();
        }

        @Override
        public ByteBuffer read(long offset, int length) {
            if (offset < 0 || length < 0) {
                throw new IllegalArgumentException("offset " + offset + " length " + length);
            }
            int start = (int) Math.min(offset, data.limit());
            int n = Math.min(length, data.limit() - start);
            if (mapped) {
                return data.slice(start, n).asReadOnlyBuffer();
            }
            byte[] copy = new byte[n];
            data.get(start, copy);
            return ByteBuffer.wrap(copy).asReadOnlyBuffer();
        }

        @Override
        public boolean isMapped() {
            return mapped;
        }

        @Override
        public void close() {
        }
    }
}
