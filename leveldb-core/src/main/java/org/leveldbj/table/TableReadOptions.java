package org.leveldbj.table;

/**
 * Per-read settings of table reads.
 *
 * @param verifyChecksums check the checksum of every block this read loads
 * @param fillCache offer blocks this read loads to the block cache
 */
public record TableReadOptions(boolean verifyChecksums, boolean fillCache) {
    /** C++ LevelDB's read defaults: no checksum checks, fill the cache. */
    public static final TableReadOptions DEFAULT = new TableReadOptions(false, true);
    /** Checks every checksum and fills the cache. */
    public static final TableReadOptions VERIFY = new TableReadOptions(true, true);
}
