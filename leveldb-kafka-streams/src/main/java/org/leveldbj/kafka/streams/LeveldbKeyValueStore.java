package org.leveldbj.kafka.streams;

import java.util.Collection;
import java.util.List;
import java.util.Objects;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.errors.ProcessorStateException;
import org.apache.kafka.streams.query.PositionBound;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A persistent Kafka Streams key-value store on one leveldbj database: the byte-level store that
 * {@code Stores.keyValueStoreBuilder} and {@code Materialized.as(supplier)} wrap with serdes,
 * caching, change logging and metrics, in place of Kafka's RocksDB store.
 *
 * <p>Layout: the database lives in {@code <state dir>/leveldb/<store name>} (RocksDB's store
 * uses {@code rocksdb/<name>}); the store's keys and values are its data, as given (see
 * {@link StoreDatabase} for the namespace byte before them and the metadata beside them). A
 * {@code null} value deletes.
 *
 * <p>Contract (Kafka's {@code KeyValueStore}): {@code putAll} is one atomic batch; ranges are
 * inclusive at both ends, {@code null} bounds are open, and a range whose lower bound is above
 * its upper bound is empty, with Kafka's own warning; {@code prefixScan} returns the keys
 * starting with the serialized prefix in key order. Iterators read a consistent snapshot, are
 * Kafka's {@code ManagedKeyValueIterator}s, and must be closed; closing the store closes them.
 * Every method but {@link #close()}, {@link #name()}, {@link #persistent()} and
 * {@link #isOpen()} throws {@link InvalidStateStoreException} when the store is not open. Engine
 * failures surface as {@link ProcessorStateException}s naming the store.
 *
 * <p>Offsets and durability: the store manages its changelog offsets ({@link #managesOffsets()}):
 * {@link #commit} writes them, with the position for interactive queries, into the database in
 * one batch after the data, without a flush, so a commit costs microseconds, and
 * {@link #committedOffset} reads them back after a restart or a crash (see
 * {@link StoreDatabase} for why that is exact). Restoration writes each restored batch of
 * changelog records as one database batch. Interactive queries ({@link #query}) answer
 * {@code KeyQuery} and {@code RangeQuery} with position tracking and {@code PositionBound}, as
 * Kafka's RocksDB store does.
 *
 * <p>Metrics: the store's sizes, memtable bytes, files and compaction work are gauges in Kafka
 * Streams' metrics (see {@link StoreMetrics}).
 *
 * <p>Thread safety: Kafka Streams uses a store from its task's stream thread; interactive
 * queries may read concurrently, which the database allows.
 */
public class LeveldbKeyValueStore extends DatabaseStore implements KeyValueStore<Bytes, byte[]> {
    private static final Logger LOG = LoggerFactory.getLogger(LeveldbKeyValueStore.class);
    /** Kafka's warning for a range whose lower bound is above its upper bound, word for word. */
    static final String INVALID_RANGE_WARNING = "Returning empty iterator for fetch with invalid key range: from > to. "
            + "This may be due to range arguments set in the wrong order, "
            + "or serdes that don't preserve ordering when lexicographically comparing the serialized bytes. "
            + "Note that the built-in numerical serdes do not follow this for negative numbers";

    /**
     * @param name the store's name
     */
    public LeveldbKeyValueStore(String name) {
        super(name);
    }

    /** Writes a batch of changelog records, updating the position from their headers. */
    @Override
    void restoreBatch(Collection<ConsumerRecord<byte[], byte[]>> records) {
        openDatabase().restore(records, (record, batch) -> batch.put(record.key(), record.value()));
    }

    @Override
    public synchronized void put(Bytes key, byte[] value) {
        Objects.requireNonNull(key, "key");
        StoreDatabase d = openDatabase();
        d.put(key.get(), value);
        d.updatePosition();
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
        StoreDatabase d = openDatabase();
        try (StoreDatabase.Batch batch = d.batch()) {
            for (KeyValue<Bytes, byte[]> e : entries) {
                Objects.requireNonNull(e.key, "key");
                batch.put(e.key.get(), e.value);
            }
            batch.write();
        }
        d.updatePosition();
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
        return openDatabase().get(key.get());
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
        Bytes end = prefixEnd(start);
        StoreIterator it = new StoreIterator(name(), openDatabase().iterator(), start, null, true, false);
        it.stopBefore(end);
        return it;
    }

    /**
     * The smallest key above every key that starts with {@code prefix}: the prefix up to its last
     * byte below 0xff, that byte incremented; {@code null} when there is none (all 0xff).
     */
    static Bytes prefixEnd(byte[] prefix) {
        for (int i = prefix.length - 1; i >= 0; i--) {
            if (prefix[i] != (byte) 0xff) {
                byte[] end = java.util.Arrays.copyOf(prefix, i + 1);
                end[i]++;
                return Bytes.wrap(end);
            }
        }
        return null;
    }

    private StoreIterator iterator(Bytes from, Bytes to, boolean forward) {
        StoreDatabase d = openDatabase();
        boolean empty = from != null && to != null && from.compareTo(to) > 0;
        if (empty) {
            LOG.warn(INVALID_RANGE_WARNING);
        }
        return new StoreIterator(name(), d.iterator(), from == null ? null : from.get(), to == null ? null : to.get(),
                forward, empty);
    }

    /**
     * The number of entries: exact while the store holds up to {@value EntryCount#EXACT_LIMIT},
     * otherwise the engine's estimate (see {@link EntryCount}), within a factor of two of the
     * true count when keys are not overwritten across many levels.
     */
    @Override
    public long approximateNumEntries() {
        return openDatabase().approximateNumEntries();
    }

}
