package org.iq80.leveldb;

/**
 * A {@link WriteBatch} that can be read before it is written: {@link #get} returns the batch's
 * newest write for a key, else the database's value, and {@link #iterator} shows the batch's
 * writes merged over the database's entries. It is written like any batch, atomically, with
 * {@link DB#write(WriteBatch)}; RocksDB calls it {@code WriteBatchWithIndex}.
 *
 * <pre>{@code
 * try (WriteBatchWithIndex batch = db.createWriteBatchWithIndex()) {
 *     batch.put(bytes("a"), bytes("1"));
 *     batch.delete(bytes("b"));
 *     batch.get(db, new ReadOptions(), bytes("a"));   // "1", from the batch
 *     batch.get(db, new ReadOptions(), bytes("b"));   // null: deleted in the batch
 *     batch.get(db, new ReadOptions(), bytes("c"));   // the database's value
 *     db.write(batch);
 * }
 * }</pre>
 *
 * <p>Reads: a key the batch wrote reads as its last write in the batch (a put's value, or
 * absent after a delete); any other key reads from the database, at
 * {@link ReadOptions#snapshot()} when one is given, else at its newest state. An iterator merges
 * the batch's writes (in the database's key order, its comparator's) over a database iterator
 * at the read options' snapshot: a key in both shows the batch's value, a key the batch deleted
 * is hidden. It moves both ways and seeks like any {@link DBIterator}, with the same cursor
 * semantics, and holds no copy of either side: its memory does not grow with the database or
 * the batch. It shows the batch as it is at each move; write to the batch while it is open
 * only if the keys written do not matter to the scan.
 *
 * <p>Memory: besides its log encoding (what {@link #approximateSize()} counts), the batch keeps
 * an ordered index holding a copy of each distinct key and its newest value.
 *
 * <p>Thread safety: not safe for concurrent use, like every batch; one thread fills, reads and
 * writes it. Lifetime: close it when done (an iterator from it may outlive it, reading the
 * index as it was at the close); a closed batch can be neither changed, read nor written.
 *
 * <p>This is an extension of the 0.12 API; {@link ExtendedDB#createWriteBatchWithIndex()}
 * creates one.
 */
public interface WriteBatchWithIndex extends WriteBatch {

    @Override
    WriteBatchWithIndex put(byte[] key, byte[] value);

    @Override
    WriteBatchWithIndex delete(byte[] key);

    /**
     * Reads a key as the batch would leave it: its newest write in this batch, else the
     * database's value.
     *
     * @param db the database to read keys the batch did not write from; the one that created
     *     this batch
     * @param options the read options (a snapshot applies to the database's part only)
     * @param key the key
     * @return the value, or {@code null} when the batch deleted the key or neither holds it
     * @throws InvalidArgumentException if {@code db} is not the database that created the batch
     * @throws DBException if the batch or the database is closed, or the read fails
     */
    byte[] get(DB db, ReadOptions options, byte[] key);

    /**
     * An iterator over the database's entries with this batch's writes merged over them.
     *
     * @param db the database; the one that created this batch
     * @param options the read options (a snapshot applies to the database's part only)
     * @return a new iterator on the first entry; close it
     * @throws InvalidArgumentException if {@code db} is not the database that created the batch
     * @throws DBException if the batch or the database is closed
     */
    DBIterator iterator(DB db, ReadOptions options);

    /** Releases the batch; it can be neither changed, read nor written afterwards. */
    @Override
    void close();
}
