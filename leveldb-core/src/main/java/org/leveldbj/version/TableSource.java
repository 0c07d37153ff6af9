package org.leveldbj.version;

import java.nio.ByteBuffer;
import java.util.function.Consumer;
import org.iq80.leveldb.CorruptionException;
import org.leveldbj.iterator.SortedIterator;
import org.leveldbj.table.EntryCounts;
import org.leveldbj.table.EntrySample;
import org.leveldbj.table.KeyBatch;
import org.leveldbj.table.Table;
import org.leveldbj.table.TableReadOptions;

/**
 * How versions reach the table files they list: by file number and size. The database passes
 * its table cache; tests may pass a source that opens files directly.
 *
 * <p>Thread safety: implementations must be safe for concurrent use.
 *
 * <p>Errors: malformed table bytes raise {@link org.iq80.leveldb.CorruptionException} naming the
 * file; I/O failures raise {@link org.iq80.leveldb.DBException}.
 */
public interface TableSource {
    /**
     * Opens an iterator over every entry of a table. The iterator keeps the table open until it
     * is closed.
     *
     * @param fileNumber the table's file number
     * @param fileSize the table's size in bytes
     * @param readOptions checksum and cache settings of the read
     * @return an unpositioned iterator, to be closed by the caller
     */
    SortedIterator iterator(long fileNumber, long fileSize, TableReadOptions readOptions);

    /**
     * Looks an internal key up in one table, as {@link Table#get} does.
     *
     * @param fileNumber the table's file number
     * @param fileSize the table's size in bytes
     * @param internalKey the key sought (remaining bytes; position not moved)
     * @param readOptions checksum and cache settings of the read
     * @param handler receives the first entry at or after the key in the block that may hold it
     * @return {@code true} if the handler was called
     */
    boolean get(long fileNumber, long fileSize, ByteBuffer internalKey, TableReadOptions readOptions,
                Table.EntryHandler handler);

    /**
     * Looks several keys up in one table, as {@link Table#getAll} does. The default looks each
     * key up on its own through {@link #get}; the database's source opens the table once and
     * shares block reads between the keys.
     *
     * @param fileNumber the table's file number
     * @param fileSize the table's size in bytes
     * @param which the numbers of the keys to look up, in ascending key order
     * @param count how many of {@code which} to use
     * @param readOptions checksum and cache settings of the read
     * @param batch supplies the keys and receives the entries found
     */
    default void getAll(long fileNumber, long fileSize, int[] which, int count, TableReadOptions readOptions,
                        KeyBatch batch) {
        for (int n = 0; n < count; n++) {
            int i = which[n];
            get(fileNumber, fileSize, batch.key(i), readOptions, (key, value) -> batch.accept(i, key, value));
        }
    }

    /**
     * Estimates where the data for a key begins in a table file.
     *
     * @param fileNumber the table's file number
     * @param fileSize the table's size in bytes
     * @param internalKey the key (remaining bytes; position not moved)
     * @return a file offset
     */
    long approximateOffsetOf(long fileNumber, long fileSize, ByteBuffer internalKey);

    /**
     * The entry counts a table records in its stats block, as {@link Table#entryCounts()}
     * gives them. The default records none.
     *
     * @param fileNumber the table's file number
     * @param fileSize the table's size in bytes
     * @param damage receives the reason when the table has a stats block that cannot be read
     *     (the file and offset named); not called for a table without the block
     * @return the counts, or {@code null} when the table records none
     * @throws org.iq80.leveldb.DBException if the table cannot be opened or read
     */
    default EntryCounts entryCounts(long fileNumber, long fileSize,
                                    Consumer<CorruptionException> damage) {
        return null;
    }

    /**
     * Counts one data block of a table, as {@link Table#sampleEntries()} does. The default
     * samples nothing.
     *
     * @param fileNumber the table's file number
     * @param fileSize the table's size in bytes
     * @return the sample, or {@code null} when there is none
     * @throws org.iq80.leveldb.DBException if the table cannot be opened or read
     */
    default EntrySample sampleEntries(long fileNumber, long fileSize) {
        return null;
    }

    /**
     * Forgets an open table whose file is being deleted. Readers still using it keep it until
     * they finish.
     *
     * @param fileNumber the table's file number
     */
    void evict(long fileNumber);
}
