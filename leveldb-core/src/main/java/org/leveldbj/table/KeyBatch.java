package org.leveldbj.table;

import java.nio.ByteBuffer;

/**
 * Keys looked up together in one table ({@link Table#getAll}): the caller numbers its keys,
 * hands the table the numbers of those to look up in ascending key order, and receives, per
 * key, the entry a single lookup ({@link Table#get}) would have handed its handler.
 *
 * <p>Thread safety: confined to the thread making the lookups.
 */
public interface KeyBatch {
    /**
     * The key numbered {@code i}.
     *
     * @param i the key's number
     * @return a buffer whose remaining bytes are the key; the table does not move its position
     *     or limit
     */
    ByteBuffer key(int i);

    /**
     * Receives the first entry at or after key {@code i} in the data block that may hold it,
     * as {@link Table.EntryHandler#accept} does for a single lookup.
     *
     * @param i the key's number
     * @param key the entry's key; a view valid only during the call
     * @param value the entry's value; a view valid only during the call
     */
    void accept(int i, ByteBuffer key, ByteBuffer value);
}
