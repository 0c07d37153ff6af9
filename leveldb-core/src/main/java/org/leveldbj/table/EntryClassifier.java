package org.leveldbj.table;

import java.nio.ByteBuffer;

/**
 * Tells which entries of a table are deletions, and which part of a key is the user key, for the
 * counts of the table's stats block ({@link StatsBlock}). A database stores internal keys, whose
 * type byte says it and whose last 8 bytes follow the user key ({@code org.leveldbj.engine}
 * passes a classifier reading them); a table of user keys has no deletions and no versions
 * ({@link #NO_DELETIONS}). The table layer knows nothing of internal keys: these are the only
 * things it asks about them.
 *
 * <p>Thread safety: implementations must be stateless.
 */
@FunctionalInterface
public interface EntryClassifier {
    /** Every entry is a value. */
    EntryClassifier NO_DELETIONS = key -> false;

    /**
     * Tells whether an entry is a deletion.
     *
     * @param key the entry's key (remaining bytes; position not moved)
     * @return {@code true} for a deletion
     */
    boolean isDeletion(ByteBuffer key);

    /**
     * How many leading bytes of a key are its user key: consecutive entries whose user keys are
     * equal bytes are versions of one key ({@link KeyCounts}).
     *
     * @param key the entry's key (remaining bytes; position not moved)
     * @return a length from 0 to {@code key.remaining()}; the whole key by default
     */
    default int userKeyLength(ByteBuffer key) {
        return key.remaining();
    }
}
