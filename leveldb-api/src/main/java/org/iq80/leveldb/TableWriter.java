package org.iq80.leveldb;

import java.io.Closeable;

/**
 * Writes sorted key/value pairs into one table file in LevelDB's table format, for
 * {@link ExtendedDB#ingest(java.io.File...)} to add to a database in one step (RocksDB's
 * {@code SstFileWriter}). The engine creates it (leveldbj: {@code
 * LevelDbFactory.newTableWriter(file, options)} or {@link ExtendedDB#newTableWriter(java.io.File)}),
 * with the options of the database the file is meant for: comparator, block size, restart
 * interval, compression and filter policy. An extension of the 0.12 API.
 *
 * <pre>{@code
 * try (TableWriter writer = LevelDbFactory.newTableWriter(file, options)) {
 *     writer.put(bytes("a"), bytes("1"));
 *     writer.put(bytes("b"), bytes("2"));
 *     writer.finish();
 * }
 * db.ingest(file);
 * }</pre>
 *
 * <p>Keys must come in strictly increasing order under the options' comparator: a key equal to
 * or before the previous one is refused with an {@link InvalidArgumentException} naming its
 * position (counted from 0, over every {@code put} and {@code delete} accepted), and the writer
 * stays usable. A {@link #delete(byte[]) deletion} is an entry too: after ingestion it hides the
 * key's older value in the database.
 *
 * <p>The file appears at its name only when {@link #finish()} returns, complete and synced: it
 * is written under a temporary name beside it ({@code name + ".tmp"}) and renamed. A writer
 * closed without {@code finish} (or whose {@code finish} failed) leaves neither file. The entries
 * are stored with sequence number 0 in LevelDB's internal-key layout, so any LevelDB (C++ 1.23,
 * goleveldb) can open the file as a table.
 *
 * <p>Thread safety: not thread safe; use one writer from one thread at a time. (leveldbj's
 * writer compresses blocks on a thread of its own when the machine has more than one processor;
 * the thread ends with {@code finish} or {@code close}.) Lifetime: after
 * {@code finish} or {@code close}, {@code put}, {@code delete} and {@code finish} throw
 * {@link IllegalStateException}; {@code close} is idempotent.
 */
public interface TableWriter extends Closeable {
    /**
     * Adds a key and its value.
     *
     * @param key the key; after every key added so far
     * @param value the value
     * @throws InvalidArgumentException if the key is not after the previous one
     * @throws IOErrorException if writing fails (the writer is then unusable; close it)
     */
    void put(byte[] key, byte[] value);

    /**
     * Adds a deletion of a key.
     *
     * @param key the key; after every key added so far
     * @throws InvalidArgumentException if the key is not after the previous one
     * @throws IOErrorException if writing fails (the writer is then unusable; close it)
     */
    void delete(byte[] key);

    /**
     * Completes the file: writes the last blocks, the index and the footer, syncs it and gives
     * it its name.
     *
     * @return what was written
     * @throws InvalidArgumentException if no entry was added (no file is left)
     * @throws IOErrorException if writing fails (no file is left)
     */
    TableFileInfo finish();

    /** Gives up the file unless {@link #finish()} returned: nothing is left on disk. */
    @Override
    void close();
}
