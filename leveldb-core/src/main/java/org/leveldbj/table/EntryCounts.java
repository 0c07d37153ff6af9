package org.leveldbj.table;

/**
 * How many entries a table (or a memtable) holds, how many of them are deletions, and how many
 * of those deletions are settled: what a table's stats block records ({@link StatsBlock}).
 *
 * <p>A deletion is <em>settled</em> when the writer of the table dropped an older value of its
 * key that the deletion hid (a compaction merging them keeps the deletion, for deeper levels,
 * and drops the value). An unsettled deletion stands for a value it hides elsewhere, so an
 * estimate of the live entries subtracts it; a settled one already took its value along, and
 * subtracting it too would count the key as less than gone.
 *
 * @param entries every entry, values and deletions alike
 * @param deletions the entries that are deletions, at most {@code entries}
 * @param settledDeletions the deletions whose hidden value the writer dropped, at most
 *     {@code deletions}
 */
public record EntryCounts(long entries, long deletions, long settledDeletions) {
    /** No entries. */
    public static final EntryCounts EMPTY = new EntryCounts(0, 0, 0);

    /**
     * Checks the counts.
     *
     * @param entries every entry
     * @param deletions the deletions among them
     * @param settledDeletions the settled deletions among those
     * @throws IllegalArgumentException if a count is negative or exceeds the one it is part of
     */
    public EntryCounts {
        if (entries < 0 || deletions < 0 || deletions > entries || settledDeletions < 0
                || settledDeletions > deletions) {
            throw new IllegalArgumentException("bad entry counts: " + entries + " entries, " + deletions
                    + " deletions, " + settledDeletions + " settled");
        }
    }

    /**
     * Counts without settled deletions (a memtable's, a flushed table's).
     *
     * @param entries every entry
     * @param deletions the deletions among them
     */
    public EntryCounts(long entries, long deletions) {
        this(entries, deletions, 0);
    }

    /**
     * What these entries add to an estimate of the live entries: every value counts one, and
     * every deletion not settled cancels one (a value of its key elsewhere).
     *
     * @return {@code entries - 2 * deletions + settledDeletions}, which may be negative
     */
    public long net() {
        return entries - 2 * deletions + settledDeletions;
    }
}
