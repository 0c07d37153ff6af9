package org.iq80.leveldb;

/**
 * Options for one read: {@link DB#get(byte[], ReadOptions)} or
 * {@link DB#iterator(ReadOptions)}.
 *
 * <p>The defaults are: {@link #verifyChecksums()} {@code false}, {@link #fillCache()}
 * {@code true}, {@link #snapshot()} {@code null}. Setters return {@code this} so that calls can
 * be chained. Thread safety: not safe for concurrent modification; the database only reads an
 * instance during the call it is passed to, so one instance may be reused for many reads.
 */
public class ReadOptions {
    private boolean verifyChecksums;
    private boolean fillCache = true;
    private Snapshot snapshot;
    private byte[] iterateLowerBound;
    private byte[] iterateUpperBound;

    /** Creates options with the defaults listed in the class description. */
    public ReadOptions() {
    }

    /**
     * Returns the snapshot to read from.
     *
     * @return the snapshot, or {@code null} to read the latest state (an implicit snapshot taken
     *     when the read starts)
     */
    public Snapshot snapshot() {
        return snapshot;
    }

    /**
     * Sets the snapshot to read from.
     *
     * @param snapshot a snapshot of the database being read and still open, or {@code null} to
     *     read the latest state
     * @return this object
     */
    public ReadOptions snapshot(Snapshot snapshot) {
        this.snapshot = snapshot;
        return this;
    }

    /**
     * Tells whether blocks read from table files are added to the block cache. Default
     * {@code true}.
     *
     * @return {@code true} when reads fill the cache
     */
    public boolean fillCache() {
        return fillCache;
    }

    /**
     * Sets whether blocks read from table files are added to the block cache. Bulk scans turn it
     * off so that they do not push frequently used blocks out of the cache.
     *
     * @param fillCache {@code true} to cache the blocks read
     * @return this object
     */
    public ReadOptions fillCache(boolean fillCache) {
        this.fillCache = fillCache;
        return this;
    }

    /**
     * Tells whether this read checks the checksum of every block it reads. Default
     * {@code false}; {@link Options#verifyChecksums()} can turn checking on for every read.
     *
     * @return {@code true} when checksums are verified
     */
    public boolean verifyChecksums() {
        return verifyChecksums;
    }

    /**
     * Sets whether this read checks the checksum of every block it reads; a mismatch fails the
     * read with a {@link CorruptionException}.
     *
     * @param verifyChecksums {@code true} to verify checksums
     * @return this object
     */
    public ReadOptions verifyChecksums(boolean verifyChecksums) {
        this.verifyChecksums = verifyChecksums;
        return this;
    }

    /**
     * The smallest key an iterator made with these options yields: it never goes below it, in
     * either direction ({@code seekToFirst} lands on the first key at or after it, a
     * {@code seek} before it lands there too, and stepping back stops at it). An extension of
     * the 0.12 API, like RocksDB's {@code iterate_lower_bound}; ignored by {@code get}.
     *
     * @return the inclusive lower bound, or {@code null} for none (the default)
     */
    public byte[] iterateLowerBound() {
        return iterateLowerBound;
    }

    /**
     * Sets the inclusive lower bound of iterators made with these options (see
     * {@link #iterateLowerBound()}). An iterator copies the array when it is made, so a later
     * change affects only iterators made after it.
     *
     * @param lowerBound the smallest key to yield, or {@code null} for none
     * @return this
     */
    public ReadOptions iterateLowerBound(byte[] lowerBound) {
        this.iterateLowerBound = lowerBound;
        return this;
    }

    /**
     * The key an iterator made with these options stops before: it yields only keys before it,
     * in either direction ({@code seekToLast} lands on the last key before it), and tables and
     * blocks entirely past it are not read. An extension of the 0.12 API, like RocksDB's
     * {@code iterate_upper_bound}; ignored by {@code get}.
     *
     * @return the exclusive upper bound, or {@code null} for none (the default)
     */
    public byte[] iterateUpperBound() {
        return iterateUpperBound;
    }

    /**
     * Sets the exclusive upper bound of iterators made with these options (see
     * {@link #iterateUpperBound()}). An iterator copies the array when it is made, so a later
     * change affects only iterators made after it.
     *
     * @param upperBound the first key not to yield, or {@code null} for none
     * @return this
     */
    public ReadOptions iterateUpperBound(byte[] upperBound) {
        this.iterateUpperBound = upperBound;
        return this;
    }
}
