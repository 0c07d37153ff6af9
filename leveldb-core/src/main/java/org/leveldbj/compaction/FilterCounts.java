package org.leveldbj.compaction;

/**
 * What a compaction's {@link org.iq80.leveldb.CompactionFilter} decided, for the info log.
 *
 * @param asked how many entries the filter was asked about
 * @param removed how many it removed (dropped, or turned into deletion markers)
 * @param replaced how many values it replaced
 */
public record FilterCounts(long asked, long removed, long replaced) {
    /** No filter, or nothing asked. */
    public static final FilterCounts NONE = new FilterCounts(0, 0, 0);
}
