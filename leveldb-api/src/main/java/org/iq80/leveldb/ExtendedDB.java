package org.iq80.leveldb;

/**
 * What this engine offers beyond {@link DB}: the type {@code LevelDbFactory.factory.open}
 * returns, so that these operations need no cast to an implementation class.
 *
 * <pre>{@code
 * try (ExtendedDB db = LevelDbFactory.factory.open(dir, options)) {
 *     db.put(key, value, new WriteOptions().disableWal(true));
 *     db.flushMemTable();                  // now as durable as the tables
 * }
 * }</pre>
 *
 * <p>This is an extension of the 0.12 API. Code written against {@link DB} alone keeps working:
 * {@code DB db = factory.open(...)} still compiles, and the object is the same. New operations
 * are added here, never to {@link DB}, which stays the 0.12 interface.
 *
 * <p>Thread safety: as for {@link DB}, every operation may be called from any thread.
 */
public interface ExtendedDB extends DB {

    /**
     * Writes the memtable to a table and waits until it is one: what the memtable holds, writes
     * made without the write-ahead log included ({@link WriteOptions#disableWal(boolean)}), is
     * then as durable as the tables. Does nothing when the memtable is empty.
     *
     * @throws DBException if the flush fails (a background error, sticky), the database is
     *     read-only, or it is closed meanwhile
     */
    void flushMemTable();

    /**
     * What the database reports about itself now: counters since it opened (bytes written to the
     * log, tables and value files, keys read and written, cache hits and misses, write stalls,
     * compactions per level) and gauges (files and bytes per level, memtable memory, pending
     * compaction bytes, open iterators and snapshots, value files). {@link Metric} lists every
     * figure with its unit. Takes no database lock, so it never waits for writes or background
     * work; with separated values it lists the directory for the value files' sizes.
     *
     * @return an immutable snapshot
     * @throws DBException if the database is closed
     */
    Statistics statistics();

    /**
     * About how many entries the database holds: the value of the property
     * {@code leveldb.approximate-num-entries}, as a number. It is the distinct live keys minus the
     * deletions that the memtables and the tables hold, counted as they were written (memtables)
     * or read from a small block each table records its counts in, once per table, so that a call
     * costs a loop over the table files and no I/O (except for tables not asked before, and about
     * 64 point lookups when the memtable has grown by a quarter since the last call).
     *
     * <p>A key counts once however many versions of it the memtables and tables hold: each counts
     * its distinct keys, and the share of them that were new to the older data (found by looking
     * a sample up when the table was written, or, for a memtable, when asked). Exact for distinct
     * keys each written once and after a full compaction, within about 15% under rewrites,
     * lower when absent keys were deleted (each deletion cancels one key). Tables that record no
     * key counts (written by another LevelDB implementation, or before this library counted keys)
     * count every version, or are estimated from one of their data blocks. Takes no database lock.
     *
     * <p>The default implementation parses {@link #getProperty(String) getProperty}{@code
     * ("leveldb.approximate-num-entries")}, and gives 0 when the property is unknown.
     *
     * @return the estimate, never negative
     * @throws DBException if the database is closed
     */
    default long approximateNumEntries() {
        String value = getProperty("leveldb.approximate-num-entries");
        return value == null ? 0 : Long.parseLong(value.trim());
    }

    /**
     * Turns a database with separated values ({@link Options#valueThreshold(int)}) back into
     * plain LevelDB format, readable by C++ LevelDB, goleveldb and every other implementation:
     * every table is rewritten with its values in it, the value files are deleted, and a new
     * MANIFEST names the plain comparator. The database stays open and usable meanwhile; writes
     * go on. Does nothing on a database in plain format.
     *
     * @throws InvalidArgumentException if the database was opened with a value threshold, or
     *     is read-only
     * @throws DBException if a compaction or the MANIFEST write fails
     */
    void inlineSeparatedValues();

    /**
     * Makes a consistent copy of the database in a new directory while writes go on: it holds
     * every write acknowledged before the call and none that started after it, and opens as a
     * database of its own (in C++ LevelDB and goleveldb too, unless it has separated values).
     * Table files are hard-linked where the file system allows, so a checkpoint of a large
     * database takes milliseconds and little space; value files are copied, and the memtable's
     * entries are written to a log of the copy's own (nothing is flushed).
     *
     * <p>The copy is built in {@code dir + ".checkpoint-tmp"} and renamed to {@code dir} when
     * complete and synced, so a crash never leaves a half-made {@code dir}. A read-only
     * database can be checkpointed too.
     *
     * @param dir the directory to create; it must not exist, or be empty, and must not lie inside
     *     the database's directory
     * @throws InvalidArgumentException if {@code dir} exists and is not an empty directory, or
     *     lies inside the database
     * @throws DBException if the database is closed or has a background error;
     *     {@link IOErrorException} if a file cannot be linked, copied or written (the temporary
     *     directory is then deleted; one a crash left is cleared by the next checkpoint to
     *     {@code dir})
     */
    void checkpoint(java.io.File dir);

    /**
     * Creates a write batch that can be read before it is written: its own writes over the
     * database's entries ({@link WriteBatchWithIndex}). Write it with {@link #write(WriteBatch)}.
     *
     * @return a new, empty batch; close it
     * @throws DBException if the database is closed
     */
    WriteBatchWithIndex createWriteBatchWithIndex();

    /**
     * Begins an optimistic transaction reading the database as it is now: its commit fails
     * with {@link TransactionConflictException} if a key it read or wrote is changed by anyone
     * before it commits ({@link Transaction}).
     *
     * @return the transaction; close it
     * @throws DBException if the database is closed
     * @throws InvalidArgumentException if the database is read-only
     */
    Transaction beginTransaction();

    /**
     * Begins an optimistic transaction reading the database at a snapshot: its commit fails if
     * a key it read or wrote was changed after the snapshot, even before this call. The snapshot
     * must stay open until the transaction ends (the commit fails otherwise).
     *
     * @param snapshot a snapshot of this database
     * @return the transaction; close it
     * @throws DBException if the database or the snapshot is closed
     * @throws IllegalArgumentException if the snapshot is of another database
     * @throws InvalidArgumentException if the database is read-only
     */
    Transaction beginTransaction(Snapshot snapshot);

    /**
     * Reads many keys at once, as {@link #multiGet(java.util.List, ReadOptions)} does with
     * default read options (the latest state of the database).
     *
     * @param keys the keys; duplicates are allowed
     * @return the values, one per key in the order of {@code keys}, {@code null} for a key the
     *     database does not hold
     * @throws IllegalArgumentException if {@code keys} or one of its elements is {@code null}
     * @throws DBException if the database is closed, or a read fails
     */
    java.util.List<byte[]> multiGet(java.util.List<byte[]> keys);

    /**
     * Reads many keys at once, all from one state of the database: the snapshot the options
     * name, or else the latest state when the call starts, so that the values are consistent
     * with one another (a loop of {@link #get(byte[], ReadOptions)} without a snapshot may see a
     * write between two keys). Returns exactly what that loop would return at that state, and is
     * faster: the keys are looked up in key order, so that each level's files are walked once,
     * each table's index is searched forward, and a data block holding several of the keys is
     * read and decompressed once for all of them; the filter is still asked per key. Values
     * stored in value files ({@link Options#valueThreshold(int)}) are read and returned as
     * values.
     *
     * <pre>{@code
     * List<byte[]> values = db.multiGet(List.of(bytes("a"), bytes("b"), bytes("a")));
     * // values.get(0) and values.get(2) are a's value; values.get(1) is null if b is absent
     * }</pre>
     *
     * @param keys the keys; duplicates are allowed, the list is neither changed nor kept
     * @param options the snapshot, checksum and cache settings of the read
     * @return a new fixed-size list of the values, one per key in the order of {@code keys}, {@code null}
     *     for a key the database does not hold (absent or deleted)
     * @throws IllegalArgumentException if {@code keys}, {@code options} or one of the keys is
     *     {@code null} (the message names its index), or if the snapshot belongs to another
     *     database
     * @throws DBException if the database or the snapshot is closed;
     *     {@link CorruptionException} if a table or value file read is damaged
     */
    java.util.List<byte[]> multiGet(java.util.List<byte[]> keys, ReadOptions options);

    /**
     * An iterator over the keys that begin with {@code prefix}, and only those, in both
     * directions: an iterator made with {@link ReadOptions#iterateLowerBound(byte[])} the prefix
     * and {@link ReadOptions#iterateUpperBound(byte[])} the first key after every key with the
     * prefix (narrowed further by bounds {@code options} already sets), so that tables and blocks
     * outside the prefix's range are not read. {@code seekToFirst} lands on the first key with
     * the prefix, {@code seekToLast} on the last.
     *
     * <pre>{@code
     * try (DBIterator it = db.prefixIterator(bytes("user:42:"), new ReadOptions())) {
     *     for (it.seekToFirst(); it.hasNext(); ) {
     *         Map.Entry<byte[], byte[]> e = it.next();   // user:42:... keys only
     *     }
     * }
     * }</pre>
     *
     * @param prefix the prefix; an empty one iterates over everything
     * @param options the snapshot, checksum, cache and bound settings of the iteration
     * @return an iterator, to be closed
     * @throws IllegalArgumentException if {@code prefix} or {@code options} is {@code null}
     * @throws InvalidArgumentException if the database orders keys with a comparator of its own
     *     ({@link Options#comparator(DBComparator)}), under which the keys with a prefix need not
     *     be next to one another
     * @throws DBException if the database or the snapshot is closed
     */
    ExtendedDBIterator prefixIterator(byte[] prefix, ReadOptions options);

    /**
     * {@inheritDoc}
     *
     * <p>The iterator also lends its entries without copying them: see
     * {@link ExtendedDBIterator}.
     */
    @Override
    ExtendedDBIterator iterator();

    /**
     * {@inheritDoc}
     *
     * <p>The iterator also lends its entries without copying them: see
     * {@link ExtendedDBIterator}.
     */
    @Override
    ExtendedDBIterator iterator(ReadOptions options);

    /**
     * A writer of a table file for this database, with its options (comparator, block size,
     * restart interval, compression, filter policy): see {@link TableWriter}.
     *
     * @param file the table file to write; it must not exist
     * @return the writer, to close
     * @throws InvalidArgumentException if {@code file} exists
     * @throws DBException if the database is closed; {@link IOErrorException} if the file
     *     cannot be created
     */
    TableWriter newTableWriter(java.io.File file);

    /**
     * Adds table files made by a {@link TableWriter} to the database, copying them: the same as
     * {@code ingest(new IngestOptions(), files)}.
     *
     * @param files the table files; their key ranges must not overlap each other
     * @throws InvalidArgumentException if no file is given, a file is given twice, two files'
     *     key ranges overlap, or the database is read-only
     * @throws CorruptionException if a file is damaged or not such a table (naming the file,
     *     the offset and what is wrong); nothing was added then
     * @throws DBException if the database is closed or has a background error;
     *     {@link IOErrorException} if a file cannot be read, copied or recorded
     */
    void ingest(java.io.File... files);

    /**
     * Adds table files made by a {@link TableWriter} to the database, atomically: either every
     * file becomes part of the database, in one MANIFEST record, or none does (also across a
     * crash: a file copied in but not recorded is deleted at the next open). After it returns,
     * the files' entries are newer than every write made before the call (a deletion in a file
     * hides the key's earlier value), snapshots taken before the call do not see them, and
     * writes made after it are newer than them. Writes wait while it runs.
     *
     * <p>Each file is read completely first (checksums, key order under the database's
     * comparator, entry layout). A file whose key range overlaps nothing in the database while
     * no snapshot is open is taken as it is (linked or copied) and placed at the deepest level;
     * any other is rewritten into the database with a new sequence number (a stream copy; the
     * memtable is written to a table first) and placed at the deepest level where it overlaps
     * nothing older, level 0 at worst. See {@code doc/bulk-load.md}.
     *
     * @param options copy or move
     * @param files the table files; their key ranges must not overlap each other
     * @throws InvalidArgumentException if no file is given, a file is given twice, two files'
     *     key ranges overlap, or the database is read-only
     * @throws CorruptionException if a file is damaged or not such a table (naming the file,
     *     the offset and what is wrong); nothing was added then
     * @throws DBException if the database is closed or has a background error;
     *     {@link IOErrorException} if a file cannot be read, copied or recorded
     */
    void ingest(IngestOptions options, java.io.File... files);

    /**
     * Closes the database, as {@link DB#close()} does, without a checked exception: writes made
     * without the write-ahead log are first written to a table, and when that fails the database
     * still closes and then this throws, so that their loss is not silent.
     *
     * @throws DBException ({@link IOErrorException} for an I/O failure) when writes made without
     *     the write-ahead log could not be kept
     */
    @Override
    void close();
}
