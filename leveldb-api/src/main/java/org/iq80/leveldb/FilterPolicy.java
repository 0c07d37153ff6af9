package org.iq80.leveldb;

/**
 * A filter kept in every table file so that reads of absent keys can usually skip the disk.
 * Set with {@link Options#filterPolicy(FilterPolicy)}; without one no filters are written.
 *
 * <p>This is an extension of the 0.12 API. It describes the policy; the engine builds and reads
 * the filters. The only policy is C++ LevelDB's built-in Bloom filter ({@link #bloom(int)}),
 * whose filters are byte-for-byte those C++ LevelDB writes with
 * {@code NewBloomFilterPolicy(bitsPerKey)}: tables written by either can be read with filters by
 * the other. A table's filter is used only when the reader's policy has the same
 * {@linkplain #name() name}; the number of bits per key may differ between writer and reader,
 * since each filter records what it needs.
 *
 * <p>Instances are immutable values, safe to share between threads and databases.
 */
public final class FilterPolicy {
    /** The name C++ LevelDB gives its built-in Bloom filter policy. */
    private static final String BLOOM_NAME = "leveldb.BuiltinBloomFilter2";

    private final int bitsPerKey;

    private FilterPolicy(int bitsPerKey) {
        this.bitsPerKey = bitsPerKey;
    }

    /**
     * Returns the built-in Bloom filter policy with the given number of bits per key. About 10
     * bits per key is a good choice: it rejects about 99% of lookups for absent keys at a cost of
     * 1.25 bytes per key in the table files.
     *
     * @param bitsPerKey the filter bits spent on each key, at least {@code 1}; more bits mean
     *     fewer false positives and larger filters
     * @return the policy
     * @throws IllegalArgumentException if {@code bitsPerKey} is less than {@code 1}
     */
    public static FilterPolicy bloom(int bitsPerKey) {
        Arguments.checkAtLeast(bitsPerKey, 1, "bitsPerKey");
        return new FilterPolicy(bitsPerKey);
    }

    /**
     * Returns the policy's name, which table files record next to their filters (in the
     * metaindex key {@code "filter." + name()}).
     *
     * @return {@code "leveldb.BuiltinBloomFilter2"}
     */
    public String name() {
        return BLOOM_NAME;
    }

    /**
     * Returns the number of filter bits spent on each key.
     *
     * @return the bits per key, at least {@code 1}
     */
    public int bitsPerKey() {
        return bitsPerKey;
    }

    /**
     * Tells whether another object is a policy with the same name and bits per key.
     *
     * @param other the object to compare with
     * @return {@code true} when both describe the same filters
     */
    @Override
    public boolean equals(Object other) {
        return other instanceof FilterPolicy
                && ((FilterPolicy) other).bitsPerKey == bitsPerKey
                && ((FilterPolicy) other).name().equals(name());
    }

    /**
     * Returns a hash code consistent with {@link #equals(Object)}.
     *
     * @return the hash code
     */
    @Override
    public int hashCode() {
        return name().hashCode() * 31 + bitsPerKey;
    }

    /**
     * Describes the policy, for logs.
     *
     * @return e.g. {@code "leveldb.BuiltinBloomFilter2(bitsPerKey=10)"}
     */
    @Override
    public String toString() {
        return name() + "(bitsPerKey=" + bitsPerKey + ")";
    }
}
