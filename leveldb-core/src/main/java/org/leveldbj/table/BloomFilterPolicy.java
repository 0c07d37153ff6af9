package org.leveldbj.table;

import java.nio.ByteBuffer;
import org.leveldbj.util.ByteSink;
import org.leveldbj.util.Hash;

/**
 * C++ LevelDB's bloom filter, {@code "leveldb.BuiltinBloomFilter2"}, bit for bit, so that
 * filters written by either implementation work in the other.
 *
 * <p>Encoding: for {@code n} keys and {@code b} bits per key the filter has
 * {@code bits = max(n * b, 64)} rounded up to whole bytes, followed by one byte holding the
 * number of probes {@code k = floor(b * 0.69)} clamped to [1, 30]. For each key,
 * {@code h = Hash(key, seed 0xbc9f1d34)} and {@code delta = rotateRight(h, 17)}; the probes set
 * bit {@code h mod bits} (bit {@code i % 8} of byte {@code i / 8}, all arithmetic on unsigned
 * 32-bit values), adding {@code delta} to {@code h} after each probe.
 *
 * <p>Reading: a filter shorter than 2 bytes matches nothing; a probe count above 30 (reserved
 * for other encodings) matches everything; otherwise the stored probe count is used, so filters
 * built with other bits-per-key settings are read correctly.
 *
 * <p>Thread safety: immutable.
 */
public final class BloomFilterPolicy implements FilterPolicy {
    /** The name C++ LevelDB gives this filter. */
    public static final String NAME = "leveldb.BuiltinBloomFilter2";

    private static final int SEED = 0xbc9f1d34;

    private final int bitsPerKey;
    private final int k;

    /**
     * Creates a policy.
     *
     * <p>Requires: {@code bitsPerKey >= 0}; 10 gives about 1% false positives.
     *
     * @param bitsPerKey filter bits per key
     */
    public BloomFilterPolicy(int bitsPerKey) {
        if (bitsPerKey < 0) {
            throw new IllegalArgumentException("bitsPerKey must not be negative: " + bitsPerKey);
        }
        this.bitsPerKey = bitsPerKey;
        // Rounded down on purpose, as C++ LevelDB does, to probe a little less.
        this.k = Math.max(1, Math.min(30, (int) (bitsPerKey * 0.69)));
    }

    @Override
    public String name() {
        return NAME;
    }

    /**
     * The bits per key this policy was created with.
     *
     * @return the bits per key
     */
    public int bitsPerKey() {
        return bitsPerKey;
    }

    /**
     * The number of probes per key this policy writes.
     *
     * @return 1 to 30
     */
    public int probes() {
        return k;
    }

    /**
     * LevelDB's bloom hash of a byte string.
     *
     * @param key the bytes
     * @param offset the first byte
     * @param length how many bytes
     * @return the hash
     */
    public static int bloomHash(byte[] key, int offset, int length) {
        return Hash.hash(key, offset, length, SEED);
    }

    @Override
    public void createFilter(byte[] keys, int[] starts, int count, ByteSink dst) {
        long bits = Math.max(64L, (long) count * bitsPerKey);
        long bytes = (bits + 7) / 8;
        if (bytes > Integer.MAX_VALUE - 16) {
            throw new IllegalArgumentException("filter of " + bytes + " bytes is too large");
        }
        bits = bytes * 8;
        int base = dst.length();
        dst.ensureRoom((int) bytes + 1);
        for (long i = 0; i < bytes; i++) {
            dst.putByte(0);
        }
        dst.putByte(k);
        byte[] array = dst.array();
        for (int i = 0; i < count; i++) {
            int h = bloomHash(keys, starts[i], starts[i + 1] - starts[i]);
            int delta = Integer.rotateRight(h, 17);
            for (int j = 0; j < k; j++) {
                long bitpos = Integer.toUnsignedLong(h) % bits;
                array[base + (int) (bitpos >>> 3)] |= (byte) (1 << (bitpos & 7));
                h += delta;
            }
        }
    }

    @Override
    public boolean keyMayMatch(ByteBuffer key, int keyOffset, int keyLength,
                               ByteBuffer filter, int filterOffset, int filterLength) {
        if (filterLength < 2) {
            return false;
        }
        long bits = (long) (filterLength - 1) * 8;
        int probes = filter.get(filterOffset + filterLength - 1) & 0xff;
        if (probes > 30) {
            return true;
        }
        int h = Hash.hash(key, keyOffset, keyLength, SEED);
        int delta = Integer.rotateRight(h, 17);
        for (int j = 0; j < probes; j++) {
            long bitpos = Integer.toUnsignedLong(h) % bits;
            if ((filter.get(filterOffset + (int) (bitpos >>> 3)) & (1 << (bitpos & 7))) == 0) {
                return false;
            }
            h += delta;
        }
        return true;
    }

    @Override
    public String toString() {
        return NAME + "(" + bitsPerKey + " bits per key)";
    }
}
