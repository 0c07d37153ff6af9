package org.leveldbj.kafka.streams;

import java.io.Closeable;
import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.errors.ProcessorStateException;
import org.apache.kafka.streams.errors.TaskCorruptedException;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.processor.internals.ChangelogRecordDeserializationHelper;
import org.apache.kafka.streams.query.Position;
import org.apache.kafka.streams.state.internals.PositionSerde;
import org.apache.kafka.streams.state.internals.StoreQueryUtils;
import org.iq80.leveldb.CompactionFilter;
import org.iq80.leveldb.DBException;
import org.iq80.leveldb.DBIterator;
import org.iq80.leveldb.Env;
import org.iq80.leveldb.ExtendedDB;
import org.iq80.leveldb.Options;
import org.iq80.leveldb.Range;
import org.iq80.leveldb.ReadOptions;
import org.iq80.leveldb.WriteBatch;
import org.iq80.leveldb.WriteBatchWithIndex;
import org.iq80.leveldb.WriteOptions;
import org.leveldbj.db.LevelDbFactory;
import org.leveldbj.env.FileSystemEnv;

/**
 * One Kafka Streams store's database: the store's data, and beside it what Kafka Streams asks a
 * store to keep (the committed changelog offsets, the position for interactive queries, and
 * whether the store was closed cleanly), written atomically with the data. Every store of this
 * module (key-value, window, session, versioned) keeps its data here, in a key layout of its own.
 *
 * <p>Location: {@code <task state dir>/leveldb/<store name>}.
 *
 * <p>Byte layout: every database key starts with a namespace byte.
 * <ul>
 *   <li>{@code 0x00}, metadata, each key an ASCII name after that byte:
 *     <ul>
 *       <li>{@code format}: {@value #FORMAT}, written when the database is created; a database
 *           without it was not written by this layout (an older release) and is reported corrupt
 *           so that Kafka Streams restores it from the changelog;</li>
 *       <li>{@code status}: one byte, 1 while the store is open and 0 once it closed cleanly;</li>
 *       <li>{@code position}: the position, as Kafka's {@code PositionSerde} writes it;</li>
 *       <li>{@code offset/<topic>-<partition>}: a committed changelog offset, 8 bytes big-endian;</li>
 *       <li>{@code store/<name>}: a value of the store's own that it keeps beside its offsets
 *           (see {@link #keepAtCommit}), written with every commit and at close.</li>
 *     </ul></li>
 *   <li>{@code 0x01}, data: the store's own key after that byte. Callers of this class never
 *       see the byte: keys are given and returned without it.</li>
 * </ul>
 *
 * <p>Compatibility: nothing here changes LevelDB's format. The metadata and data are ordinary
 * entries, the compaction filters only remove entries or leave deletion markers, and the tables'
 * {@code leveldbj.stats} meta block is one that other implementations ignore: C++ LevelDB 1.23
 * and goleveldb read a store's database exactly as leveldbj does, and may write into a closed one
 * (a data record in the store's layout is then read by the store).
 *
 * <p>Durability, and why a commit costs microseconds: every write skips the write-ahead log, as
 * Kafka's RocksDB store's do, because the changelog topic is the store's log. A commit writes
 * the offsets and the position in one batch after the data they cover, and flushes nothing.
 * Memtables reach tables whole and in order, so after a crash the database holds a prefix of the
 * writes, and the offsets it holds never claim data it lacks: Kafka Streams restores from them
 * whatever came later. A clean close writes status 0 and keeps every write. Under exactly-once a
 * prefix may hold writes of a transaction that was never committed, so a database found open
 * (status 1) is reported corrupt ({@link TaskCorruptedException}) and Kafka Streams wipes and
 * restores it, as it does for its RocksDB store; under at-least-once the prefix is kept and
 * replaying the changelog from the offsets repairs it.
 *
 * <p>Thread safety: writes come from the task's stream thread; reads (interactive queries) may
 * run concurrently, which the database allows. Opening, committing and closing are
 * synchronized. Lifetime: {@link #close()} closes the iterators still open, then the database.
 */
final class StoreDatabase implements Closeable {
    /** What the {@code format} key holds. */
    static final String FORMAT = "leveldbj-kafka-store/1";
    /** The directory under the task's state directory that holds the stores' databases. */
    static final String PARENT_DIR = "leveldb";

    private static final byte META = 0x00;
    /** The namespace byte of the store's data keys. */
    static final byte DATA = 0x01;
    private static final byte[] FORMAT_KEY = metaKey("format");
    private static final byte[] STATUS_KEY = metaKey("status");
    private static final byte[] POSITION_KEY = metaKey("position");
    private static final String OFFSET_PREFIX = "offset/";
    private static final String STORE_META_PREFIX = "store/";
    private static final byte[] OPEN = {1};
    private static final byte[] CLOSED = {0};
    /** Writes skip the write-ahead log: the changelog topic is the store's log. */
    private static final WriteOptions UNLOGGED = new WriteOptions().disableWal(true);
    private static final Range DATA_RANGE = new Range(new byte[] {DATA}, new byte[] {DATA + 1});

    private final String name;
    private final File directory;
    private final Options options;
    private final LeveldbConfigSetter configSetter;
    private final StateStoreContext context;
    private final Position position;
    private final boolean consistencyEnabled;
    private final Set<Closeable> openIterators = Collections.newSetFromMap(new IdentityHashMap<>());
    private final Map<String, Supplier<byte[]>> keptAtCommit = new java.util.concurrent.ConcurrentHashMap<>();
    private volatile ExtendedDB db;
    /** Whether data was written since the last commit (a commit that changes nothing is skipped). */
    private volatile boolean dirty = true;
    /** The offsets of the last commit, {@code null} before the first. */
    private Map<TopicPartition, Long> lastCommitted;
    /**
     * The sorted run of restoration ({@link SortedRestore}), while the store's data came only
     * from it; {@code null} once anything else wrote data or a record broke the order.
     */
    private volatile SortedRestore sorted;

    private StoreDatabase(String name, File directory, Options options, LeveldbConfigSetter configSetter,
                          StateStoreContext context, ExtendedDB db, Position position, boolean empty) {
        this.name = name;
        this.directory = directory;
        this.options = options;
        this.configSetter = configSetter;
        this.context = context;
        this.db = db;
        this.position = position;
        this.consistencyEnabled = StreamsConfig.InternalConfig.getBoolean(context.appConfigs(),
                StreamsConfig.InternalConfig.IQ_CONSISTENCY_OFFSET_VECTOR_ENABLED, false);
        File runDir = new File(directory.getParentFile(), name + ".restore");
        Env env = options.env() != null ? options.env() : FileSystemEnv.getDefault();
        if (empty) {
            this.sorted = new SortedRestore(db, env, runDir);
        } else {
            SortedRestore.clear(env, runDir);
        }
    }

    /**
     * Opens (creating if needed) a store's database in the task's state directory, with the
     * options of the application's {@link LeveldbConfigSetter}, and marks it open.
     *
     * @param name the store's name
     * @param context the store's context
     * @param storeOptions what the store itself sets on the options before the application's
     *     config setter sees them (a compaction filter, say); may do nothing. A compaction filter
     *     the config setter sets runs after the store's, on data keys only
     *     ({@link StoreCompactionFilter})
     * @return the open database
     * @throws TaskCorruptedException under exactly-once, when the database was not closed
     *     cleanly, or when it was not written by this layout
     * @throws ProcessorStateException when the database cannot be opened
     */
    static StoreDatabase open(String name, StateStoreContext context, Consumer<Options> storeOptions) {
        Map<String, Object> configs = context.appConfigs();
        Options options = new Options().createIfMissing(true);
        storeOptions.accept(options);
        CompactionFilter storeFilter = options.compactionFilter();
        LeveldbConfigSetter configSetter = LeveldbConfigSetter.from(configs);
        if (configSetter != null) {
            configSetter.setConfig(name, options, configs);
        }
        CompactionFilter applicationFilter = options.compactionFilter() == storeFilter ? null : options.compactionFilter();
        options.compactionFilter(StoreCompactionFilter.of(storeFilter, applicationFilter));
        File directory = new File(new File(context.stateDir(), PARENT_DIR), name);
        ExtendedDB db;
        try {
            Files.createDirectories(directory.getParentFile().toPath());
            db = LevelDbFactory.factory.open(directory, options);
        } catch (IOException | DBException e) {
            throw new ProcessorStateException("store " + name + ": cannot open its database in " + directory + ": "
                    + e.getMessage(), e);
        }
        try {
            boolean eos = StreamsConfig.EXACTLY_ONCE_V2.equals(configs.get(StreamsConfig.PROCESSING_GUARANTEE_CONFIG));
            Position position = checkState(name, context, db, eos);
            db.put(STATUS_KEY, OPEN, UNLOGGED);
            return new StoreDatabase(name, directory, options, configSetter, context, db, position, !hasData(db));
        } catch (RuntimeException e) {
            try {
                db.close();
            } catch (RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    /** Checks the format and status keys (writing the format key into a new database) and reads the position. */
    private static Position checkState(String name, StateStoreContext context, ExtendedDB db, boolean eos) {
        byte[] format = db.get(FORMAT_KEY);
        if (format == null) {
            if (hasAnyKey(db)) {
                throw new TaskCorruptedException(Set.of(context.taskId()), new ProcessorStateException("store " + name
                        + ": its database was not written by this store's layout (" + FORMAT
                        + "); it is restored from the changelog"));
            }
            db.put(FORMAT_KEY, FORMAT.getBytes(StandardCharsets.US_ASCII), UNLOGGED);
        } else if (!FORMAT.equals(new String(format, StandardCharsets.US_ASCII))) {
            throw new ProcessorStateException("store " + name + ": its database has the layout \""
                    + new String(format, StandardCharsets.US_ASCII) + "\", which this version cannot read (it reads "
                    + FORMAT + ")");
        }
        byte[] status = db.get(STATUS_KEY);
        if (eos && status != null && status[0] != 0) {
            throw new TaskCorruptedException(Set.of(context.taskId()), new ProcessorStateException("store " + name
                    + " was not closed cleanly, so under exactly-once it may hold uncommitted writes; it is restored"
                    + " from the changelog"));
        }
        byte[] stored = db.get(POSITION_KEY);
        return stored == null ? Position.emptyPosition() : PositionSerde.deserialize(ByteBuffer.wrap(stored));
    }

    private static boolean hasData(ExtendedDB db) {
        try (DBIterator it = db.iterator(new ReadOptions().iterateLowerBound(DATA_RANGE.start())
                .iterateUpperBound(DATA_RANGE.limit()))) {
            it.seekToFirst();
            return it.hasNext();
        } catch (IOException e) {
            throw new ProcessorStateException("reading a store's database failed: " + e.getMessage(), e);
        }
    }

    private static boolean hasAnyKey(ExtendedDB db) {
        try (DBIterator it = db.iterator()) {
            it.seekToFirst();
            return it.hasNext();
        } catch (IOException e) {
            throw new ProcessorStateException("reading a store's database failed: " + e.getMessage(), e);
        }
    }

    private static byte[] metaKey(String name) {
        byte[] ascii = name.getBytes(StandardCharsets.US_ASCII);
        byte[] key = new byte[ascii.length + 1];
        key[0] = META;
        System.arraycopy(ascii, 0, key, 1, ascii.length);
        return key;
    }

    private static byte[] offsetKey(TopicPartition partition) {
        return metaKey(OFFSET_PREFIX + partition);
    }

    /**
     * @param key a store's key
     * @return the database key that holds it: the data namespace byte, then the key
     */
    static byte[] dataKey(byte[] key) {
        byte[] k = new byte[key.length + 1];
        k[0] = DATA;
        System.arraycopy(key, 0, k, 1, key.length);
        return k;
    }

    /**
     * @param name the name of a value the store keeps beside its data
     * @return the database key that holds it: the metadata namespace byte, then
     *     {@code store/<name>} in ASCII
     */
    static byte[] storeMetaKey(String name) {
        return metaKey(STORE_META_PREFIX + name);
    }


    /** @return the store's name */
    String name() {
        return name;
    }

    /** @return the directory of the database */
    File directory() {
        return directory;
    }

    private ExtendedDB openDb() {
        ExtendedDB d = db;
        if (d == null) {
            throw new InvalidStateStoreException("store " + name + " is not open");
        }
        return d;
    }

    /**
     * Ends the current sorted run of restoration, so that what it holds is in the database;
     * the next restored records may continue it.
     */
    private void sealSorted() {
        SortedRestore run = sorted;
        if (run != null) {
            try {
                run.seal();
            } catch (DBException e) {
                sorted = null;
                throw failure("ingesting restored records", e);
            }
        }
    }

    /** Ends sorted restoration for good: data is about to be written otherwise. */
    private void endSorted() {
        if (sorted != null) {
            sealSorted();
            sorted = null;
        }
    }

    /** @return whether the database is open */
    boolean isOpen() {
        return db != null;
    }

    /**
     * A failure of the engine, as Kafka Streams expects it.
     *
     * @param what what failed
     * @param e the engine's exception
     * @return the exception to throw
     */
    ProcessorStateException failure(String what, Exception e) {
        return new ProcessorStateException("store " + name + ": " + what + " failed: " + e.getMessage(), e);
    }

    /**
     * @param key a store's key
     * @return its value, or {@code null}
     */
    byte[] get(byte[] key) {
        sealSorted();
        try {
            return openDb().get(dataKey(key));
        } catch (DBException e) {
            throw failure("get", e);
        }
    }

    /**
     * Writes one key.
     *
     * @param key a store's key
     * @param value its value, or {@code null} to delete it
     */
    void put(byte[] key, byte[] value) {
        ExtendedDB d = openDb();
        endSorted();
        dirty = true;
        try {
            if (value == null) {
                d.delete(dataKey(key), UNLOGGED);
            } else {
                d.put(dataKey(key), value, UNLOGGED);
            }
        } catch (DBException e) {
            throw failure(value == null ? "delete" : "put", e);
        }
    }

    /** @return an empty batch of data writes, applied atomically by {@link Batch#write()} */
    Batch batch() {
        ExtendedDB d = openDb();
        endSorted();
        return new Batch(d.createWriteBatch(), false);
    }

    /** Writes to a store's data, applied atomically; must be closed. */
    final class Batch implements AutoCloseable {
        private final WriteBatch batch;
        /** Whether writes go to the sorted run of restoration while they can. */
        private boolean toSortedRun;
        private int size;

        private Batch(WriteBatch batch, boolean toSortedRun) {
            this.batch = batch;
            this.toSortedRun = toSortedRun;
        }

        /**
         * @param key a store's key
         * @param value its value, or {@code null} to delete it
         * @return this
         */
        Batch put(byte[] key, byte[] value) {
            byte[] dataKey = dataKey(key);
            if (toSortedRun) {
                SortedRestore run = sorted;
                dirty = true;
                if (run != null && run.add(dataKey, value)) {
                    return this;
                }
                toSortedRun = false;
                endSorted();
            }
            if (value == null) {
                batch.delete(dataKey);
            } else {
                batch.put(dataKey, value);
            }
            size++;
            return this;
        }

        /** @return how many writes the batch holds */
        int size() {
            return size;
        }

        /** Applies the batch. */
        void write() {
            if (size == 0) {
                return;
            }
            dirty = true;
            try {
                openDb().write(batch, UNLOGGED);
            } catch (DBException e) {
                throw failure("writing a batch of " + size, e);
            }
        }

        @Override
        public void close() {
            try {
                batch.close();
            } catch (IOException e) {
                throw failure("releasing a batch", e);
            }
        }
    }

    /**
     * An iterator over the store's data, on a consistent view, tracked so that closing the store
     * closes it.
     *
     * @return a new iterator, unpositioned
     */
    DataIterator iterator() {
        ExtendedDB d = openDb();
        sealSorted();
        DataIterator it;
        try {
            it = new DataIterator(this, d.iterator(new ReadOptions()
                    .iterateLowerBound(DATA_RANGE.start()).iterateUpperBound(DATA_RANGE.limit())));
        } catch (DBException e) {
            throw failure("opening an iterator", e);
        }
        synchronized (openIterators) {
            openIterators.add(it);
        }
        return it;
    }

    /**
     * An iterator over the store's data keys in {@code [lower, upper)}, on a consistent view,
     * tracked so that closing the store closes it.
     *
     * @param lower the smallest store key shown
     * @param upper the store key above every key shown
     * @return a new iterator, on the first key shown
     */
    DataIterator iterator(byte[] lower, byte[] upper) {
        ExtendedDB d = openDb();
        DataIterator it;
        try {
            it = new DataIterator(this, d.iterator(new ReadOptions()
                    .iterateLowerBound(dataKey(lower)).iterateUpperBound(dataKey(upper))));
        } catch (DBException e) {
            throw failure("opening an iterator", e);
        }
        synchronized (openIterators) {
            openIterators.add(it);
        }
        return it;
    }

    /** @return an empty batch of data writes that reads through to the database before it is written */
    ReadableBatch readableBatch() {
        return new ReadableBatch(openDb().createWriteBatchWithIndex());
    }

    /**
     * Writes to a store's data that can be read before they are applied: reads see the batch's
     * writes over the database's data. Applied atomically by {@link #write()}; must be closed.
     * Thread safety: one thread.
     */
    final class ReadableBatch implements AutoCloseable {
        private final WriteBatchWithIndex batch;
        private int size;

        private ReadableBatch(WriteBatchWithIndex batch) {
            this.batch = batch;
        }

        /**
         * @param key a store's key
         * @return its value as the batch would leave it, or {@code null}
         */
        byte[] get(byte[] key) {
            try {
                return batch.get(openDb(), new ReadOptions(), dataKey(key));
            } catch (DBException e) {
                throw failure("get", e);
            }
        }

        /**
         * An iterator over the data as the batch would leave it; it sees the batch's later writes
         * only where they do not matter to its scan (see {@link WriteBatchWithIndex}). The bounds
         * are a hint: the batch's own writes outside them may show, so callers check the keys
         * they read.
         *
         * @param lower the smallest store key shown
         * @param upper the store key above every key shown
         * @return a new iterator, on the first key shown
         */
        DataIterator iterator(byte[] lower, byte[] upper) {
            DataIterator it;
            try {
                it = new DataIterator(StoreDatabase.this, batch.iterator(openDb(),
                        new ReadOptions().iterateLowerBound(dataKey(lower)).iterateUpperBound(dataKey(upper))));
            } catch (DBException e) {
                throw failure("opening an iterator", e);
            }
            synchronized (openIterators) {
                openIterators.add(it);
            }
            return it;
        }

        /**
         * @param key a store's key
         * @param value its value, or {@code null} to delete it
         */
        void put(byte[] key, byte[] value) {
            if (value == null) {
                batch.delete(dataKey(key));
            } else {
                batch.put(dataKey(key), value);
            }
            size++;
        }

        /** @return how many writes the batch holds */
        int size() {
            return size;
        }

        /** Applies the batch. */
        void write() {
            dirty = true;
            try {
                openDb().write(batch, UNLOGGED);
            } catch (DBException e) {
                throw failure("writing a batch of " + size, e);
            }
        }

        @Override
        public void close() {
            batch.close();
        }
    }

    /**
     * Applies a batch of changelog records through one {@link ReadableBatch}, so that each
     * record's writes may depend on what earlier records of the batch wrote; one atomic write.
     * A record the mapper skips leaves the position as it was, as Kafka's versioned store does
     * for records older than its grace period.
     *
     * @param records the records, in changelog order
     * @param mapper what a record writes
     */
    void restoreReading(Collection<ConsumerRecord<byte[], byte[]>> records, ReadingRestoreMapper mapper) {
        try (ReadableBatch batch = readableBatch()) {
            for (ConsumerRecord<byte[], byte[]> r : records) {
                if (mapper.skip(r)) {
                    continue;
                }
                ChangelogRecordDeserializationHelper.applyChecksAndUpdatePosition(r, consistencyEnabled, position);
                mapper.apply(r, batch);
            }
            batch.write();
        }
    }

    /** What one changelog record writes into a store's data, reading what is there. */
    interface ReadingRestoreMapper {
        /**
         * @param record a changelog record
         * @return whether to leave it out (its position is not recorded either)
         */
        boolean skip(ConsumerRecord<byte[], byte[]> record);

        /**
         * @param record a changelog record
         * @param batch the batch to read from and add its writes to
         */
        void apply(ConsumerRecord<byte[], byte[]> record, ReadableBatch batch);
    }

    /**
     * Compacts the whole database, metadata and data, so that the compaction filter (if the
     * store set one) sees every entry it may see, the store's metadata first (see
     * {@code CompactionFilter}).
     */
    void compact() {
        try {
            openDb().compactRange(null, null);
        } catch (DBException e) {
            throw failure("compacting", e);
        }
    }

    void untrack(Closeable it) {
        synchronized (openIterators) {
            openIterators.remove(it);
        }
    }

    /**
     * Applies a batch of changelog records, each turned into writes by {@code mapper}, updating
     * the position from their headers; one atomic batch.
     *
     * @param records the records, in changelog order
     * @param mapper what a record writes
     */
    void restore(Collection<ConsumerRecord<byte[], byte[]>> records, RestoreMapper mapper) {
        try (Batch batch = new Batch(openDb().createWriteBatch(), sorted != null)) {
            for (ConsumerRecord<byte[], byte[]> r : records) {
                ChangelogRecordDeserializationHelper.applyChecksAndUpdatePosition(r, consistencyEnabled, position);
                mapper.apply(r, batch);
            }
            batch.write();
        }
    }

    /** What one changelog record writes into a store's data. */
    @FunctionalInterface
    interface RestoreMapper {
        /**
         * @param record a changelog record
         * @param batch the batch to add its writes to
         */
        void apply(ConsumerRecord<byte[], byte[]> record, Batch batch);
    }

    /** @return the store's position, updated in place by writes and restoration */
    Position position() {
        return position;
    }

    /** Records the current record's offset in the position, after a write. */
    void updatePosition() {
        StoreQueryUtils.updatePosition(position, context);
    }

    /**
     * Stores the committed changelog offsets and the position, in one batch after the data they
     * cover; flushes nothing (see the class description).
     *
     * <p>A commit that would write what the last one wrote (no data written since, the same
     * offsets) writes nothing: Kafka Streams commits every store of a task at once, and most
     * of them have not changed.
     *
     * @param offsets offsets to store ({@code null} values remove one); an empty map removes
     *     every stored offset, as Kafka Streams asks when the store's offsets are no longer valid
     */
    synchronized void commit(Map<TopicPartition, Long> offsets) {
        ExtendedDB d = openDb();
        if (!dirty && offsets.equals(lastCommitted)) {
            return;
        }
        sealSorted();
        try (WriteBatch batch = d.createWriteBatch()) {
            if (offsets.isEmpty()) {
                for (byte[] key : storedOffsetKeys(d)) {
                    batch.delete(key);
                }
            }
            for (Map.Entry<TopicPartition, Long> e : offsets.entrySet()) {
                if (e.getValue() == null) {
                    batch.delete(offsetKey(e.getKey()));
                } else {
                    batch.put(offsetKey(e.getKey()), ByteBuffer.allocate(Long.BYTES).putLong(0, e.getValue()).array());
                }
            }
            batch.put(POSITION_KEY, positionBytes());
            putKept(batch);
            d.write(batch, UNLOGGED);
            lastCommitted = new java.util.HashMap<>(offsets);
            dirty = false;
        } catch (IOException | DBException e) {
            throw failure("commit", e);
        }
    }

    private void putKept(WriteBatch batch) {
        for (Map.Entry<String, Supplier<byte[]>> e : keptAtCommit.entrySet()) {
            byte[] value = e.getValue().get();
            if (value != null) {
                batch.put(storeMetaKey(e.getKey()), value);
            }
        }
    }

    /**
     * Keeps a value of the store's own (its observed stream time, say) in the metadata, written
     * in the same batch as the offsets at every {@link #commit} and at {@link #close()}, so that
     * after a crash it is the value as of the offsets (restoring the changelog from them brings
     * it up to date).
     *
     * @param key the value's name (ASCII)
     * @param value what to write, read at each commit; {@code null} writes nothing
     */
    void keepAtCommit(String key, Supplier<byte[]> value) {
        keptAtCommit.put(key, value);
    }

    /**
     * @param key the name of a value kept by {@link #keepAtCommit}
     * @return the value last written under it, or {@code null}
     */
    byte[] kept(String key) {
        try {
            return openDb().get(storeMetaKey(key));
        } catch (DBException e) {
            throw failure("reading " + key, e);
        }
    }

    /**
     * Compacts the stored data between two data keys (inclusive), in the calling thread: with
     * a compaction filter, the filter sees every entry of the range (see
     * {@code CompactionFilter}), so this is how a store reclaims the space of data its filter
     * drops.
     *
     * @param from the first data key (without the namespace byte)
     * @param to the last data key (without the namespace byte)
     */
    void compactData(byte[] from, byte[] to) {
        try {
            openDb().compactRange(dataKey(from), dataKey(to));
        } catch (DBException e) {
            throw failure("compacting", e);
        }
    }

    /**
     * The approximate bytes stored between two data keys, in table files.
     *
     * @param from the first data key (without the namespace byte)
     * @param to the data key after the range (without the namespace byte)
     * @return the bytes
     */
    long approximateDataBytes(byte[] from, byte[] to) {
        try {
            return openDb().getApproximateSizes(new Range(dataKey(from), dataKey(to)))[0];
        } catch (DBException e) {
            throw failure("estimating sizes", e);
        }
    }

    private byte[] positionBytes() {
        ByteBuffer b = PositionSerde.serialize(position);
        byte[] bytes = new byte[b.remaining()];
        b.get(bytes);
        return bytes;
    }

    private static List<byte[]> storedOffsetKeys(ExtendedDB d) throws IOException {
        byte[] prefix = metaKey(OFFSET_PREFIX);
        List<byte[]> keys = new ArrayList<>();
        try (DBIterator it = d.prefixIterator(prefix, new ReadOptions())) {
            while (it.hasNext()) {
                keys.add(it.next().getKey());
            }
        }
        return keys;
    }

    /**
     * @param partition a changelog partition
     * @return the offset last committed for it, or {@code null}
     */
    Long committedOffset(TopicPartition partition) {
        try {
            byte[] stored = openDb().get(offsetKey(partition));
            return stored == null ? null : ByteBuffer.wrap(stored).getLong();
        } catch (DBException e) {
            throw failure("reading the committed offset of " + partition, e);
        }
    }

    /**
     * An estimate of the number of data entries: exact while the store holds at most
     * {@value #EXACT_COUNT_LIMIT}, otherwise the database's own estimate for the data namespace.
     *
     * @return the estimate
     */
    long approximateNumEntries() {
        ExtendedDB d = openDb();
        sealSorted();
        return EntryCount.estimate(this, d, DATA_RANGE);
    }

    /** Up to how many entries {@link #approximateNumEntries()} counts exactly. */
    static final int EXACT_COUNT_LIMIT = EntryCount.EXACT_LIMIT;

    /**
     * A numeric property of the database, for metrics.
     *
     * @param property the property's name
     * @return its value, or 0 when the store is closed or the database has no such property
     */
    long longProperty(String property) {
        ExtendedDB d = db;
        if (d == null) {
            return 0;
        }
        try {
            String value = d.getProperty(property);
            return value == null ? 0 : Long.parseLong(value);
        } catch (DBException e) {
            return 0; // closed meanwhile
        }
    }

    /** @return the approximate bytes of the data in table files, 0 when the store is closed */
    long tableBytes() {
        ExtendedDB d = db;
        if (d == null) {
            return 0;
        }
        try {
            return d.getApproximateSizes(DATA_RANGE)[0];
        } catch (DBException e) {
            return 0;
        }
    }

    /**
     * Closes the iterators still open, marks the store closed cleanly with its position, and
     * closes the database (which keeps every write). Idempotent.
     */
    @Override
    public synchronized void close() {
        ExtendedDB d = db;
        if (d == null) {
            return;
        }
        SortedRestore run = sorted;
        sorted = null;
        if (run != null) {
            try {
                run.seal();
            } catch (DBException e) {
                run.abandon(); // the changelog restores those records again: no commit covered them
            }
        }
        db = null;
        List<Closeable> toClose;
        synchronized (openIterators) {
            toClose = new ArrayList<>(openIterators);
            openIterators.clear();
        }
        for (Closeable it : toClose) {
            try {
                it.close();
            } catch (IOException | RuntimeException e) {
                // the store is closing anyway; the database reports what matters
            }
        }
        try (WriteBatch batch = d.createWriteBatch()) {
            batch.put(POSITION_KEY, positionBytes());
            putKept(batch);
            batch.put(STATUS_KEY, CLOSED);
            d.write(batch, UNLOGGED);
        } catch (IOException | DBException e) {
            closeQuietly(d, e);
            throw failure("close", e);
        }
        try {
            d.close();
        } catch (DBException e) {
            throw failure("close", e);
        } finally {
            if (configSetter != null) {
                configSetter.close(name, options);
            }
        }
    }

    private void closeQuietly(ExtendedDB d, Exception cause) {
        try {
            d.close();
        } catch (RuntimeException e) {
            cause.addSuppressed(e);
        } finally {
            if (configSetter != null) {
                configSetter.close(name, options);
            }
        }
    }
}
