package org.iq80.leveldb;

import java.io.Closeable;

/**
 * An optimistic transaction (RocksDB's {@code OptimisticTransactionDB}): reads see the
 * database as it was when the transaction began, plus the transaction's own writes; writes are
 * held in the transaction until {@link #commit()} applies them all at once, as one batch. The
 * commit fails with {@link TransactionConflictException}, writing nothing, when any key the
 * transaction read ({@link #get}) or wrote ({@link #put}, {@link #delete}) was changed by anyone
 * after the transaction began. Nothing is locked meanwhile: transactions and plain writes go on
 * at full speed, and the one that commits second loses.
 *
 * <pre>{@code
 * while (true) {
 *     try (Transaction txn = db.beginTransaction()) {
 *         long from = decode(txn.get(alice)), to = decode(txn.get(bob));
 *         txn.put(alice, encode(from - 10));
 *         txn.put(bob, encode(to + 10));
 *         txn.commit();
 *         break;
 *     } catch (TransactionConflictException e) {
 *         // someone changed e.key() meanwhile: read again and retry
 *     }
 * }
 * }</pre>
 *
 * <p>What is checked: every key passed to {@link #get}, {@link #put} or {@link #delete}. At
 * commit, inside the database's write path, where no other write can come between the check
 * and the write, the newest sequence number of each such key (in the memtables and the tables,
 * deletions included) is compared with the sequence number the transaction began at. Keys an
 * {@link #iterator()} returns are checked as well, but not the ranges it covered: a key
 * inserted into a range the transaction scanned, where it saw nothing, is not a conflict
 * (phantoms are not detected). A key written again with the same value is a conflict: the check
 * compares sequence numbers, not values. A transaction that wrote nothing commits without a
 * check: it read one consistent snapshot.
 *
 * <p>Cost: a commit looks up each checked key once (memtables first, then the tables, with
 * their bloom filters), one at a time, while the writers behind it wait. A transaction holds a
 * snapshot from begin to end, which keeps compaction from dropping entries older than it.
 *
 * <p>Lifetime: a transaction ends with {@link #commit()} (whether it succeeds or not),
 * {@link #rollback()} or {@link #close()}; after that every method but {@code close()} throws
 * {@link DBException} ("transaction is finished"). Close it always (try-with-resources): closing
 * an unfinished transaction rolls it back and releases its snapshot. Its iterators still open
 * when it ends are closed then.
 *
 * <p>Thread safety: not safe for concurrent use; one thread uses a transaction. Any number of
 * transactions, on any threads, may run at once.
 *
 * <p>This is an extension of the 0.12 API; {@link ExtendedDB#beginTransaction()} begins one.
 */
public interface Transaction extends Closeable {

    /**
     * Reads a key: the transaction's own newest write to it, else the database's value as of
     * the transaction's beginning. The key is checked at commit.
     *
     * @param key the key
     * @return the value, or {@code null}
     * @throws DBException if the transaction is finished or the database is closed
     */
    byte[] get(byte[] key);

    /**
     * Writes a key in the transaction; the database sees it at commit. The key is checked at
     * commit.
     *
     * @param key the key
     * @param value the value
     * @return this transaction
     * @throws DBException if the transaction is finished
     */
    Transaction put(byte[] key, byte[] value);

    /**
     * Deletes a key in the transaction; the database sees it at commit. The key is checked at
     * commit.
     *
     * @param key the key
     * @return this transaction
     * @throws DBException if the transaction is finished
     */
    Transaction delete(byte[] key);

    /**
     * An iterator over the database as of the transaction's beginning with the transaction's
     * writes merged over it. The keys it returns (by {@code next}, {@code prev} and the
     * {@code peek} methods) are checked at commit; the ranges it covered are not.
     *
     * @return a new iterator on the first entry; closed when the transaction ends, if not before
     * @throws DBException if the transaction is finished or the database is closed
     */
    DBIterator iterator();

    /**
     * The sequence number the transaction began at: it reads the database as of this number and
     * conflicts with any write to a checked key numbered after it.
     *
     * @return the sequence number
     */
    long beginSequence();

    /**
     * Applies the transaction's writes atomically as one batch, unless a checked key changed
     * since the transaction began. Ends the transaction either way.
     *
     * @throws TransactionConflictException if a checked key changed; nothing was written
     * @throws DBException if the transaction is finished, the database is closed or the write
     *     fails
     */
    void commit();

    /**
     * {@link #commit()} with write options ({@link WriteOptions#sync(boolean)} to sync the log).
     *
     * @param options the write options
     * @throws TransactionConflictException if a checked key changed; nothing was written
     * @throws DBException if the transaction is finished, the database is closed or the write
     *     fails
     */
    void commit(WriteOptions options);

    /**
     * Discards the transaction's writes and ends it.
     *
     * @throws DBException if the transaction is finished
     */
    void rollback();

    /**
     * Ends the transaction, rolling it back if it was neither committed nor rolled back, and
     * releases its snapshot. Closing again does nothing.
     */
    @Override
    void close();
}
