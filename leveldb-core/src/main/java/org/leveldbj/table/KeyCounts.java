package org.leveldbj.table;

/**
 * How many distinct user keys a table (or a memtable) holds, by what its versions of each key say:
 * the part of a stats block ({@link StatsBlock}) that lets an estimate of the live keys count a
 * key once however many versions of it the table holds.
 *
 * <p>Per user key, the table holds versions newest first. The key is <em>live</em> here when its
 * newest version is a value; it is a <em>tombstone</em> here when its oldest version is a deletion
 * that was not settled ({@link EntryCounts}): such a deletion stands for a value of the key in
 * older data, which it cancels. A key both live and a tombstone (deleted, then written again)
 * adds nothing: it replaces a value older data holds. So the table adds
 * {@code liveKeys - tombstoneKeys} to an estimate of the live keys, of which the keys live in
 * older data too must be taken off: {@code novelLiveKeys} is the writer's estimate of the live keys
 * that were not live in the data older than the table when it was written (found by looking a
 * sample of them up there), and the table adds {@code novelLiveKeys - tombstoneKeys}. A writer
 * that looked nothing up records {@code novelLiveKeys = liveKeys}.
 *
 * <p>User keys are told apart by their bytes (a comparator calling two different byte strings
 * equal would count them twice: high, never low).
 *
 * @param keys distinct user keys
 * @param liveKeys those whose newest version here is a value, at most {@code keys}
 * @param tombstoneKeys those whose oldest version here is a deletion not settled, at most
 *     {@code keys}
 * @param novelLiveKeys the live keys taken to be new to the database, at most {@code liveKeys}
 */
public record KeyCounts(long keys, long liveKeys, long tombstoneKeys, long novelLiveKeys) {
    /**
     * Checks the counts.
     *
     * @param keys distinct user keys
     * @param liveKeys the live ones
     * @param tombstoneKeys the tombstones
     * @param novelLiveKeys the live ones new to the database
     * @throws IllegalArgumentException if a count is negative or exceeds the one it is part of
     */
    public KeyCounts {
        if (keys < 0 || liveKeys < 0 || liveKeys > keys || tombstoneKeys < 0 || tombstoneKeys > keys
                || novelLiveKeys < 0 || novelLiveKeys > liveKeys) {
            throw new IllegalArgumentException("bad key counts: " + keys + " keys, " + liveKeys + " live, "
                    + tombstoneKeys + " tombstones, " + novelLiveKeys + " novel");
        }
    }

    /**
     * What these keys add to an estimate of the live keys.
     *
     * @return {@code novelLiveKeys - tombstoneKeys}, which may be negative
     */
    public long net() {
        return novelLiveKeys - tombstoneKeys;
    }

    /**
     * The same counts with the share of the live keys taken to be new set again.
     *
     * @param share the share, 0 to 1 (clamped)
     * @return counts whose {@code novelLiveKeys} is {@code round(liveKeys * share)}
     */
    public KeyCounts withNovelShare(double share) {
        double s = share > 1 ? 1 : share > 0 ? share : 0;
        return new KeyCounts(keys, liveKeys, tombstoneKeys, Math.min(liveKeys, Math.round(liveKeys * s)));
    }
}
