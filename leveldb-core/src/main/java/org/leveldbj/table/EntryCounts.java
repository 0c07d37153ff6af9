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
 * <p>These count every version of every key; {@link #keys()} counts user keys once each
 * ({@link KeyCounts}), and is {@code null} where it is not recorded (a stats block written before
 * it was, or a sampled block).
 *
 * @param entries every entry, values and deletions alike
 * @param deletions the entries that are deletions, at most {@code entries}
 * @param settledDeletions the deletions whose hidden value the writer dropped, at most
 *     {@code deletions}
 * @param keys the distinct user keys, or {@code null} when not recorded; at most
 *     {@code entries} keys, at most {@code entries - deletions} live ones and at most
 *     {@code deletions - settledDeletions} tombstones
 */
public record EntryCounts(long entries, long deletions, long settledDeletions, KeyCounts keys) {
    /** No entries. */
    public static final EntryCounts EMPTY = new EntryCounts(0, 0, 0);

    /**
     * Checks the counts.
     *
     * @param entries every entry
     * @param deletions the deletions among them
     * @param settledDeletions the settled deletions among those
     * @param keys the distinct user keys, or {@code null}
     * @throws IllegalArgumentException if a count is negative or exceeds the one it is part of
     */
    public EntryCounts {
        if (entries < 0 || deletions < 0 || deletions > entries || settledDeletions < 0
                || settledDeletions > deletions) {
            throw new IllegalArgumentException("bad entry counts: " + entries + " entries, " + deletions
                    + " deletions, " + settledDeletions + " settled");
        }
        if (keys != null && (keys.keys() > entries || keys.liveKeys() > entries - deletions
                || keys.tombstoneKeys() > deletions - settledDeletions)) {
            throw new IllegalArgumentException("bad entry counts: " + keys + " of " + entries + " entries, "
                    + deletions + " deletions, " + settledDeletions + " settled");
        }
    }

    /**
     * Counts of every version only (a stats block of the first layout, a sampled block).
     *
     * @param entries every entry
     * @param deletions the deletions among them
     * @param settledDeletions the settled deletions among those
     */
    public EntryCounts(long entries, long deletions, long settledDeletions) {
        this(entries, deletions, settledDeletions, null);
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

    /**
     * What these entries add to an estimate of the live keys: {@link KeyCounts#net()} when the
     * distinct keys are recorded, else {@link #net()} (every version counts).
     *
     * @return the contribution, which may be negative
     */
    public long liveNet() {
        return keys != null ? keys.net() : net();
    }
}
