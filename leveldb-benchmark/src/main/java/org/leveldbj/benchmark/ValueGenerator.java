package org.leveldbj.benchmark;

import java.util.Arrays;

/**
 * Values for the write workloads, compressible to a chosen fraction of their size: one MiB of
 * printable bytes made of 100-byte pieces, each a random run of {@code 100 x ratio} bytes
 * repeated to fill the piece, served in consecutive slices as db_bench serves its values. The
 * data is immutable and shared between threads; each thread keeps its own {@link Cursor}.
 */
final class ValueGenerator {
    static final int DATA_SIZE = 1 << 20;
    private static final int PIECE = 100;
    private static final int SEED = 301;

    private final byte[] data;

    ValueGenerator(double compressionRatio) {
        BenchRandom random = new BenchRandom(SEED);
        byte[] bytes = new byte[DATA_SIZE + PIECE];
        int length = 0;
        while (length < DATA_SIZE) {
            length += compressiblePiece(random, compressionRatio, bytes, length);
        }
        this.data = Arrays.copyOf(bytes, length);
    }

    private static int compressiblePiece(BenchRandom random, double ratio, byte[] out, int at) {
        int raw = Math.max(1, (int) (PIECE * ratio));
        for (int i = 0; i < raw; i++) {
            out[at + i] = (byte) (' ' + random.uniform(95));
        }
        for (int i = raw; i < PIECE; i++) {
            out[at + i] = out[at + i - raw];
        }
        return PIECE;
    }

    /** A new reader of values, starting at the beginning of the data. */
    Cursor cursor() {
        return new Cursor();
    }

    /** Consecutive slices of the generator's data; wraps around at the end. */
    final class Cursor {
        private int position;

        private Cursor() {
        }

        /** A fresh array of the next {@code length} bytes; {@code length} is below 1 MiB. */
        byte[] next(int length) {
            if (length > data.length) {
                throw new IllegalArgumentException("value size above " + data.length);
            }
            if (position + length > data.length) {
                position = 0;
            }
            position += length;
            return Arrays.copyOfRange(data, position - length, position);
        }
    }
}
