package org.leveldbj.benchmark;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

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

    /**
     * Consecutive slices of the generator's data; wraps around at the end. A slice is cut once
     * and handed out again each time the cursor comes back to it (callers must not change it),
     * so that producing a value costs no copy, as db_bench's values (slices of its buffer) do
     * not. Slices are kept up to {@link #MAX_CACHED_BYTES} per cursor; past that they are cut
     * anew each time.
     */
    final class Cursor {
        /** The most bytes of slices a cursor keeps. */
        static final long MAX_CACHED_BYTES = 64L << 20;

        private int position;
        /** Slices of {@link #slicedLength} bytes at multiples of it, by start / length. */
        private byte[][] byStart = new byte[0][];
        private int slicedLength = -1;
        /** Other slices (after a change of length), by {@code start << 32 | length}. */
        private final Map<Long, byte[]> others = new HashMap<>();
        private long cachedBytes;

        private Cursor() {
        }

        /** The next {@code length} bytes; {@code length} is at most 1 MiB. */
        byte[] next(int length) {
            if (length > data.length) {
                throw new IllegalArgumentException("value size above " + data.length);
            }
            if (position + length > data.length) {
                position = 0;
            }
            int start = position;
            position += length;
            if (slicedLength < 0 && length > 0) {
                slicedLength = length;
                byStart = new byte[data.length / length][];
            }
            if (length == slicedLength && start % length == 0) {
                // The common case, a single value size: an array slot, no hashing.
                byte[] slice = byStart[start / length];
                if (slice == null) {
                    slice = cut(start, length);
                    if (cachedBytes + length <= MAX_CACHED_BYTES) {
                        byStart[start / length] = slice;
                        cachedBytes += length;
                    }
                }
                return slice;
            }
            long slot = (long) start << 32 | length;
            byte[] slice = others.get(slot);
            if (slice == null) {
                slice = cut(start, length);
                if (cachedBytes + length <= MAX_CACHED_BYTES) {
                    others.put(slot, slice);
                    cachedBytes += length;
                }
            }
            return slice;
        }

        private byte[] cut(int start, int length) {
            return Arrays.copyOfRange(data, start, start + length);
        }
    }
}
