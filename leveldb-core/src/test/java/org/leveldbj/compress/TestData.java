package org.leveldbj.compress;

import java.nio.charset.StandardCharsets;
import java.util.Random;

/**
 * Inputs for codec tests: empty, tiny, text, and random data that compresses well or not at all.
 *
 * <p>Thread safety: stateless; callers pass their own seeded {@link Random}.
 */
enum TestData {
    EMPTY(0),
    ONE_BYTE(1),
    TEXT(0),
    /** Like db_bench values: a random half followed by a repeat of it. */
    HALF_COMPRESSIBLE_4K(4096),
    COMPRESSIBLE_64K(64 * 1024),
    INCOMPRESSIBLE_64K(64 * 1024),
    COMPRESSIBLE_1M(1024 * 1024),
    INCOMPRESSIBLE_1M(1024 * 1024);

    private final int length;

    TestData(int length) {
        this.length = length;
    }

    byte[] generate(Random random) {
        switch (this) {
            case TEXT:
                return ("The quick brown fox jumps over the lazy dog. "
                        + "The quick brown fox jumps over the lazy dog again.")
                        .getBytes(StandardCharsets.US_ASCII);
            case HALF_COMPRESSIBLE_4K:
                return halfCompressible(random, length);
            case COMPRESSIBLE_64K:
            case COMPRESSIBLE_1M:
                return compressible(random, length);
            default:
                byte[] bytes = new byte[length];
                random.nextBytes(bytes);
                return bytes;
        }
    }

    /** Words from a small vocabulary with random separators: compresses several-fold. */
    static byte[] compressible(Random random, int length) {
        String[] words = {"leveldb", "block", "key", "value", "snappy", "zstd", "table", "0042"};
        byte[] bytes = new byte[length];
        int i = 0;
        while (i < length) {
            byte[] word = words[random.nextInt(words.length)].getBytes(StandardCharsets.US_ASCII);
            for (int j = 0; j < word.length && i < length; j++) {
                bytes[i++] = word[j];
            }
            if (i < length) {
                bytes[i++] = (byte) (' ' + random.nextInt(3));
            }
        }
        return bytes;
    }

    static byte[] halfCompressible(Random random, int length) {
        byte[] bytes = new byte[length];
        byte[] half = new byte[(length + 1) / 2];
        random.nextBytes(half);
        for (int i = 0; i < length; i++) {
            bytes[i] = half[i % half.length];
        }
        return bytes;
    }
}
