package org.leveldbj.engine;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.NavigableMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import org.iq80.leveldb.CorruptDatabaseException;
import org.iq80.leveldb.CorruptionException;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.DBException;
import org.iq80.leveldb.DBIterator;
import org.iq80.leveldb.DBOpenException;
import org.iq80.leveldb.DatabaseNotFoundException;
import org.iq80.leveldb.Env;
import org.iq80.leveldb.ExtendedDB;
import org.iq80.leveldb.ExtendedDBIterator;
import org.iq80.leveldb.IOErrorException;
import org.iq80.leveldb.InvalidArgumentException;
import org.iq80.leveldb.Options;
import org.iq80.leveldb.PrefixExtractor;
import org.iq80.leveldb.Range;
import org.iq80.leveldb.ReadOptions;
import org.iq80.leveldb.Snapshot;
import org.iq80.leveldb.Statistics;
import org.iq80.leveldb.Transaction;
import org.iq80.leveldb.WriteBatch;
import org.iq80.leveldb.WriteBatchWithIndex;
import org.iq80.leveldb.WriteOptions;
import org.leveldbj.background.Pool;
import org.leveldbj.cache.ClockBlockCache;
import org.leveldbj.cache.CountingBlockCache;
import org.leveldbj.cache.TableCache;
import org.leveldbj.comparator.KeyComparator;
import org.leveldbj.comparator.UserComparators;
import org.leveldbj.compress.Codecs;
import org.leveldbj.env.FileSystemEnv;
import org.leveldbj.filename.FileNames;
import org.leveldbj.iterator.KeyWatchingIterator;
import org.leveldbj.iterator.MergingIterator;
import org.leveldbj.iterator.OverlayIterator;
import org.leveldbj.iterator.SortedIterator;
import org.leveldbj.key.InternalKeyComparator;
import org.leveldbj.key.InternalKeys;
import org.leveldbj.key.PointLookup;
import org.leveldbj.key.ValueType;
import org.leveldbj.memtable.MemTableBudget;
import org.leveldbj.stats.Counters;
import org.leveldbj.stats.JmxRegistration;
import org.leveldbj.table.BlockCache;
import org.leveldbj.table.BloomFilterPolicy;
import org.leveldbj.table.EntryClassifier;
import org.leveldbj.table.FilterKeyExtractor;
import org.leveldbj.table.PrefixFilterOptions;
import org.leveldbj.table.PrefixScan;
import org.leveldbj.table.TableOptions;
import org.leveldbj.table.TableReadOptions;
import org.leveldbj.util.Bytes;
import org.leveldbj.version.Version;
import org.leveldbj.version.VersionSet;

/**
 * An open database: the slim coordinator behind the {@link DB} API. Writes go through the
 * {@link WriteQueue} (group commit), flushes and compactions run in {@link BackgroundWork},
 * opening is {@link Recovery}; reads consult the memtable, the immutable memtable and then the
 * current {@link Version}, at a snapshot sequence number.
 *
 * <p>Thread safety: safe for concurrent use; shared state lives in {@link DbState}, guarded by
 * its lock. Reads take no lock: {@code get}, {@code iterator} and {@code getSnapshot} pin the
 * published {@link ReadView} (memtable, immutable memtable, current version), and a snapshot is
 * registered under the snapshot list's own lock.
 *
 * <p>Lifetime: {@link #close()} lets the write in progress finish, fails the writers still
 * waiting (for room in the memtable or on level 0) and any {@code compactRange} waiting for a
 * flush with {@link DBException} ("database is closed"), waits for the background step in
 * progress, then releases the log, memtables, tables and the directory lock; it is
 * idempotent, and every other method afterwards throws {@link DBException} ("database is
 * closed"), as do the iterators still open (they keep what they read until they are closed)
 * and reads through its snapshots. A closed snapshot or write batch is refused the same way.
 *
 * <p>Errors: the first failure of a write to the log or of background work (an I/O error, a
 * {@link org.leveldbj.comparator.ComparatorFailure}) is kept, and every later write fails with it as
 * the cause; reads go on.
 *
 * <p>Read-only mode ({@link Options#readOnly(boolean)}): opening changes nothing in the
 * directory. It neither creates a missing database nor writes a log, table, MANIFEST, CURRENT
 * or {@code LOG} file, and deletes nothing; the live logs are replayed into the memtable, which
 * stays in memory however large it grows, and no compaction is ever scheduled. The
 * {@code LOCK} file is opened without being created and locked exclusively, exactly as a
 * writable database locks it, so a read-only open fails with the usual {@code "lock ...:
 * already held by process"} while any other database, read-only or not, in this or another
 * process (C++ LevelDB included) has the directory open; without a {@code LOCK} file the
 * database is opened without a lock. Writes, {@code compactRange} and suspending or resuming
 * compactions throw {@link DBException} ({@code "database <dir> is open read-only: ..."}).
 */
public final class DbImpl implements ExtendedDB {
    private final DbState s;
    private final WriteAheadLog wal;
    private final ObsoleteFiles obsolete;
    private final MemTableFlush flush;
    private final BackgroundWork background;
    private final WriteQueue writes;
    private final Env.FileLock lock;
    private final TableCache tableCache;
    private final ClockBlockCache blockCache;
    private volatile boolean closed;
    /** Iterators handed out and not closed yet (the {@code leveldbj.num-iterators} property). */
    private final AtomicInteger openIterators = new AtomicInteger();
    /** Run by {@link #getSnapshot()} between reading the sequence and registering it; tests only. */
    volatile Runnable snapshotHookForTesting;

    /** Reclaims value files; null when the database has no separated values. Set while opening. */
    private ValueCollector collector;
    /** The database's JMX bean; null when registration is off or failed. Set at the end of opening. */
    private JmxRegistration jmx;

    private DbImpl(DbState s, Env.FileLock lock, TableCache tableCache, ClockBlockCache blockCache, Pool pool) {
        this.s = s;
        this.lock = lock;
        this.tableCache = tableCache;
        this.blockCache = blockCache;
        this.wal = new WriteAheadLog(s);
        this.obsolete = new ObsoleteFiles(s);
        this.flush = new MemTableFlush(s, wal, obsolete);
        this.background = new BackgroundWork(s, flush, obsolete, pool);
        s.valueLog.syncOn(background.lane()::execute);
        this.writes = new WriteQueue(s, wal, background);
        background.useIdleSwitch(writes::switchIfIdle);
        s.onBudgetAsk = background::budgetAsked;
    }

    /** The shared cache the options name, or a cache of the database's own. */
    private static ClockBlockCache blockCache(Options options) {
        org.iq80.leveldb.Cache shared = options.cache();
        if (shared == null) {
            return ClockBlockCache.forCacheSize(options.cacheSize());
        }
        if (!(shared instanceof ClockBlockCache own)) {
            throw new InvalidArgumentException("Invalid argument: cache " + shared.getClass().getName()
                    + " was not made by LevelDbFactory.newCache");
        }
        return own;
    }

    /** The background pool the options name, or the process's default pool. */
    private static Pool backgroundPool(Options options) {
        org.iq80.leveldb.BackgroundPool given = options.backgroundPool();
        if (given == null) {
            return Pool.defaultPool();
        }
        if (!(given instanceof Pool pool)) {
            throw new InvalidArgumentException("Invalid argument: background pool " + given.getClass().getName()
                    + " was not made by LevelDbFactory.newBackgroundPool");
        }
        if (pool.isClosed()) {
            throw new InvalidArgumentException("Invalid argument: the background pool is closed");
        }
        return pool;
    }

    /**
     * Opens (and, if allowed, creates) the database in a directory.
     *
     * @param dir the database directory
     * @param options the options
     * @return the open database
     * @throws DatabaseNotFoundException if the database is missing and may not be created
     * @throws org.iq80.leveldb.InvalidDatabaseArgumentException if it exists against the
     *     options or was created with another comparator
     * @throws CorruptDatabaseException if its files are damaged
     * @throws DBOpenException if the compression asked for has no usable implementation, or
     *     another failure of the engine stopped the opening
     * @throws IOException if files cannot be read or written, or the directory is locked
     */
    public static DbImpl open(Path dir, Options options) throws IOException {
        Arguments.checkNotNull(dir, "path");
        Arguments.checkNotNull(options, "options");
        try {
            return openChecked(dir, options);
        } catch (CorruptionException e) {
            throw new CorruptDatabaseException(e);
        } catch (DBException e) {
            throw new DBOpenException(e.getMessage(), e);
        }
    }

    /** {@link #open}, with the engine's unchecked failures not yet turned into checked ones. */
    private static DbImpl openChecked(Path dir, Options options) throws IOException {
        Env env = options.env() != null ? options.env() : FileSystemEnv.getDefault();
        boolean readOnly = options.readOnly();
        Pool pool = backgroundPool(options);
        if (options.writeBufferBudget() != null && !(options.writeBufferBudget() instanceof MemTableBudget)) {
            throw new InvalidArgumentException("Invalid argument: write buffer budget "
                    + options.writeBufferBudget().getClass().getName() + " was not made by LevelDbFactory.newWriteBufferBudget");
        }
        if (!readOnly) {
            // Refuse now, not at the first flush, a compression no implementation can write.
            Codecs.forId(options.compressionType().persistentId());
        }
        if ((readOnly || !options.createIfMissing()) && !env.fileExists(dir)) {
            // Fail before creating anything: a mistyped path must not leave a directory with a
            // LOCK and a LOG behind (C++ LevelDB creates them, then fails).
            throw new DatabaseNotFoundException(Recovery.doesNotExist(dir, readOnly));
        }
        Env.FileLock lock;
        if (readOnly) {
            lock = DatabaseLock.lockExisting(env, dir);
        } else {
            lock = DatabaseLock.createAndLock(env, dir);
        }
        InfoLog infoLog = null;
        TableCache tableCache = null;
        DbImpl db = null;
        try {
            infoLog = readOnly ? InfoLog.withoutFile(options.logger()) : InfoLog.open(env, dir, options.logger());
            InternalKeyComparator icmp = new InternalKeyComparator(UserComparators.of(options.comparator()));
            ClockBlockCache blockCache = blockCache(options);
            Counters counters = new Counters();
            TableOptions tableOptions = tableOptions(options, icmp, new CountingBlockCache(blockCache, counters));
            tableCache = new TableCache(env, dir, Math.max(1, options.maxOpenFiles() - 10), tableOptions);
            boolean sst = FileNames.writesSst(env, dir, options.tableFileSuffix());
            DbState state = new DbState(options, env, dir, sst, icmp, tableOptions, new TableCacheSource(tableCache),
                    infoLog, counters);
            db = new DbImpl(state, lock, tableCache, blockCache, pool);
            state.mutex.lock();
            try {
                new Recovery(state, db.wal, db.flush, db.obsolete, db.background).run();
                if (!readOnly && (options.valueThreshold() > 0 || state.versions.separatedValues())) {
                    db.collector = new ValueCollector(db, state, db.background, options.valueGarbageRatio());
                }
            } finally {
                state.mutex.unlock();
            }
            if (db.collector != null) {
                db.collector.start();
            }
            // Last, and without the database lock: nothing after it can fail the open.
            db.jmx = JmxRegistration.register(dir.toAbsolutePath().toString(), db::statistics);
            return db;
        } catch (IOException | RuntimeException e) {
            if (db != null) {
                db.s.shuttingDown = true;
                db.closed = true;
                db.release();
                throw e;
            }
            if (tableCache != null) {
                tableCache.close();
            }
            if (infoLog != null) {
                infoLog.close();
            }
            try {
                if (lock != null) {
                    lock.close();
                }
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    /**
     * The table settings the options ask for: key order, block layout, compression, a bloom
     * filter over user keys, checksum verification, the block cache, and a stats block counting
     * entries and deletions in every table.
     *
     * @param options the database options
     * @param icmp the internal-key order
     * @param blockCache the block cache
     * @return the settings every table of the database is written and read with
     */
    static TableOptions tableOptions(Options options, InternalKeyComparator icmp, BlockCache blockCache) {
        BloomFilterPolicy filter = options.filterPolicy() == null ? null
                : new BloomFilterPolicy(options.filterPolicy().bitsPerKey());
        PrefixFilterOptions prefixFilter = null;
        if (options.prefixExtractor() != null) {
            if (options.comparator() != null) {
                throw new InvalidArgumentException("Invalid argument: a prefix extractor needs the byte-wise key order; "
                        + "the options set comparator " + options.comparator().name());
            }
            // The prefix filter spends the whole-key filter's bits per key, or 10 without one.
            prefixFilter = new PrefixFilterOptions(options.prefixExtractor(),
                    filter != null ? filter : new BloomFilterPolicy(10), InternalKeys.TRAILER_SIZE);
        }
        return new TableOptions(icmp, options.blockSize(), options.blockRestartInterval(),
                options.compressionType().persistentId(), filter,
                filter == null ? FilterKeyExtractor.WHOLE_KEY : FilterKeyExtractor.dropSuffix(InternalKeys.TRAILER_SIZE),
                options.verifyChecksums() || options.paranoidChecks(), blockCache, prefixFilter, DELETIONS);
    }

    /**
     * Tells deletions apart for the tables' stats blocks (the type byte of the internal key), and
     * the user key (the internal key without its 8-byte trailer).
     */
    static final EntryClassifier DELETIONS = new EntryClassifier() {
        @Override
        public boolean isDeletion(ByteBuffer key) {
            return key.remaining() >= InternalKeys.TRAILER_SIZE
                    && key.get(key.limit() - InternalKeys.TRAILER_SIZE) == ValueType.DELETION.persistentId();
        }

        @Override
        public int userKeyLength(ByteBuffer key) {
            return Math.max(0, key.remaining() - InternalKeys.TRAILER_SIZE);
        }
    };

    /**
     * The prefix scan a read's bounds describe: when the database has a prefix extractor, the
     * lower bound is in its domain and the upper bound is at most the first key after every key
     * with the lower bound's prefix, every key in the bounds has that prefix (by the extractor's
     * contract), so the tables' prefix filters may rule tables and blocks out.
     *
     * @param options the read's options
     * @return the scan, or {@code null} when the bounds do not keep to one prefix
     */
    private PrefixScan prefixScanOf(ReadOptions options) {
        PrefixExtractor extractor = s.options.prefixExtractor();
        byte[] lower = options.iterateLowerBound();
        byte[] upper = options.iterateUpperBound();
        if (extractor == null || lower == null || upper == null || !extractor.inDomain(lower)) {
            return null;
        }
        byte[] prefix = extractor.prefix(lower);
        byte[] end = Bytes.prefixSuccessor(prefix);
        if (end == null || Arrays.compareUnsigned(upper, end) > 0) {
            return null;
        }
        return new PrefixScan(extractor.name(), prefix, lower, upper);
    }

    private void checkOpen() {
        if (closed) {
            throw new DBException(CursorIterator.DATABASE_CLOSED_MESSAGE);
        }
    }

    /**
     * Refuses an operation that would change the directory of a read-only database.
     *
     * @param what the refused operation, for the message
     */
    private void checkWritable(String what) {
        if (s.readOnly) {
            throw new InvalidArgumentException("database " + s.dir + " is open read-only: " + what + " is not allowed");
        }
    }

    /**
     * Checks again under the lock: {@code close()} sets {@link #closed} under the lock before it
     * releases the memtables and versions, so a reader that passed {@link #checkOpen()} just
     * before a concurrent close must not find them gone. Requires: the lock.
     */
    private void checkOpenLocked() {
        assert s.mutex.isHeldByCurrentThread();
        checkOpen();
    }

    @Override
    public byte[] get(byte[] key) {
        Arguments.checkNotNull(key, "key");
        checkOpen();
        return get(key, s.versions.lastSequence(), TableReadOptions.DEFAULT);
    }

    @Override
    public byte[] get(byte[] key, ReadOptions options) {
        Arguments.checkNotNull(key, "key");
        Arguments.checkNotNull(options, "options");
        checkOpen();
        return get(key, snapshotSequence(options), readOptions(options));
    }

    /**
     * A point lookup at a sequence number read before this is called (see {@link ReadView} on
     * why the order matters): takes no lock and allocates nothing but the value.
     */
    private byte[] get(byte[] key, long sequence, TableReadOptions readOptions) {
        ReadView view = s.pinReadView();
        ReadContext context = ReadContext.acquire();
        PointLookup lookup = context.lookup;
        try {
            lookup.start(key, sequence);
            if (!view.mem.get(lookup) && (view.imm == null || !view.imm.get(lookup))) {
                Version.GetStats stats = context.stats;
                view.version.get(lookup, readOptions, stats);
                if (stats.chargedASeek() && view.version.updateStats(stats)) {
                    scheduleCompaction();
                }
            }
            boolean found = lookup.state() == PointLookup.FOUND;
            s.counters.countGet(found);
            if (!found) {
                return null;
            }
            // Read while the view is pinned: the value file outlives every version naming it.
            return lookup.isReference()
                    ? s.valueLog.read(lookup.value(), readOptions.verifyChecksums() || s.options.verifyChecksums())
                    : lookup.value();
        } finally {
            view.unpin();
            lookup.clear();
            context.release();
        }
    }

    @Override
    public List<byte[]> multiGet(List<byte[]> keys) {
        byte[][] array = keyArray(keys);
        checkOpen();
        return MultiGet.run(s, array, s.versions.lastSequence(), TableReadOptions.DEFAULT);
    }

    @Override
    public List<byte[]> multiGet(List<byte[]> keys, ReadOptions options) {
        byte[][] array = keyArray(keys);
        Arguments.checkNotNull(options, "options");
        checkOpen();
        return MultiGet.run(s, array, snapshotSequence(options), readOptions(options));
    }

    /** The keys of a {@code multiGet} as an array, rejecting a {@code null} list or key. */
    private static byte[][] keyArray(List<byte[]> keys) {
        Arguments.checkNotNull(keys, "keys");
        byte[][] array = keys.toArray(new byte[0][]);
        for (int i = 0; i < array.length; i++) {
            if (array[i] == null) {
                throw new IllegalArgumentException("The keys argument cannot hold null (at index " + i + ")");
            }
        }
        return array;
    }

    /** A thread's reusable lookup state; a lookup made from inside another gets its own. */
    private static final class ReadContext {
        private static final ThreadLocal<ReadContext> OF_THREAD = ThreadLocal.withInitial(ReadContext::new);

        final PointLookup lookup = new PointLookup();
        final Version.GetStats stats = new Version.GetStats();
        private boolean busy;

        static ReadContext acquire() {
            ReadContext c = OF_THREAD.get();
            if (c.busy) {
                // A comparator or filter that reads this or another database from inside a
                // lookup: rare enough to allocate.
                c = new ReadContext();
            }
            c.busy = true;
            return c;
        }

        void release() {
            busy = false;
        }
    }

    private void scheduleCompaction() {
        if (s.readOnly) {
            return;
        }
        s.mutex.lock();
        try {
            background.maybeSchedule();
        } finally {
            s.mutex.unlock();
        }
    }

    private long snapshotSequence(ReadOptions options) {
        Snapshot snapshot = options.snapshot();
        if (snapshot == null) {
            return s.versions.lastSequence();
        }
        if (!(snapshot instanceof SnapshotList.SnapshotImpl) || !((SnapshotList.SnapshotImpl) snapshot).belongsTo(s.snapshots)) {
            throw new IllegalArgumentException("snapshot " + snapshot + " does not belong to this database");
        }
        SnapshotList.SnapshotImpl impl = (SnapshotList.SnapshotImpl) snapshot;
        if (impl.isClosed()) {
            throw new DBException("snapshot is closed: " + impl);
        }
        return impl.sequence();
    }

    private static TableReadOptions readOptions(ReadOptions options) {
        return TableReadOptions.of(options.verifyChecksums(), options.fillCache());
    }

    @Override
    public ExtendedDBIterator iterator() {
        return iterator(new ReadOptions());
    }

    @Override
    public ExtendedDBIterator iterator(ReadOptions options) {
        return overlayIterator(options, null, null);
    }

    /**
     * An iterator over the database with a batch's index laid over it
     * ({@link IndexedWriteBatch}), or a plain one.
     *
     * @param options the read options
     * @param index the batch's index ({@link IndexedWriteBatch#TOMBSTONE} marks deletions), or
     *     {@code null} for none
     * @param keyWatcher told every key the iterator returns, or {@code null}
     */
    ExtendedDBIterator overlayIterator(ReadOptions options, NavigableMap<byte[], byte[]> index,
                               Consumer<ByteBuffer> keyWatcher) {
        Arguments.checkNotNull(options, "options");
        checkOpen();
        TableReadOptions ro = readOptions(options);
        PrefixScan prefixScan = prefixScanOf(options);
        if (prefixScan != null) {
            ro = ro.withPrefixScan(prefixScan);
        }
        long sequence = snapshotSequence(options);
        ReadView view = s.pinReadView();
        List<SortedIterator> children = new ArrayList<>();
        try {
            // A memtable empty now holds nothing this iterator may see: every write at or below
            // its sequence was inserted before that sequence was published. Leaving it out
            // spares a read-mostly database the merge with an empty source on every step.
            if (!view.mem.isEmpty()) {
                children.add(view.mem.iterator());
            }
            if (view.imm != null && !view.imm.isEmpty()) {
                children.add(view.imm.iterator());
            }
            view.version.addIterators(ro, options.iterateLowerBound(), options.iterateUpperBound(), children);
        } catch (RuntimeException e) {
            children.forEach(SortedIterator::close);
            view.unpin();
            throw e;
        }
        Version current = view.version;
        SortedIterator merged = MergingIterator.of(s.icmp, children, true);
        ValueLog values = s.valueLog;
        boolean verify = ro.verifyChecksums() || s.options.verifyChecksums();
        DbIterator entries = new DbIterator(merged, s.icmp.userComparator(), sequence, internalKey -> {
            if (current.recordReadSample(internalKey)) {
                scheduleCompaction();
            }
        }, reference -> values.lend(reference, verify), s.counters);
        SortedIterator shown = entries;
        if (index != null) {
            shown = new OverlayIterator(shown, index, IndexedWriteBatch.TOMBSTONE, s.icmp.userComparator());
        }
        if (options.iterateLowerBound() != null || options.iterateUpperBound() != null) {
            // After the overlay, so that a batch's writes outside the bounds stay out too.
            shown = new BoundedIterator(shown, s.icmp.userComparator(), options.iterateLowerBound(),
                    options.iterateUpperBound());
        }
        if (keyWatcher != null) {
            shown = new KeyWatchingIterator(shown, keyWatcher);
        }
        openIterators.incrementAndGet();
        return new CursorIterator(shown, () -> {
            openIterators.decrementAndGet();
            view.unpin();
        }, () -> !closed, s.dir.toString());
    }

    @Override
    public ExtendedDBIterator prefixIterator(byte[] prefix, ReadOptions options) {
        Arguments.checkNotNull(prefix, "prefix");
        Arguments.checkNotNull(options, "options");
        if (s.options.comparator() != null) {
            throw new InvalidArgumentException("Invalid argument: a prefix iterator needs the byte-wise key order; "
                    + "database " + s.dir + " orders keys by comparator " + s.options.comparator().name());
        }
        byte[] lower = options.iterateLowerBound();
        if (lower == null || Arrays.compareUnsigned(lower, prefix) < 0) {
            lower = prefix;
        }
        byte[] upper = options.iterateUpperBound();
        byte[] end = Bytes.prefixSuccessor(prefix);
        if (upper == null || (end != null && Arrays.compareUnsigned(end, upper) < 0)) {
            upper = end;
        }
        return iterator(new ReadOptions().snapshot(options.snapshot()).fillCache(options.fillCache())
                .verifyChecksums(options.verifyChecksums()).iterateLowerBound(lower).iterateUpperBound(upper));
    }

    @Override
    public void put(byte[] key, byte[] value) {
        put(key, value, new WriteOptions());
    }

    @Override
    public void delete(byte[] key) {
        delete(key, new WriteOptions());
    }

    @Override
    public void write(WriteBatch updates) {
        write(updates, new WriteOptions());
    }

    /**
     * Returns how many background steps (flushes, compactions) this database ever scheduled.
     *
     * @return the count
     */
    long backgroundStepsScheduled() {
        s.mutex.lock();
        try {
            return background.stepsScheduled();
        } finally {
            s.mutex.unlock();
        }
    }

    @Override
    public WriteBatch createWriteBatch() {
        checkOpen();
        return new WriteBatchImpl();
    }

    @Override
    public Snapshot put(byte[] key, byte[] value, WriteOptions options) {
        if (value != null && key != null && options != null && s.valueLog.separates(value.length)) {
            // A large value goes to its value file from the caller's array, before the write
            // joins the queue; the batch carries its reference only.
            checkOpen();
            checkWritable("writing");
            byte[] ref = appendValue(key, value, options);
            WriteBatchImpl batch = new WriteBatchImpl(WriteBatchImpl.recordSize(key.length, ref.length));
            batch.addRecord(ValueType.VALUE_REFERENCE, key, 0, key.length, ref, 0, ref.length);
            try {
                return write(batch, options);
            } finally {
                s.valueLog.released(ref);
            }
        }
        // One exact array for the record (the default batch's 256 bytes are mostly unused).
        WriteBatchImpl batch = key == null || value == null
                ? new WriteBatchImpl() : new WriteBatchImpl(WriteBatchImpl.recordSize(key.length, value.length));
        batch.put(key, value);
        return write(batch, options);
    }

    /** Refuses write options that ask for a sync without the write-ahead log. */
    private static void checkSyncable(WriteOptions options) {
        if (options.sync() && options.disableWal()) {
            throw new InvalidArgumentException("Invalid argument: a write cannot both sync and skip the write-ahead log");
        }
    }

    /** Appends a separated value (synced for a synced write); a failure is sticky, as the log's. */
    private byte[] appendValue(byte[] key, byte[] value, WriteOptions options) {
        checkSyncable(options);
        try {
            byte[] ref = s.valueLog.append(key, 0, key.length, value, 0, value.length);
            if (options.sync()) {
                s.valueLog.sync();
            }
            return ref;
        } catch (IOException | RuntimeException e) {
            IOErrorException failure = new IOErrorException("IO error: writing a value file in " + s.dir + ": "
                    + e.getMessage(), e);
            s.mutex.lock();
            try {
                s.recordBackgroundError(failure);
            } finally {
                s.mutex.unlock();
            }
            throw failure;
        }
    }

    @Override
    public Snapshot delete(byte[] key, WriteOptions options) {
        WriteBatchImpl batch = key == null
                ? new WriteBatchImpl() : new WriteBatchImpl(WriteBatchImpl.recordSize(key.length, -1));
        batch.delete(key);
        return write(batch, options);
    }

    @Override
    public Snapshot write(WriteBatch updates, WriteOptions options) {
        Arguments.checkNotNull(updates, "updates");
        Arguments.checkNotNull(options, "options");
        if (updates instanceof IndexedWriteBatch indexed) {
            updates = indexed.batch();
        }
        if (!(updates instanceof WriteBatchImpl)) {
            throw new IllegalArgumentException("batch " + updates.getClass().getName()
                    + " was not created by DB.createWriteBatch() of this engine");
        }
        WriteBatchImpl batch = (WriteBatchImpl) updates;
        batch.checkOpen();
        checkOpen();
        checkWritable("writing");
        checkSyncable(options);
        writes.write(batch, options.sync(), options.disableWal());
        return options.snapshot() ? getSnapshot() : null;
    }

    /**
     * Writes a transaction's batch if its check passes, the check run by the write queue's
     * leader where no other write can come between ({@link ConflictCheck}).
     *
     * @return the sequence number of the batch's first record
     * @throws org.iq80.leveldb.TransactionConflictException if the check fails: nothing written
     */
    long writeChecked(WriteBatchImpl batch, WriteOptions options, ConflictCheck check) {
        batch.checkOpen();
        checkOpen();
        checkWritable("committing a transaction");
        checkSyncable(options);
        writes.write(batch, options.sync(), options.disableWal(), check);
        return batch.sequence();
    }

    @Override
    public WriteBatchWithIndex createWriteBatchWithIndex() {
        checkOpen();
        return new IndexedWriteBatch(this);
    }

    @Override
    public Transaction beginTransaction() {
        checkOpen();
        checkWritable("a transaction");
        SnapshotList.SnapshotImpl snapshot = (SnapshotList.SnapshotImpl) getSnapshot();
        return new OptimisticTransaction(this, snapshot, true, snapshot.sequence());
    }

    @Override
    public Transaction beginTransaction(Snapshot snapshot) {
        Arguments.checkNotNull(snapshot, "snapshot");
        checkOpen();
        checkWritable("a transaction");
        long sequence = snapshotSequence(new ReadOptions().snapshot(snapshot));
        return new OptimisticTransaction(this, snapshot, false, sequence);
    }

    /**
     * Fails when a transaction's snapshot was closed: compaction may have dropped the entries
     * its check needs.
     */
    void checkSnapshotOpen(Snapshot snapshot) {
        snapshotSequence(new ReadOptions().snapshot(snapshot));
    }

    /** The user key order. */
    KeyComparator userComparator() {
        return s.icmp.userComparator();
    }

    @Override
    public Snapshot getSnapshot() {
        checkOpen();
        // The sequence is read and registered under the snapshot list's lock, the lock
        // compaction reads the oldest snapshot under: a compaction either sees this snapshot or
        // chose what to drop from a sequence at or before this one's.
        return s.snapshots.create(s.versions::lastSequence, s.dir.toString(), snapshotHookForTesting);
    }

    @Override
    public long[] getApproximateSizes(Range... ranges) {
        Arguments.checkNotNull(ranges, "ranges");
        for (Range range : ranges) {
            Arguments.checkNotNull(range, "ranges");
        }
        checkOpen();
        ReadView view = s.pinReadView();
        Version v = view.version;
        try {
            // Separated values are not in the tables: they are counted in proportion to the
            // table bytes of the range (the tables hold one small reference per such value).
            long tableBytes = 0;
            for (int level = 0; level < VersionSet.NUM_LEVELS; level++) {
                tableBytes += v.levelBytes(level);
            }
            long separated = s.versions.valueFileLiveTotal();
            double scale = separated > 0 && tableBytes > 0 ? 1 + (double) separated / tableBytes : 1;
            long[] sizes = new long[ranges.length];
            for (int i = 0; i < ranges.length; i++) {
                long start = v.approximateOffsetOf(seekKey(ranges[i].start()));
                long limit = v.approximateOffsetOf(seekKey(ranges[i].limit()));
                sizes[i] = limit >= start ? (long) ((limit - start) * scale) : 0;
            }
            return sizes;
        } finally {
            view.unpin();
        }
    }

    private static byte[] seekKey(byte[] userKey) {
        return InternalKeys.encode(userKey, InternalKeys.MAX_SEQUENCE, ValueType.FOR_SEEK);
    }

    @Override
    public String getProperty(String name) {
        Arguments.checkNotNull(name, "name");
        checkOpen();
        return DbProperties.get(s, blockCache, openIterators.get(), name);
    }

    @Override
    public long approximateNumEntries() {
        checkOpen();
        return EntryCountEstimate.of(s);
    }

    @Override
    public Statistics statistics() {
        checkOpen();
        return StatisticsSnapshot.take(s, tableCache, openIterators.get());
    }

    @Override
    public void suspendCompactions() throws InterruptedException {
        checkOpen();
        checkWritable("suspending compactions");
        s.mutex.lockInterruptibly();
        try {
            background.suspend();
        } finally {
            s.mutex.unlock();
        }
    }

    @Override
    public void resumeCompactions() {
        checkOpen();
        checkWritable("resuming compactions");
        s.mutex.lock();
        try {
            background.resume();
        } finally {
            s.mutex.unlock();
        }
    }

    /**
     * Turns a database with separated values back into plain LevelDB format, readable by C++
     * LevelDB, goleveldb and every other implementation: every table is rewritten with the
     * values in it, the value files are deleted, and a new MANIFEST names the plain comparator.
     * The database stays open and usable meanwhile; writes go on (they keep their values in
     * the tables, since the database must be open without a value threshold).
     *
     * <p>This is an extension of the engine (the command-line tool's {@code rewrite}).
     *
     * @throws InvalidArgumentException if the database was opened with a value threshold, or
     *     is read-only
     * @throws DBException if a compaction or the MANIFEST write fails
     */
    @Override
    public void inlineSeparatedValues() {
        checkOpen();
        checkWritable("rewriting");
        if (s.valueLog.threshold() > 0) {
            throw new InvalidArgumentException("Invalid argument: open the database without Options.valueThreshold"
                    + " to keep its values in the tables");
        }
        s.mutex.lock();
        try {
            if (!s.versions.separatedValues()) {
                return; // already plain LevelDB format
            }
        } finally {
            s.mutex.unlock();
        }
        s.valueLog.inline(true);
        try {
            compactEverything();
        } finally {
            s.valueLog.inline(false);
        }
        s.mutex.lock();
        try {
            checkOpenLocked();
            s.versions.unmarkSeparatedValues();
        } catch (IOException e) {
            throw new IOErrorException("IO error: " + s.dir + ": writing the unmarked MANIFEST: " + e.getMessage(), e);
        } finally {
            s.mutex.unlock();
        }
        background.sweepObsoleteFiles();
    }

    /**
     * Compacts the whole key range into its deepest level and then rewrites that level in
     * place, so that every table is rewritten once: what no reader needs is dropped and the
     * values of value files being reclaimed are moved (see {@link ValueCollector}).
     */
    void compactEverything() {
        compactRange(null, null, false); // the deepest level is rewritten just below
        s.mutex.lock();
        try {
            checkOpenLocked();
            Version v = s.versions.current();
            for (int level = VersionSet.NUM_LEVELS - 1; level >= 1; level--) {
                if (v.numFiles(level) > 0) {
                    background.rewriteLevel(level);
                    break;
                }
            }
        } finally {
            s.mutex.unlock();
        }
    }

    @Override
    public void compactRange(byte[] begin, byte[] end) {
        compactRange(begin, end, true);
    }

    /**
     * Compacts a key range into the deepest level holding it.
     *
     * @param begin the first user key, or {@code null}
     * @param end the last user key, or {@code null}
     * @param rewriteBottomForFilter with a compaction filter, also rewrite the deepest level's
     *     files in the range, so that the filter sees every entry
     */
    private void compactRange(byte[] begin, byte[] end, boolean rewriteBottomForFilter) {
        checkOpen();
        checkWritable("compacting");
        int maxLevelWithFiles = 1;
        s.mutex.lock();
        try {
            checkOpenLocked();
            Version v = s.versions.current();
            for (int level = 1; level < VersionSet.NUM_LEVELS; level++) {
                if (v.overlapInLevel(level, begin, end)) {
                    maxLevelWithFiles = level;
                }
            }
        } finally {
            s.mutex.unlock();
        }
        writes.write(null, false, false);
        byte[] ibegin = begin == null ? null : seekKey(begin);
        byte[] iend = end == null ? null : InternalKeys.encode(end, 0, ValueType.DELETION);
        s.mutex.lock();
        try {
            background.awaitImmutableFlushed();
            for (int level = 0; level < maxLevelWithFiles; level++) {
                background.compactRange(level, ibegin, iend);
            }
            if (rewriteBottomForFilter && background.filtering()) {
                // As RocksDB does by default with a compaction filter: the deepest level is
                // rewritten too, so that the filter sees every entry of the range.
                Version v = s.versions.current();
                for (int level = VersionSet.NUM_LEVELS - 1; level >= 1; level--) {
                    if (v.overlapInLevel(level, begin, end)) {
                        background.rewriteLevel(level, ibegin, iend);
                        break;
                    }
                }
            }
        } finally {
            s.mutex.unlock();
        }
    }

    @Override
    public void checkpoint(java.io.File dir) {
        Arguments.checkNotNull(dir, "dir");
        checkOpen();
        Path target = dir.toPath();
        try {
            Checkpoint.Result made = Checkpoint.make(s, target);
            s.infoLog.log("Checkpoint %s: sequence %d, %d files linked, %d copied (%d bytes)", made.directory(),
                    made.sequence(), made.linkedFiles(), made.copiedFiles(), made.copiedBytes());
        } catch (IOException e) {
            throw new IOErrorException(WriteQueue.ioErrorMessage(target, e), e);
        }
    }

    @Override
    public org.iq80.leveldb.TableWriter newTableWriter(java.io.File file) {
        Arguments.checkNotNull(file, "file");
        checkOpen();
        return ExternalTableWriter.create(s.env, file.toPath(), s.tableOptions);
    }

    @Override
    public void ingest(java.io.File... files) {
        ingest(new org.iq80.leveldb.IngestOptions(), files);
    }

    @Override
    public void ingest(org.iq80.leveldb.IngestOptions options, java.io.File... files) {
        Arguments.checkNotNull(options, "options");
        Arguments.checkNotNull(files, "files");
        if (files.length == 0) {
            throw new InvalidArgumentException("Invalid argument: no file to ingest");
        }
        Path[] paths = new Path[files.length];
        for (int i = 0; i < files.length; i++) {
            Arguments.checkNotNull(files[i], "files");
            paths[i] = files[i].toPath();
        }
        checkOpen();
        checkWritable("ingesting");
        new Ingestion(s, writes, wal, background, obsolete).run(options, paths);
    }

    /**
     * Fixes what a copy of the database holds now (for a backup): see {@link LiveFiles}.
     *
     * @return the captured files, to close once copied
     * @throws DBException if the database is closed or has a background error
     * @throws IOException if the directory cannot be listed or a value file opened
     */
    public LiveFiles captureLiveFiles() throws IOException {
        checkOpen();
        return LiveFiles.capture(s);
    }

    /**
     * Writes the memtable to a table and waits until it is one: what the memtable holds, writes
     * made without the write-ahead log included ({@link WriteOptions#disableWal(boolean)}), is
     * then as durable as the tables. Does nothing when the memtable is empty.
     *
     * @throws DBException if the flush fails (a background error, sticky) or the database closes
     *     meanwhile
     */
    @Override
    public void flushMemTable() {
        checkOpen();
        checkWritable("flushing the memtable");
        writes.write(null, false, false);
        s.mutex.lock();
        try {
            background.awaitImmutableFlushed();
        } finally {
            s.mutex.unlock();
        }
    }

    /**
     * Closes the database. Writes made without the write-ahead log are first written to a table;
     * when that fails (or a background error already stopped the database), the database still
     * closes and then this throws, so that the loss of those writes is not silent.
     *
     * @throws DBException ({@link IOErrorException} for an I/O failure) when writes made without
     *     the write-ahead log could not be kept
     */
    @Override
    public void close() {
        DBException unloggedLost = null;
        s.mutex.lock();
        try {
            if (closed) {
                return;
            }
            if (s.hasUnloggedWrites()) {
                // Writes made without the log live only in the memtables: a clean close writes
                // them to a table first (closed is not set yet, so the flush may run).
                s.mutex.unlock();
                try {
                    flushMemTable();
                } catch (DBException e) {
                    s.infoLog.log("flushing writes made without the log before closing failed: %s", e);
                    unloggedLost = e;
                } finally {
                    s.mutex.lock();
                }
                if (closed) {
                    return;
                }
            }
            closed = true;
            s.shuttingDown = true;
            // Wake every writer and waiter first: a writer stalled on level 0 or on a full
            // memtable, or a compactRange waiting for a flush, sees the shutdown and fails with
            // "database is closed"; waiting for the queue to drain before waking them would wait
            // forever when no background work is left to signal them (compactions suspended).
            s.backgroundChanged.signalAll();
            while (!writes.isIdle()) {
                writes.wakeLeader();
                s.mutex.unlock();
                try {
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
                } finally {
                    s.mutex.lock();
                }
                s.backgroundChanged.signalAll();
            }
        } finally {
            s.mutex.unlock();
        }
        release();
        if (unloggedLost != null) {
            String message = "writes made without the write-ahead log were lost at close: " + unloggedLost.getMessage();
            throw unloggedLost instanceof IOErrorException ? new IOErrorException(message, unloggedLost)
                    : new DBException(message, unloggedLost);
        }
    }

    /** Stops background work and releases every resource. Requires: shuttingDown set. */
    private void release() {
        if (jmx != null) {
            jmx.close();
        }
        if (collector != null) {
            collector.close();
        }
        background.shutDown();
        s.mutex.lock();
        try {
            s.withdrawReadView();
            wal.close();
            s.releaseMemTables();
            closeQuietly(s.versions);
        } finally {
            s.mutex.unlock();
        }
        // Without the lock: an append starting a value file takes the lock inside the value log's.
        closeQuietly(s.valueLog);
        tableCache.close();
        s.infoLog.close();
        closeQuietly(lock);
    }

    private void closeQuietly(AutoCloseable c) {
        if (c == null) {
            return;
        }
        try {
            c.close();
        } catch (Exception e) {
            s.infoLog.log("close failed: %s", e);
        }
    }

    /**
     * Runs one look of the value collector now, in this thread (tests).
     *
     * @return whether a pass reclaimed files
     * @throws IOException if the directory cannot be listed
     */
    boolean collectValueGarbageForTesting() throws IOException {
        return collector != null && collector.collectOnce();
    }

    /**
     * Sets the size past which the next MANIFEST write starts a new MANIFEST; for tests that
     * need MANIFEST (and CURRENT) rewrites without writing megabytes.
     *
     * @param bytes the limit
     */
    void setManifestSizeLimitForTesting(long bytes) {
        s.mutex.lock();
        try {
            s.versions.setManifestSizeLimit(bytes);
        } finally {
            s.mutex.unlock();
        }
    }

    /**
     * Compacts every file of one level into the next, as one step of {@code compactRange} does;
     * for tests that need tables on chosen levels.
     *
     * @param level the level, 0 to 5
     */
    void compactLevelForTesting(int level) {
        s.mutex.lock();
        try {
            background.compactRange(level, null, null);
        } finally {
            s.mutex.unlock();
        }
    }

    /**
     * Rewrites every file of a level (1 or more) in place through a compaction; for tests.
     *
     * @param level the level
     */
    void rewriteLevelForTesting(int level) {
        s.mutex.lock();
        try {
            background.rewriteLevel(level);
        } finally {
            s.mutex.unlock();
        }
    }

    /** @return the directory of this database */
    public Path directory() {
        return s.dir;
    }

    @Override
    public String toString() {
        return "DbImpl[" + s.dir + (closed ? ", closed]" : "]");
    }
}
