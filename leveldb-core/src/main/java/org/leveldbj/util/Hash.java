package org.leveldbj.util;

import java.nio.ByteBuffer;

/**
 * LevelDB's own 32-bit hash of byte strings (a murmur-like mix), used by the bloom filter and
 * for sharding caches. The values are part of the on-disk format (bloom filters store bits
 * chosen by it), so they must match C++ LevelDB bit for bit.
 *
 * <p>The hash starts from {@code seed ^ (length * 0xc6a4a793)}, then for each whole 4-byte
 * little-endian word {@code w}: {@code h += w; h *= m; h ^= h >>> 16}. The 1 to 3 trailing bytes
 * are added as unsigned values shifted by 0, 8 and 16 bits, followed by {@code h *= m;
 * h ^= h >>> 24}. C++ LevelDB before 1.18 sign-extended the trailing bytes; 1.18 and later
 * (including 1.23) treat them as unsigned, as this class does.
 *
 * <p>Thread safety: stateless.
 */
public final class Hash {
    private static final int M = 0xc6a4a793;
    private static final int R = 24;

    private Hash() {
    }

    /**
     * Hashes a range of an array.
     *
     * @param data the array
     * @param offset the first byte
     * @param length how many bytes
     * @param seed the seed
     * @return the hash
     */
    public static int hash(byte[] data, int offset, int length, int seed) {
        int h = seed ^ (length * M);
        int i = offset;
        int end = offset + length;
        for (; end - i >= 4; i += 4) {
            h += Coding.getFixed32(data, i);
            h *= M;
            h ^= h >>> 16;
        }
        int left = end - i;
        if (left > 0) {
            if (left == 3) {
                h += (data[i + 2] & 0xff) << 16;
            }
            if (left >= 2) {
                h += (data[i + 1] & 0xff) << 8;
            }
            h += data[i] & 0xff;
            h *= M;
            h ^= h >>> R;
        }
        return h;
    }

    /**
     * Hashes a range of a buffer, using absolute indexes (the position is not moved).
     *
     * @param data the buffer
     * @param offset the absolute index of the first byte
     * @param length how many bytes
     * @param seed the seed
     * @return the hash
     */
    public static int hash(ByteBuffer data, int offset, int length, int seed) {
        int h = seed ^ (length * M);
        int i = offset;
        int end = offset + length;
        for (; end - i >= 4; i += 4) {
            h += Coding.getFixed32(data, i, end);
            h *= M;
            h ^= h >>> 16;
        }
        int left = end - i;
        if (left > 0) {
            if (left == 3) {
                h += (data.get(i + 2) & 0xff) << 16;
            }
            if (left >= 2) {
                h += (data.get(i + 1) & 0xff) << 8;
            }
            h += data.get(i) & 0xff;
            h *= M;
            h ^= h >>> R;
        }
        return h;
    }
}
