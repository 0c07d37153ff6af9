package org.leveldbj.table;

/**
 * Per-read settings of table reads.
 *
 * @param verifyChecksums check the checksum of every block this read loads
 * @param fillCache offer blocks this read loads to the block cache
 * @param prefixScan the scan's prefix and range, which lets an iterator leave out the blocks a
 *     table's prefix filter excludes, or {@code null} for none
 */
public record TableReadOptions(boolean verifyChecksums, boolean fillCache, PrefixScan prefixScan) {
    /** C++ LevelDB's read defaults: no checksum checks, fill the cache. */
    public static final TableReadOptions DEFAULT = new TableReadOptions(false, true);
    /** Checks every checksum and fills the cache. */
    public static final TableReadOptions VERIFY = new TableReadOptions(true, true);
    private static final TableReadOptions NO_FILL = new TableReadOptions(false, false);
    private static final TableReadOptions VERIFY_NO_FILL = new TableReadOptions(true, false);

    /**
     * Settings of a read that is not a scan of one prefix.
     *
     * @param verifyChecksums check the checksum of every block this read loads
     * @param fillCache offer blocks this read loads to the block cache
     */
    public TableReadOptions(boolean verifyChecksums, boolean fillCache) {
        this(verifyChecksums, fillCache, null);
    }

    /**
     * These settings for a scan of one prefix.
     *
     * @param scan the prefix and range, or {@code null}
     * @return the settings
     */
    public TableReadOptions withPrefixScan(PrefixScan scan) {
        return new TableReadOptions(verifyChecksums, fillCache, scan);
    }

    /**
     * The settings, without allocating.
     *
     * @param verifyChecksums check the checksum of every block the read loads
     * @param fillCache offer blocks the read loads to the block cache
     * @return a shared instance
     */
    public static TableReadOptions of(boolean verifyChecksums, boolean fillCache) {
        if (fillCache) {
            return verifyChecksums ? VERIFY : DEFAULT;
        }
        return verifyChecksums ? VERIFY_NO_FILL : NO_FILL;
    }
}
