package org.leveldbj.kafka.streams;

import java.util.AbstractMap;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.errors.ProcessorStateException;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.processor.internals.metrics.StreamsMetricsImpl;
import org.apache.kafka.streams.processor.internals.metrics.TaskMetrics;
import org.apache.kafka.streams.query.PositionBound;
import org.apache.kafka.streams.query.Query;
import org.apache.kafka.streams.query.QueryConfig;
import org.apache.kafka.streams.query.QueryResult;
import org.apache.kafka.streams.query.ResultOrder;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.VersionedBytesStore;
import org.apache.kafka.streams.state.VersionedKeyValueStore;
import org.apache.kafka.streams.state.VersionedRecord;
import org.apache.kafka.streams.state.VersionedRecordIterator;
import org.apache.kafka.streams.state.internals.StoreQueryUtils;
import org.iq80.leveldb.Options;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A persistent versioned key-value store (Kafka's KIP-889) on one leveldbj database: the
 * byte-level store that {@code Stores.versionedKeyValueStoreBuilder} and the DSL's
 * {@code Materialized.as(supplier)} wrap with serdes, change logging and metrics, in place of
 * Kafka's RocksDB versioned store. Get one from
 * {@link LeveldbStores#persistentVersionedKeyValueStore(String, java.time.Duration)}.
 *
 * <p>Contract (Kafka's {@code VersionedKeyValueStore}, through {@link VersionedBytesStore}):
 * values are returned as Kafka's {@code ValueAndTimestamp} bytes (the version's timestamp, 8
 * bytes big-endian, then the value). {@link #put(Bytes, byte[], long)} adds a version (a
 * {@code null} value is a tombstone) and returns its validTo: the timestamp of the next newer
 * version, {@link VersionedKeyValueStore#PUT_RETURN_CODE_VALID_TO_UNDEFINED} when it is the
 * latest, or {@link VersionedKeyValueStore#PUT_RETURN_CODE_NOT_PUT} when its timestamp is older
 * than the observed stream time minus the history retention (the grace period equals the history
 * retention); a version at the timestamp of an existing one replaces it, except that a tombstone
 * at the latest value's own timestamp removes that value, as in Kafka's store, so that the key is
 * deleted from where the version before it ended. {@link #delete(Bytes, long)} puts a tombstone
 * and returns the version valid at its timestamp, or {@code null} (always {@code null}, and
 * nothing written, when the timestamp is older than the grace period). Timestamps may be any
 * {@code long}.
 * {@link #get(Bytes)} returns the latest version unless it is a tombstone;
 * {@link #get(Bytes, long)} returns the version valid at the given time, and for a time older
 * than stream time minus history retention only the latest version, if it started by then (the
 * latest version never expires). The key-value methods of {@code KeyValueStore}
 * ({@code put(key, value)}, ranges, {@code approximateNumEntries} and the like) throw
 * {@link UnsupportedOperationException}, as Kafka's versioned store does. Every other method but
 * {@link #close()}, {@link #name()}, {@link #persistent()} and {@link #isOpen()} throws
 * {@link InvalidStateStoreException} when the store is not open.
 *
 * <p>History retention: the observed stream time is the largest timestamp put or deleted (and
 * restored). Versions whose validTo is at or before stream time minus history retention are
 * expired: no read returns them, and a compaction filter ({@link VersionExpiryFilter}) removes
 * them from the database as compactions pass. The stream time is stored in the database at
 * every commit and close, so a reopened store goes on from it (Kafka's RocksDB store starts from
 * none after a restart, until records arrive, and so accepts writes older than its grace period
 * meanwhile; it also reads no replaced version again until a write reopens its segment).
 *
 * <p>Metrics: besides the store's gauges ({@link StoreMetrics}), a put or delete older than the
 * grace period counts in the task's {@code dropped-records} sensor, as with Kafka's store.
 *
 * <p>Interactive queries ({@link #query}): {@code VersionedKeyQuery} (latest, or as of a time)
 * and {@code MultiVersionedKeyQuery} (the value versions valid at some point in
 * {@code [fromTime, toTime]}: validFrom at or before toTime and validTo after fromTime, in
 * descending timestamp order unless ascending is asked for), with position tracking and
 * {@code PositionBound}, as Kafka's RocksDB versioned store answers them. Their iterators read a
 * consistent snapshot and must be closed; closing the store closes them. Unlike Kafka's store,
 * which drops expired versions a whole segment at a time and returns what its live segments
 * hold, a query never returns a version that expired.
 *
 * <p>Layout: one database per store, {@code <state dir>/leveldb/<store name>}; every version is
 * one entry, the latest ones keyed by the user key, the replaced ones by the user key and the
 * end of their validity (see {@link VersionLayout}), so {@code get(key)} is one point lookup,
 * {@code get(key, asOf)} one lookup plus one seek when asOf precedes the latest version, and a
 * put in time order one lookup and two writes in one batch. The
 * segment interval is accepted for compatibility with Kafka's factory and not used: there are no
 * segments.
 *
 * <p>Offsets and durability: as {@link LeveldbKeyValueStore} (see {@link StoreDatabase}): the
 * store manages its changelog offsets, a commit writes them with the position and the stream
 * time without a flush, and restoration applies each batch of changelog records (each record's
 * timestamp is its version's timestamp) as one database batch, read through as it fills.
 *
 * <p>Thread safety: Kafka Streams writes from its task's stream thread; interactive queries may
 * read concurrently. Writes and queries synchronize on the position, as Kafka's store does, so
 * that a query's position matches the data it read.
 */
public class LeveldbVersionedKeyValueStore extends DatabaseStore implements VersionedBytesStore {
    private static final Logger LOG = LoggerFactory.getLogger(LeveldbVersionedKeyValueStore.class);
    /** Kafka's observed stream time before any record. */
    private static final long NO_TIMESTAMP = ConsumerRecord.NO_TIMESTAMP;

    private final long historyRetention;
    private VersionExpiryFilter filter;
    /** The task's dropped-records sensor, or {@code null} on a context without Kafka's metrics. */
    private Sensor droppedRecords;
    /** Written by the stream thread under the position's lock; read by queries. */
    private volatile long observedStreamTime = NO_TIMESTAMP;

    /**
     * @param name the store's name
     * @param historyRetention how long old versions stay readable, in milliseconds (at least 0)
     */
    public LeveldbVersionedKeyValueStore(String name, long historyRetention) {
        super(name);
        if (historyRetention < 0) {
            throw new IllegalArgumentException("historyRetention cannot be negative");
        }
        this.historyRetention = historyRetention;
    }

    /** @return the history retention, in milliseconds */
    public long historyRetentionMs() {
        return historyRetention;
    }

    @Override
    Consumer<Options> engineOptions() {
        filter = new VersionExpiryFilter(name(), historyRetention);
        return options -> options.compactionFilter(filter);
    }

    @Override
    void opened(StoreDatabase d, StateStoreContext context) {
        long streamTime = storedStreamTime(d);
        filter.durable(streamTime); // every entry readable at open is in a table file
        observedStreamTime = streamTime;
        d.keepAtCommit(VersionExpiryFilter.STREAM_TIME, this::streamTimeBytes);
        droppedRecords = context.metrics() instanceof StreamsMetricsImpl impl
                ? TaskMetrics.droppedRecordsSensor(Thread.currentThread().getName(), context.taskId().toString(), impl)
                : null;
    }

    private long storedStreamTime(StoreDatabase d) {
        byte[] stored = d.kept(VersionExpiryFilter.STREAM_TIME);
        if (stored == null) {
            return NO_TIMESTAMP;
        }
        if (stored.length != Long.BYTES) {
            throw new ProcessorStateException("store " + name() + ": corrupt stream time entry in " + d.directory()
                    + ": " + stored.length + " bytes, not " + Long.BYTES);
        }
        return VersionLayout.getLong(stored, 0);
    }

    /** Counts a write older than the grace period in the task's dropped records, as Kafka's store does. */
    private void dropped() {
        if (droppedRecords != null) {
            droppedRecords.record();
        }
    }

    /** @return the observed stream time: the largest timestamp written, -1 before any */
    long observedStreamTime() {
        return observedStreamTime;
    }

    private boolean expired(long timestamp) {
        return timestamp < observedStreamTime - historyRetention;
    }

    /**
     * Writes a batch of changelog records: each a version at its record's timestamp (a
     * {@code null} value a tombstone), skipping those older than the grace period as they were
     * when first written, and advancing the stream time.
     */
    @Override
    void restoreBatch(Collection<ConsumerRecord<byte[], byte[]>> records) {
        StoreDatabase d = openDatabase();
        synchronized (getPosition()) {
            d.restoreReading(records, new StoreDatabase.ReadingRestoreMapper() {
                @Override
                public boolean skip(ConsumerRecord<byte[], byte[]> record) {
                    return expired(record.timestamp());
                }

                @Override
                public void apply(ConsumerRecord<byte[], byte[]> record, StoreDatabase.ReadableBatch batch) {
                    observedStreamTime = Math.max(observedStreamTime, record.timestamp());
                    VersionHistory.put(name(), batchView(batch), record.key(), record.value(), record.timestamp());
                }
            });
        }
    }

    @Override
    public long put(Bytes key, byte[] value, long timestamp) {
        Objects.requireNonNull(key, "key cannot be null");
        StoreDatabase d = openDatabase();
        synchronized (getPosition()) {
            if (expired(timestamp)) {
                dropped();
                LOG.warn("Skipping record for expired put.");
                StoreQueryUtils.updatePosition(getPosition(), context());
                return VersionedKeyValueStore.PUT_RETURN_CODE_NOT_PUT;
            }
            observedStreamTime = Math.max(observedStreamTime, timestamp);
            long validTo = write(d, key.get(), value, timestamp);
            StoreQueryUtils.updatePosition(getPosition(), context());
            return validTo;
        }
    }

    private long write(StoreDatabase d, byte[] key, byte[] value, long timestamp) {
        try (StoreDatabase.Batch batch = d.batch()) {
            long validTo = VersionHistory.put(name(), databaseView(d, batch), key, value, timestamp);
            batch.write();
            return validTo;
        }
    }

    @Override
    public byte[] delete(Bytes key, long timestamp) {
        Objects.requireNonNull(key, "key cannot be null");
        StoreDatabase d = openDatabase();
        synchronized (getPosition()) {
            if (expired(timestamp)) {
                dropped();
                LOG.warn("Skipping record for expired delete.");
                return null;
            }
            VersionHistory.Version existing = VersionHistory.asOf(name(), databaseView(d, null), key.get(), timestamp);
            observedStreamTime = Math.max(observedStreamTime, timestamp);
            write(d, key.get(), null, timestamp);
            StoreQueryUtils.updatePosition(getPosition(), context());
            return existing == null || existing.isTombstone() ? null : VersionLayout.valueAndTimestamp(existing.entry());
        }
    }

    @Override
    public byte[] get(Bytes key) {
        VersionHistory.Version v = latest(key);
        return v == null ? null : VersionLayout.valueAndTimestamp(v.entry());
    }

    @Override
    public byte[] get(Bytes key, long asOfTimestamp) {
        VersionHistory.Version v = version(key, asOfTimestamp);
        return v == null ? null : VersionLayout.valueAndTimestamp(v.entry());
    }

    /** The latest version if it is a value, else {@code null}. */
    private VersionHistory.Version latest(Bytes key) {
        Objects.requireNonNull(key, "key cannot be null");
        VersionHistory.Version v = VersionHistory.latest(name(), databaseView(openDatabase(), null), key.get());
        return v == null || v.isTombstone() ? null : v;
    }

    /** The value version valid at a time, under the history retention rule, else {@code null}. */
    private VersionHistory.Version version(Bytes key, long asOf) {
        Objects.requireNonNull(key, "key cannot be null");
        StoreDatabase d = openDatabase();
        if (expired(asOf)) {
            // Beyond history retention only the latest version, which never expires, answers.
            VersionHistory.Version latest = latest(key);
            if (latest != null && latest.validFrom() <= asOf) {
                return latest;
            }
            LOG.warn("Returning null for expired get.");
            return null;
        }
        VersionHistory.Version v = VersionHistory.asOf(name(), databaseView(d, null), key.get(), asOf);
        return v == null || v.isTombstone() ? null : v;
    }

    /**
     * The version {@code VersionedKeyQuery} returns: the latest, or as of a time; a replaced
     * version carries its validTo, the latest none.
     *
     * @param key the key
     * @param asOf the time, or {@code null} for the latest
     * @return the record, or {@code null}
     */
    VersionedRecord<byte[]> versionedRecord(Bytes key, Long asOf) {
        VersionHistory.Version v = asOf == null ? latest(key) : version(key, asOf);
        if (v == null) {
            return null;
        }
        byte[] value = VersionLayout.value(v.entry());
        return v.latest() ? new VersionedRecord<>(value, v.validFrom()) : new VersionedRecord<>(value, v.validFrom(), v.validTo());
    }

    /**
     * The value versions valid at some time in {@code [fromTime, toTime]}, that have not
     * expired, as {@code MultiVersionedKeyQuery} returns them.
     *
     * @param key the key
     * @param fromTime the earliest time
     * @param toTime the latest time
     * @param order the order of the timestamps ({@code ANY} is descending)
     * @return an iterator, to close
     */
    VersionedRecordIterator<byte[]> versions(Bytes key, long fromTime, long toTime, ResultOrder order) {
        Objects.requireNonNull(key, "key cannot be null");
        StoreDatabase d = openDatabase();
        long streamTime = observedStreamTime;
        boolean latestOnly = expired(toTime);
        byte[] group = VersionLayout.group(key.get());
        long horizon = streamTime - historyRetention;
        byte[] latestKey = VersionLayout.latestKey(group);
        return new VersionIterator(name(), d.iterator(latestKey, VersionLayout.historyEnd(group)), latestKey, group,
                fromTime, toTime, latestOnly, horizon, order != ResultOrder.ASCENDING);
    }

    private VersionHistory.View databaseView(StoreDatabase d, StoreDatabase.Batch writes) {
        return new VersionHistory.View() {
            @Override
            public byte[] get(byte[] key) {
                return d.get(key);
            }

            @Override
            public Map.Entry<byte[], byte[]> first(byte[] from, byte[] to) {
                try (DataIterator it = d.iterator(from, to)) {
                    return it.hasNext() ? it.peekNext() : null;
                } catch (java.io.IOException e) {
                    throw d.failure("closing an iterator", e);
                }
            }

            @Override
            public void put(byte[] key, byte[] value) {
                writes.put(key, value);
            }
        };
    }

    private VersionHistory.View batchView(StoreDatabase.ReadableBatch batch) {
        return new VersionHistory.View() {
            @Override
            public byte[] get(byte[] key) {
                return batch.get(key);
            }

            @Override
            public Map.Entry<byte[], byte[]> first(byte[] from, byte[] to) {
                try (DataIterator it = batch.iterator(from, to)) {
                    it.seek(from);
                    if (!it.hasNext()) {
                        return null;
                    }
                    Map.Entry<byte[], byte[]> e = it.peekNext();
                    return java.util.Arrays.compareUnsigned(e.getKey(), to) < 0
                            ? new AbstractMap.SimpleImmutableEntry<>(e.getKey(), e.getValue()) : null;
                } catch (java.io.IOException e) {
                    throw openDatabase().failure("closing an iterator", e);
                }
            }

            @Override
            public void put(byte[] key, byte[] value) {
                batch.put(key, value);
            }
        };
    }

    /** @return the observed stream time as the database keeps it, in the batch of each commit */
    private byte[] streamTimeBytes() {
        byte[] t = new byte[Long.BYTES];
        VersionLayout.putLong(t, 0, observedStreamTime);
        return t;
    }

    @Override
    public <R> QueryResult<R> query(Query<R> query, PositionBound positionBound, QueryConfig config) {
        return VersionedQueries.handle(this, query, positionBound, config, getPosition(), context());
    }

    /** @return the store's compaction filter, for tests */
    VersionExpiryFilter expiryFilter() {
        return filter;
    }

    // The key-value operations a versioned store does not have, as Kafka's versioned store.

    @Override
    public void put(Bytes key, byte[] value) {
        throw new UnsupportedOperationException("Versioned key-value stores should use put(key, value, timestamp) instead");
    }

    @Override
    public byte[] putIfAbsent(Bytes key, byte[] value) {
        throw new UnsupportedOperationException("Versioned key-value stores do not support putIfAbsent(key, value)");
    }

    @Override
    public void putAll(List<KeyValue<Bytes, byte[]>> entries) {
        throw new UnsupportedOperationException("Versioned key-value stores do not support putAll(entries)");
    }

    @Override
    public byte[] delete(Bytes key) {
        throw new UnsupportedOperationException("Versioned key-value stores do not support delete(key). Use delete(key, timestamp) instead.");
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> range(Bytes from, Bytes to) {
        throw new UnsupportedOperationException("Versioned key-value stores do not support range(from, to)");
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> reverseRange(Bytes from, Bytes to) {
        throw new UnsupportedOperationException("Versioned key-value stores do not support reverseRange(from, to)");
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> all() {
        throw new UnsupportedOperationException("Versioned key-value stores do not support all()");
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> reverseAll() {
        throw new UnsupportedOperationException("Versioned key-value stores do not support reverseAll()");
    }

    @Override
    public <PS extends Serializer<P>, P> KeyValueIterator<Bytes, byte[]> prefixScan(P prefix, PS prefixKeySerializer) {
        throw new UnsupportedOperationException("Versioned key-value stores do not support prefixScan(prefix, prefixKeySerializer)");
    }

    @Override
    public long approximateNumEntries() {
        throw new UnsupportedOperationException("Versioned key-value stores do not support approximateNumEntries()");
    }
}
