package org.iq80.leveldb;

import java.util.Objects;

/**
 * An application's say over what compactions keep: for each value a compaction rewrites, the
 * filter keeps it, removes it or replaces it ({@link Options#compactionFilter(CompactionFilter)}).
 * Typical uses: dropping data that expired (the engine's TTL databases do so), or rewriting
 * values into a newer encoding as they pass.
 *
 * <p>What the filter sees. A compaction asks the filter about an entry when all of these hold:
 * <ul>
 *   <li>the entry is a value, not a deletion;</li>
 *   <li>it is the newest entry of its key among the compaction's inputs;</li>
 *   <li>no open snapshot reads it: its sequence number is above the newest open snapshot's
 *       (any sequence number when no snapshot is open).</li>
 * </ul>
 * So a snapshot reads what it read when it was taken, whatever the filter decides later: an
 * entry a snapshot reads reaches the filter once the snapshot (and every newer one that reads
 * it) is closed. Older versions of a key, which only snapshots read, are never shown; they are
 * dropped as in LevelDB once no snapshot reads them. Memtable flushes do not filter: an entry
 * is first filtered by the first compaction that rewrites it. A flush may place a table straight
 * in level 1 or 2, and the deepest level is rewritten only when something is compacted into
 * it; so {@code DB.compactRange}, in a database with a filter, also rewrites the files of the
 * deepest level that overlap the range, as RocksDB does by default with a filter: after it,
 * the filter has seen every entry of the range that it may see. With separated values
 * ({@link Options#valueThreshold(int)}) the filter sees the value itself, read from its value
 * file.
 *
 * <p>Decisions. {@link Decision#KEEP} writes the entry unchanged. {@link Decision#REMOVE}
 * removes the key as a delete at the entry's own sequence number would: where no deeper level
 * can hold the key the entry is simply dropped, elsewhere a deletion marker takes its place so
 * that an older version below never comes back. {@link Decision#replace(byte[])} writes the
 * new value under the same key and sequence number (separated into a value file when it
 * reaches the value threshold, inline otherwise).
 *
 * <p>Thread safety: implementations must be safe for concurrent use. The filter runs on the
 * threads of the background pool, outside the database lock, possibly for several databases
 * (and several compactions of them, when the filter is shared) at once. It must not call back
 * into the database it filters for (the compaction waits for it), and should be fast and free
 * of I/O: a slow filter slows every compaction, and so the writes that wait for them. The
 * arrays passed in are the filter's to keep or change.
 *
 * <p>Errors: an exception thrown by {@link #filter} stops the compaction, which leaves the
 * database's files as they were (its partial outputs are deleted), and becomes the database's
 * background error, as a comparator's exception does: writes then fail with it as the cause,
 * reads go on, and a later open (with a filter that works) carries on with nothing lost.
 *
 * <p>This is an extension of the 0.12 API.
 */
public interface CompactionFilter {
    /**
     * Names the filter, for the database's info log and for errors.
     *
     * @return the name
     */
    String name();

    /**
     * Decides what becomes of one entry a compaction rewrites.
     *
     * @param level the level the compaction writes to (1 or more; the bottom level's own number
     *     when {@code compactRange} rewrites that level in place)
     * @param key the user key
     * @param value the value
     * @return the decision, never {@code null}
     */
    Decision filter(int level, byte[] key, byte[] value);

    /**
     * What a compaction does with an entry: keep it, remove it, or replace its value.
     *
     * <p>Immutable.
     */
    final class Decision {
        /** Writes the entry unchanged. */
        public static final Decision KEEP = new Decision(null);
        /** Removes the key as of the entry (a deletion marker, or nothing at the bottom). */
        public static final Decision REMOVE = new Decision(null);

        private final byte[] replacement;

        private Decision(byte[] replacement) {
            this.replacement = replacement;
        }

        /**
         * Writes another value in place of the entry's.
         *
         * @param value the new value (not copied: not to be changed afterwards)
         * @return the decision
         * @throws NullPointerException if {@code value} is null
         */
        public static Decision replace(byte[] value) {
            return new Decision(Objects.requireNonNull(value, "value"));
        }

        /**
         * The new value of a replacing decision, else {@code null}.
         *
         * @return the new value of a replacing decision, else {@code null}
         */
        public byte[] replacement() {
            return replacement;
        }

        @Override
        public String toString() {
            return this == KEEP ? "KEEP" : this == REMOVE ? "REMOVE" : "REPLACE(" + replacement.length + " bytes)";
        }
    }
}
