package org.leveldbj.kafka.streams;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.errors.ProcessorStateException;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.processor.internals.ChangelogRecordDeserializationHelper;
import org.apache.kafka.streams.processor.internals.RecordBatchingStateRestoreCallback;
import org.apache.kafka.streams.query.Position;
import org.apache.kafka.streams.query.PositionBound;
import org.apache.kafka.streams.query.Query;
import org.apache.kafka.streams.query.QueryConfig;
import org.apache.kafka.streams.query.QueryResult;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.internals.OffsetCheckpoint;
import org.apache.kafka.streams.state.internals.StoreQueryUtils;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.ExtendedDB;
import org.iq80.leveldb.DBException;
import org.iq80.leveldb.Options;
import org.iq80.leveldb.Range;
import org.iq80.leveldb.ReadOptions;
import org.iq80.leveldb.WriteBatch;
import org.iq80.leveldb.WriteOptions;
import org.leveldbj.db.LevelDbFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A persistent Kafka Streams key-value store on one leveldbj database: the byte-level store that
 * {@code Stores.keyValueStoreBuilder} and {@code Materialized.as(supplier)} wrap with serdes,
 * caching, change logging and metrics, in place of Kafka's RocksDB store.
 *
 * <p>Layout: the database lives in {@code <state dir>/leveldb/<store name>} (RocksDB's store
 * uses {@code rocksdb/<name>}), its position for interactive queries in
 * {@code <state dir>/<store name>.position}. Keys and values are stored as given; a
 * {@code null} value deletes.
 *
 * <p>Contract (Kafka's {@code KeyValueStore}): {@code putAll} is one atomic batch; ranges are
 * inclusive at both ends, {@code null} bounds are open, and a range whose lower bound is above
 * its upper bound is empty (with a warning, as Kafka's stores); {@code prefixScan} returns the
 * keys starting with the serialized prefix in key order. Iterators read a consistent snapshot
 * and must be closed; closing the store closes them. Every method but {@link #close()},
 * {@link #name()}, {@link #persistent()} and {@link #isOpen()} throws
 * {@link InvalidStateStoreException} when the store is not open. Engine failures surface as
 * {@link ProcessorStateException}s naming the store.
 *
 * <p>Durability: writes skip the database's write-ahead log, as RocksDB's store skips its own:
 * the changelog topic is the store's log. {@link #commit}, called at each Kafka Streams commit
 * before it checkpoints the changelog offsets, writes the memtable to a table, and closing does
 * too; after a crash, Kafka Streams restores what came after the checkpoint from the changelog.
 * The position file is written at each commit and at close. Restoration from the changelog writes each restored batch as one database
 * batch. Interactive queries ({@link #query}) answer {@code KeyQuery} and {@code RangeQuery}
 * with position tracking and {@code PositionBound}, as Kafka's RocksDB store does.
 *
 * <p>Metrics: the store's sizes, memtable bytes, files and compaction work are gauges in Kafka
 * Streams' metrics (see {@link StoreMetrics}).
 *
 * <p>Thread safety: Kafka Streams uses a store from its task's stream thread; interactive
 * queries may read concurrently, which the database allows.
 */
public class LeveldbKeyValueStore implements KeyValueStore<Bytes, byte[]> {
    private static final Logger LOG = LoggerFactory.getLogger(LeveldbKeyValueStore.class);
    /** The directory under the task's state directory that holds the stores' databases. */
    static final String PARENT_DIR = "leveldb";
    /** Writes skip the write-ahead log: the changelog topic is the store's log (RocksDB's store does the same). */
    private static final WriteOptions UNLOGGED = new WriteOptions().disableWal(true);
    /** Every key of up to 64 bytes, for size estimates. */
    private static final Range ALL_KEYS = new Range(new byte[0], allFf(64));

    private final String name;
    private final Set<StoreIterator> openIterators = Collections.newSetFromMap(new IdentityHashMap<>());
    private volatile ExtendedDB db;
    private File dbDir;
    private Options options;
    private LeveldbConfigSetter configSetter;
    private StateStoreContext context;
    private Position position = Position.emptyPosition();
    private OffsetCheckpoint positionCheckpoint;
    private boolean consistencyEnabled;
    private StoreMetrics metrics;

    /**
     * @param name the store's name
     */
    public LeveldbKeyValueStore(String name) {
        this.name = Objects.requireNonNull(name, "name");
    }

    private static byte[] allFf(int n) {
        byte[] b = new byte[n];
        Arrays.fill(b, (byte) 0xff);
        return b;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public void init(StateStoreContext context, StateStore root) {
        if (db != null) {
            throw new IllegalStateException("store " + name + " is already open");
        }
        this.context = context;
        Map<String, Object> configs = context.appConfigs();
        options = new Options().createIfMissing(true);
        configSetter = configSetter(configs);
        if (configSetter != null) {
            configSetter.setConfig(name, options, configs);
        }
        dbDir = new File(new File(context.stateDir(), PARENT_DIR), name);
        try {
            Files.createDirectories(dbDir.getParentFile().toPath());
            db = LevelDbFactory.factory.open(dbDir, options);
        } catch (IOException | DBException e) {
            throw new ProcessorStateException("store " + name + ": cannot open its database in " + dbDir + ": " + e.getMessage(), e);
        }
        positionCheckpoint = new OffsetCheckpoint(new File(context.stateDir(), name + ".position"));
        position = StoreQueryUtils.readPositionFromCheckpoint(positionCheckpoint);
        consistencyEnabled = StreamsConfig.InternalConfig.getBoolean(configs,
                StreamsConfig.InternalConfig.IQ_CONSISTENCY_OFFSET_VECTOR_ENABLED, false);
        context.register(root, (RecordBatchingStateRestoreCallback) this::restoreBatch, this::checkpointPosition);
        metrics = StoreMetrics.register(context, this);
    }

    private LeveldbConfigSetter configSetter(Map<String, Object> configs) {
        Object setting = configs.get(LeveldbConfigSetter.CONFIG);
        if (setting == null) {
            return null;
        }
        try {
            if (setting instanceof LeveldbConfigSetter s) {
                return s;
            }
            Class<?> type = setting instanceof Class<?> c ? c : Class.forName(setting.toString().trim(), true,
                    Thread.currentThread().getContextClassLoader() != null
                            ? Thread.currentThread().getContextClassLoader() : getClass().getClassLoader());
            return (LeveldbConfigSetter) type.getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException | ClassCastException e) {
            throw new ProcessorStateException(LeveldbConfigSetter.CONFIG + " = " + setting
                    + ": not a LeveldbConfigSetter with a public no-argument constructor (" + e + ")", e);
        }
    }

    /** Writes a batch of changelog records, updating the position from their headers. */
    void restoreBatch(Collection<ConsumerRecord<byte[], byte[]>> records) {
        DB d = openDb();
        try (WriteBatch batch = d.createWriteBatch()) {
            for (ConsumerRecord<byte[], byte[]> r : records) {
                ChangelogRecordDeserializationHelper.applyChecksAndUpdatePosition(r, consistencyEnabled, position);
                if (r.value() == null) {
                    batch.delete(r.key());
                } else {
                    batch.put(r.key(), r.value());
                }
            }
            d.write(batch, UNLOGGED);
        } catch (IOException | DBException e) {
            throw failure("restoring " + records.size() + " records", e);
        }
    }

    private ExtendedDB openDb() {
        ExtendedDB d = db;
        if (d == null) {
            throw new InvalidStateStoreException("store " + name + " is not open");
        }
        return d;
    }

    private ProcessorStateException failure(String what, Exception e) {
        return new ProcessorStateException("store " + name + ": " + what + " failed: " + e.getMessage(), e);
    }

    @Override
    public synchronized void put(Bytes key, byte[] value) {
        Objects.requireNonNull(key, "key");
        DB d = openDb();
        try {
            if (value == null) {
                d.delete(key.get(), UNLOGGED);
            } else {
                d.put(key.get(), value, UNLOGGED);
            }
        } catch (DBException e) {
            throw failure("put", e);
        }
        StoreQueryUtils.updatePosition(position, context);
    }

    @Override
    public synchronized byte[] putIfAbsent(Bytes key, byte[] value) {
        Objects.requireNonNull(key, "key");
        byte[] existing = get(key);
        if (existing == null) {
            put(key, value);
        }
        return existing;
    }

    @Override
    public synchronized void putAll(List<KeyValue<Bytes, byte[]>> entries) {
        DB d = openDb();
        try (WriteBatch batch = d.createWriteBatch()) {
            for (KeyValue<Bytes, byte[]> e : entries) {
                Objects.requireNonNull(e.key, "key");
                if (e.value == null) {
                    batch.delete(e.key.get());
                } else {
                    batch.put(e.key.get(), e.value);
                }
            }
            d.write(batch, UNLOGGED);
        } catch (IOException | DBException e) {
            throw failure("putAll of " + entries.size() + " entries", e);
        }
        StoreQueryUtils.updatePosition(position, context);
    }

    @Override
    public synchronized byte[] delete(Bytes key) {
        Objects.requireNonNull(key, "key");
        byte[] old = get(key);
        put(key, null);
        return old;
    }

    @Override
    public byte[] get(Bytes key) {
        Objects.requireNonNull(key, "key");
        try {
            return openDb().get(key.get());
        } catch (DBException e) {
            throw failure("get", e);
        }
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> range(Bytes from, Bytes to) {
        return iterator(from, to, true);
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> reverseRange(Bytes from, Bytes to) {
        return iterator(from, to, false);
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> all() {
        return iterator(null, null, true);
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> reverseAll() {
        return iterator(null, null, false);
    }

    @Override
    public <PS extends Serializer<P>, P> KeyValueIterator<Bytes, byte[]> prefixScan(P prefix, PS prefixKeySerializer) {
        Objects.requireNonNull(prefix, "prefix");
        Objects.requireNonNull(prefixKeySerializer, "prefixKeySerializer");
        byte[] start = prefixKeySerializer.serialize(null, prefix);
        return prefixIterator(start, prefixEnd(start));
    }

    /**
     * The smallest key above every key that starts with {@code prefix}: the prefix up to its last
     * byte below 0xff, that byte incremented; {@code null} when there is none (all 0xff).
     */
    static Bytes prefixEnd(byte[] prefix) {
        for (int i = prefix.length - 1; i >= 0; i--) {
            if (prefix[i] != (byte) 0xff) {
                byte[] end = Arrays.copyOf(prefix, i + 1);
                end[i]++;
                return Bytes.wrap(end);
            }
        }
        return null;
    }

    private KeyValueIterator<Bytes, byte[]> prefixIterator(byte[] start, Bytes upperExclusive) {
        StoreIterator it = iterator(Bytes.wrap(start), null, true);
        return new KeyValueIterator<>() {
            @Override
            public boolean hasNext() {
                return it.hasNext() && (upperExclusive == null || it.peekNextKey().compareTo(upperExclusive) < 0);
            }

            @Override
            public KeyValue<Bytes, byte[]> next() {
                if (!hasNext()) {
                    throw new NoSuchElementException("no more keys with the prefix in store " + name);
                }
                return it.next();
            }

            @Override
            public Bytes peekNextKey() {
                if (!hasNext()) {
                    throw new NoSuchElementException("no more keys with the prefix in store " + name);
                }
                return it.peekNextKey();
            }

            @Override
            public void close() {
                it.close();
            }
        };
    }

    private StoreIterator iterator(Bytes from, Bytes to, boolean forward) {
        DB d = openDb();
        byte[] lower = from == null ? null : from.get();
        byte[] upper = to == null ? null : to.get();
        boolean empty = lower != null && upper != null && from.compareTo(to) > 0;
        if (empty) {
            LOG.warn("Returning an empty iterator for store {}: the range's lower bound is above its upper bound "
                    + "(serdes whose byte order differs from the keys' order, or a wrong call)", name);
        }
        StoreIterator it;
        try {
            it = new StoreIterator(this, d.iterator(new ReadOptions()), lower, upper, forward, empty);
        } catch (DBException e) {
            throw failure("opening an iterator", e);
        }
        synchronized (openIterators) {
            openIterators.add(it);
        }
        return it;
    }

    void iteratorClosed(StoreIterator it) {
        synchronized (openIterators) {
            openIterators.remove(it);
        }
    }

    /**
     * An estimate of the number of entries: the database's bytes on disk and in its memtables
     * divided by the average size of the first entries (up to 1,000), or the exact count when the
     * store holds no more than those. Not exact, as Kafka allows.
     */
    @Override
    public long approximateNumEntries() {
        DB d = openDb();
        long sampled = 0;
        long sampleBytes = 0;
        try (var it = d.iterator()) {
            it.seekToFirst();
            while (it.hasNext() && sampled < 1000) {
                Map.Entry<byte[], byte[]> e = it.next();
                sampled++;
                sampleBytes += e.getKey().length + e.getValue().length;
            }
            if (!it.hasNext()) {
                return sampled;
            }
        } catch (IOException | DBException e) {
            throw failure("counting entries", e);
        }
        long stored = d.getApproximateSizes(ALL_KEYS)[0];
        String memory = d.getProperty("leveldb.approximate-memory-usage");
        long bytes = stored + (memory == null ? 0 : Long.parseLong(memory) / 2);
        double average = Math.max(1.0, (double) sampleBytes / sampled);
        return Math.max(sampled, (long) (bytes / average));
    }

    /**
     * Writes the memtable to a table at a Kafka Streams commit: the store writes without the
     * write-ahead log, so this is what makes the writes up to the commit (whose changelog offsets
     * Kafka Streams then checkpoints) survive a crash. Also writes the position file.
     *
     * @param changelogOffsets the changelog offsets Kafka Streams records (the store keeps none)
     */
    @Override
    public synchronized void commit(Map<TopicPartition, Long> changelogOffsets) {
        ExtendedDB d = openDb();
        try {
            d.flushMemTable();
        } catch (DBException e) {
            throw failure("commit", e);
        }
        checkpointPosition();
    }

    /** Writes the position file, so that a reopened store answers position bounds at once. */
    private void checkpointPosition() {
        StoreQueryUtils.checkpointPosition(positionCheckpoint, position);
    }

    @Override
    public synchronized void close() {
        ExtendedDB d = db;
        if (d == null) {
            return;
        }
        db = null;
        List<StoreIterator> toClose;
        synchronized (openIterators) {
            toClose = new ArrayList<>(openIterators);
            openIterators.clear();
        }
        for (StoreIterator it : toClose) {
            it.closeWithStore();
        }
        if (metrics != null) {
            metrics.remove();
            metrics = null;
        }
        try {
            checkpointPosition();
            d.close();
        } catch (DBException e) {
            throw failure("close", e);
        } finally {
            if (configSetter != null) {
                configSetter.close(name, options);
            }
        }
    }

    @Override
    public boolean persistent() {
        return true;
    }

    @Override
    public boolean isOpen() {
        return db != null;
    }

    @Override
    public <R> QueryResult<R> query(Query<R> query, PositionBound positionBound, QueryConfig config) {
        return StoreQueryUtils.handleBasicQueries(query, positionBound, config, this, position, context);
    }

    @Override
    public Position getPosition() {
        return position;
    }

    /**
     * A numeric property of the database, for the store's metrics.
     *
     * @param property the property's name
     * @return its value, or 0 when the store is closed or the database has no such property
     */
    long longProperty(String property) {
        DB d = db;
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

    /** @return the approximate bytes of the database's table files, 0 when the store is closed */
    long tableBytes() {
        DB d = db;
        if (d == null) {
            return 0;
        }
        try {
            return d.getApproximateSizes(ALL_KEYS)[0];
        } catch (DBException e) {
            return 0;
        }
    }

    /** @return the directory of the store's database, once initialized */
    File databaseDirectory() {
        return dbDir;
    }
}
