package org.leveldbj.table;

import java.nio.ByteBuffer;

/**
 * Tells which entries of a table are deletions, for the counts of the table's stats block
 * ({@link StatsBlock}). A database stores internal keys, whose type byte says it
 * ({@code org.leveldbj.engine} passes a classifier reading it); a table of user keys has no
 * deletions ({@link #NO_DELETIONS}). The table layer knows nothing of internal keys: this is the
 * only thing it asks about them.
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
}
