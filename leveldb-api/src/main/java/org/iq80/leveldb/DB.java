package org.iq80.leveldb;

import java.io.Closeable;
import java.util.Map;

/**
 * An open database: a persistent map from byte-array keys to byte-array values, kept sorted by
 * the {@linkplain Options#comparator() comparator} it was created with (unsigned lexicographic
 * byte order unless another is set).
 *
 * <p>A database is obtained from {@link DBFactory#open(java.io.File, Options)} and must be
 * {@linkplain #close() closed} when no longer needed, which releases its files and its lock.
 *
 * <p>Thread safety: a {@code DB} is safe for concurrent use by any number of threads. The
 * iterators, snapshots and write batches it hands out are not; each belongs to one thread at a
 * time. Using a database after {@code close()} fails with a {@link DBException}; it never
 * crashes the JVM.
 *
 * <p>Keys and values passed in are copied or fully consumed before the call returns; arrays
 * handed out are fresh copies the caller owns. Failures are reported as the unchecked
 * {@link DBException} (or its subclass {@link CorruptionException} when stored data is damaged).
 *
 * <p>{@code DB} is {@link Iterable}: a for-each loop over it visits every entry in key order, as
 * {@link #iterator()} does. Such a loop cannot close its iterator, so code that must release
 * resources promptly uses {@link #iterator()} in a try-with-resources block instead.
 */
public interface DB extends Iterable<Map.Entry<byte[], byte[]>>, Closeable {

    /**
     * Reads the value stored under a key, using default {@link ReadOptions}.
     *
     * @param key the key to look up
     * @return a copy of the value, or {@code null} when the key is absent
     * @throws DBException if the read fails
     */
    byte[] get(byte[] key) throws DBException;

    /**
     * Reads the value stored under a key.
     *
     * @param key the key to look up
     * @param options how to read, including the {@linkplain ReadOptions#snapshot() snapshot} to
     *     read from
     * @return a copy of the value, or {@code null} when the key is absent
     * @throws DBException if the read fails
     */
    byte[] get(byte[] key, ReadOptions options) throws DBException;

    /**
     * Opens an iterator over the whole database, using default {@link ReadOptions}. It reads an
     * implicit snapshot taken now, so later writes are not visible through it.
     *
     * @return a new iterator positioned on the first entry; the caller closes it
     */
    @Override
    DBIterator iterator();

    /**
     * Opens an iterator over the whole database. It reads the snapshot named in
     * {@code options}, or an implicit snapshot taken now.
     *
     * @param options how to read
     * @return a new iterator positioned on the first entry; the caller closes it
     */
    DBIterator iterator(ReadOptions options);

    /**
     * Stores a value under a key, replacing any previous value, using default
     * {@link WriteOptions}.
     *
     * @param key the key
     * @param value the value
     * @throws DBException if the write fails
     */
    void put(byte[] key, byte[] value) throws DBException;

    /**
     * Removes a key, using default {@link WriteOptions}. Removing an absent key is not an error.
     *
     * @param key the key to remove
     * @throws DBException if the write fails
     */
    void delete(byte[] key) throws DBException;

    /**
     * Applies every operation of a batch atomically, using default {@link WriteOptions}: after a
     * crash either all of them are present or none is.
     *
     * @param updates a batch obtained from {@link #createWriteBatch()}
     * @throws DBException if the write fails
     */
    void write(WriteBatch updates) throws DBException;

    /**
     * Creates an empty batch for {@link #write(WriteBatch)}. The caller closes it once written.
     *
     * @return a new, empty batch
     */
    WriteBatch createWriteBatch();

    /**
     * Stores a value under a key, replacing any previous value.
     *
     * @param key the key
     * @param value the value
     * @param options whether to sync and whether to return a snapshot
     * @return when {@link WriteOptions#snapshot()} is set, a snapshot of the database just after
     *     this write, which the caller closes; otherwise {@code null}
     * @throws DBException if the write fails
     */
    Snapshot put(byte[] key, byte[] value, WriteOptions options) throws DBException;

    /**
     * Removes a key. Removing an absent key is not an error.
     *
     * @param key the key to remove
     * @param options whether to sync and whether to return a snapshot
     * @return when {@link WriteOptions#snapshot()} is set, a snapshot of the database just after
     *     this write, which the caller closes; otherwise {@code null}
     * @throws DBException if the write fails
     */
    Snapshot delete(byte[] key, WriteOptions options) throws DBException;

    /**
     * Applies every operation of a batch atomically.
     *
     * @param updates a batch obtained from {@link #createWriteBatch()}
     * @param options whether to sync and whether to return a snapshot
     * @return when {@link WriteOptions#snapshot()} is set, a snapshot of the database just after
     *     this write, which the caller closes; otherwise {@code null}
     * @throws DBException if the write fails
     */
    Snapshot write(WriteBatch updates, WriteOptions options) throws DBException;

    /**
     * Takes a snapshot: a consistent, read-only view of the database as it is now, for use with
     * {@link ReadOptions#snapshot(Snapshot)}. The caller closes it; an open snapshot keeps the
     * data it sees from being discarded by compactions.
     *
     * @return a new snapshot
     */
    Snapshot getSnapshot();

    /**
     * Estimates the bytes of file space used by the keys in each range. Data still in memory is
     * not counted, and compressed data counts at its compressed size.
     *
     * @param ranges the key ranges to measure
     * @return one estimate per range, in the same order
     */
    long[] getApproximateSizes(Range... ranges);

    /**
     * Returns an internal statistic of the database, as C++ LevelDB's {@code GetProperty} does.
     * The names C++ LevelDB knows give its text, formatted as it formats it:
     * <table>
     *   <caption>C++ LevelDB's properties</caption>
     *   <tr><th>name</th><th>value</th></tr>
     *   <tr><td>{@code leveldb.num-files-at-level<N>}</td><td>the number of table files at level N</td></tr>
     *   <tr><td>{@code leveldb.stats}</td><td>files, size and compaction work per level (a table of text)</td></tr>
     *   <tr><td>{@code leveldb.sstables}</td><td>every table file by level, with its size and key range</td></tr>
     *   <tr><td>{@code leveldb.approximate-memory-usage}</td><td>bytes of the memtables and the block cache</td></tr>
     * </table>
     * Implementations add their own under another prefix. This engine's, each a decimal number
     * unless said otherwise:
     * <table>
     *   <caption>The engine's own properties (an extension of the 0.12 API)</caption>
     *   <tr><th>name</th><th>value</th></tr>
     *   <tr><td>{@code leveldb.approximate-num-entries}</td><td>about how many entries the database holds: values
     *   minus deletions in the memtables and tables, as RocksDB's {@code rocksdb.estimate-num-keys}
     *   (named as C++ LevelDB would name it; {@code ExtendedDB.approximateNumEntries()} gives the same number)</td></tr>
     *   <tr><td>{@code leveldbj.num-snapshots}</td><td>snapshots handed out and not closed yet</td></tr>
     *   <tr><td>{@code leveldbj.num-iterators}</td><td>iterators handed out and not closed yet</td></tr>
     *   <tr><td>{@code leveldbj.memtable-bytes}</td><td>the memtables' approximate memory</td></tr>
     *   <tr><td>{@code leveldbj.num-files}</td><td>the table files of the current version</td></tr>
     *   <tr><td>{@code leveldbj.num-compactions}</td><td>compaction steps (memtable flushes included) since the database opened</td></tr>
     *   <tr><td>{@code leveldbj.compaction-bytes-written}</td><td>the bytes those steps wrote</td></tr>
     *   <tr><td>{@code leveldbj.num-separated-values}</td><td>values written to value files since the database opened</td></tr>
     *   <tr><td>{@code leveldbj.value-bytes-written}</td><td>the bytes of those values' records</td></tr>
     *   <tr><td>{@code leveldbj.value-file-bytes}</td><td>the size of every value file in the directory</td></tr>
     *   <tr><td>{@code leveldbj.value-files}</td><td>text: a line per value file with its number, size, the bytes the tables refer to, and the garbage</td></tr>
     *   <tr><td>{@code leveldbj.block-cache}</td><td>text: one line on the block cache (capacity, usage, blocks, hits, misses, admission while full)</td></tr>
     * </table>
     * {@code doc/options.md} in the repository lists them too, with the system properties
     * ({@code -Dleveldbj.*}) that tune the engine.
     *
     * @param name the property name
     * @return its value, or {@code null} when the name is not known
     */
    String getProperty(String name);

    /**
     * Pauses background compactions, waiting until a running one has finished. While they are
     * paused, writes that need a compaction to make room wait until
     * {@link #resumeCompactions()} is called.
     *
     * @throws InterruptedException if the thread is interrupted while waiting
     */
    void suspendCompactions() throws InterruptedException;

    /** Lets background compactions run again after {@link #suspendCompactions()}. */
    void resumeCompactions();

    /**
     * Compacts the stored data for a key range: removes deleted and overwritten entries and
     * pushes the remaining ones to the deepest level that can hold them. Runs in the calling
     * thread and returns when done.
     *
     * @param begin the first key of the range, or {@code null} for the start of the database
     * @param end the last key of the range, or {@code null} for the end of the database
     * @throws DBException if the compaction fails
     */
    void compactRange(byte[] begin, byte[] end) throws DBException;
}
