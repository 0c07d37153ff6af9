package org.iq80.leveldb;

/**
 * A range of keys, from {@link #start()} included to {@link #limit()} excluded, as passed to
 * {@link DB#getApproximateSizes(Range...)}.
 *
 * <p>The arrays are held as given, not copied: do not change them while the range is in use.
 * Instances are otherwise immutable and safe to share between threads.
 */
public class Range {
    private final byte[] start;
    private final byte[] limit;

    /**
     * Creates a range.
     *
     * @param start the first key of the range (included)
     * @param limit the key that ends the range (excluded)
     * @throws IllegalArgumentException if either key is {@code null}
     */
    public Range(byte[] start, byte[] limit) {
        Arguments.checkNotNull(start, "start");
        Arguments.checkNotNull(limit, "limit");
        this.start = start;
        this.limit = limit;
    }

    /**
     * Returns the key that ends the range; it is not part of the range.
     *
     * @return the limit key, the array given to the constructor
     */
    public byte[] limit() {
        return limit;
    }

    /**
     * Returns the first key of the range.
     *
     * @return the start key, the array given to the constructor
     */
    public byte[] start() {
        return start;
    }
}
