package org.leveldbj.kafka.streams;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Collection;
import java.util.Objects;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.errors.ProcessorStateException;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.SessionStore;
import org.apache.kafka.streams.state.internals.SessionKeySchema;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A persistent Kafka Streams session store on one leveldbj database: the byte-level store that
 * {@code Stores.sessionStoreBuilder} and the DSL's session-windowed aggregations
 * ({@code Materialized.as}) wrap with serdes, caching, change logging and metrics, in place of
 * Kafka's segmented RocksDB session store.
 *
 * <p>Layout: the database lives in {@code <state dir>/leveldb/<store name>} (see
 * {@link StoreDatabase}). A data key is
 * <pre>
 *   segment id (8 bytes, big-endian: session end / segment interval)
 *   key bytes | session end (8 bytes, big-endian) | session start (8 bytes, big-endian)
 * </pre>
 * the second line being Kafka's session key schema ({@code SessionKeySchema.toBinary}), the
 * bytes of the changelog's keys; the value is the aggregate. So the data is ordered segment by
 * segment and by those bytes within a segment: the order of Kafka's RocksDB session store,
 * which its caching layer ({@code CachingSessionStore}) merges with. Every read returns
 * sessions in that order (backwards for the backward forms), except
 * {@link #findSessions(long, long)}, which returns them by end time.
 *
 * <p>Retention (see {@link SegmentedData}), by session end: sessions ending at or before
 * {@code streamTime - retentionPeriod} are invisible at once, dropped when put (Kafka's
 * dropped-records metric and warning), and removed from the database a segment at a time.
 * One exception, for the stores {@link LeveldbDslStoreSuppliers} gives emit-on-window-close
 * session aggregations: there {@link #findSessions(long, long)} (the DSL's read of the sessions
 * that closed) sees every session of the segments not yet removed, as Kafka's RocksDB
 * time-ordered session store does. The DSL's default retention is the inactivity gap plus the
 * grace period, and a session closes once its end is more than the grace period behind the stream
 * time, so with exact expiry a session would stay readable by that query for only the gap's
 * length of stream time, and be lost if the stream time jumps further between two emissions.
 * {@link #remove} does not advance the stream time (as Kafka's in-memory store).
 *
 * <p>Why one database per store: see {@link LeveldbWindowStore}.
 *
 * <p>Contract (Kafka's {@code SessionStore}): {@code put} with a {@code null} aggregate removes;
 * {@code findSessions(key, earliestSessionEndTime, latestSessionStartTime)} returns the sessions
 * with end &gt;= the first and start &lt;= the second; {@code findSessions(earliestSessionEndTime,
 * latestSessionEndTime)} those whose end lies between both (inclusive); {@code null} key bounds
 * are open; a key range whose lower bound is above its upper bound is empty, with Kafka's
 * warning. Iterators read a consistent snapshot, must be closed, and closing the store closes
 * them; a closed store throws {@link InvalidStateStoreException}.
 *
 * <p>Offsets, restoration, queries and thread safety: as {@link LeveldbWindowStore};
 * interactive queries answer {@code WindowRangeQuery.withKey} (the sessions of a key).
 */
public class LeveldbSessionStore extends SegmentedStore implements SessionStore<Bytes, byte[]> {
    private static final Logger LOG = LoggerFactory.getLogger(LeveldbSessionStore.class);
    private static final int SUFFIX_BYTES = 2 * Long.BYTES;
    /** Session end, then key bytes, then session start: the order of sessions by end time. */
    private static final java.util.Comparator<byte[]> END_ORDER = (a, b) -> {
        int c = Long.compare(end(a), end(b));
        if (c == 0) {
            c = Arrays.compareUnsigned(a, 0, a.length - SUFFIX_BYTES, b, 0, b.length - SUFFIX_BYTES);
        }
        return c != 0 ? c : Long.compare(start(a), start(b));
    };

    private final boolean emitOnWindowClose;

    /**
     * @param name the store's name
     * @param retentionPeriod how long sessions are kept after their end, milliseconds
     * @param segmentInterval the segments' length, milliseconds, positive
     */
    public LeveldbSessionStore(String name, long retentionPeriod, long segmentInterval) {
        this(name, retentionPeriod, segmentInterval, false);
    }

    /**
     * @param name the store's name
     * @param retentionPeriod how long sessions are kept after their end, milliseconds
     * @param segmentInterval the segments' length, milliseconds, positive
     * @param emitOnWindowClose whether {@link #findSessions(long, long)} sees the sessions of
     *     every segment not yet removed (see the class comment)
     */
    LeveldbSessionStore(String name, long retentionPeriod, long segmentInterval, boolean emitOnWindowClose) {
        super(name, retentionPeriod, segmentInterval);
        this.emitOnWindowClose = emitOnWindowClose;
    }

    /** The session end of Kafka's session key schema bytes. */
    static long end(byte[] schemaKey) {
        return ByteBuffer.wrap(schemaKey).getLong(schemaKey.length - SUFFIX_BYTES);
    }

    /** The session start of Kafka's session key schema bytes. */
    static long start(byte[] schemaKey) {
        return ByteBuffer.wrap(schemaKey).getLong(schemaKey.length - Long.BYTES);
    }

    private static int compareKey(byte[] schemaKey, byte[] key) {
        return Arrays.compareUnsigned(schemaKey, 0, schemaKey.length - SUFFIX_BYTES, key, 0, key.length);
    }

    /** Writes a batch of changelog records (keys in Kafka's session key schema). */
    @Override
    void restoreBatch(Collection<ConsumerRecord<byte[], byte[]>> records) {
        StoreDatabase d = openDatabase();
        for (ConsumerRecord<byte[], byte[]> r : records) {
            byte[] key = r.key();
            if (key == null || key.length < SUFFIX_BYTES || end(key) < 0 || start(key) < 0) {
                throw new ProcessorStateException("store " + name() + ": a changelog record's key is not a session key ("
                        + (key == null ? "null" : key.length + " bytes") + ", offset " + r.offset() + ")");
            }
            segments.observe(end(key));
        }
        d.restore(records, (record, batch) -> {
            long end = end(record.key());
            if (!segments.expired(end)) {
                batch.put(SegmentedData.dataKey(segments.segmentId(end), record.key()), record.value());
            }
        });
    }

    private byte[] dataKey(Windowed<Bytes> sessionKey) {
        return SegmentedData.dataKey(segments.segmentId(sessionKey.window().end()),
                SessionKeySchema.toBinary(sessionKey).get());
    }

    @Override
    public synchronized void put(Windowed<Bytes> sessionKey, byte[] aggregate) {
        Objects.requireNonNull(sessionKey, "sessionKey cannot be null");
        Objects.requireNonNull(sessionKey.key(), "sessionKey.key() cannot be null");
        StoreDatabase d = openDatabase();
        long end = sessionKey.window().end();
        segments.observe(end);
        if (segments.expired(end)) {
            segments.recordDropped();
        } else {
            d.put(dataKey(sessionKey), aggregate);
        }
        d.updatePosition();
    }

    @Override
    public synchronized void remove(Windowed<Bytes> sessionKey) {
        Objects.requireNonNull(sessionKey, "sessionKey cannot be null");
        Objects.requireNonNull(sessionKey.key(), "sessionKey.key() cannot be null");
        openDatabase().put(dataKey(sessionKey), null);
    }

    @Override
    public byte[] fetchSession(Bytes key, long sessionStartTime, long sessionEndTime) {
        Objects.requireNonNull(key, "key cannot be null");
        StoreDatabase d = openDatabase();
        if (sessionStartTime < 0 || sessionEndTime < 0 || segments.expired(sessionEndTime)) {
            return null;
        }
        return d.get(SegmentedData.dataKey(segments.segmentId(sessionEndTime),
                SessionKeySchema.toBinary(key, sessionStartTime, sessionEndTime).get()));
    }

    @Override
    public KeyValueIterator<Windowed<Bytes>, byte[]> findSessions(Bytes key, long earliestSessionEndTime,
                                                                  long latestSessionStartTime) {
        Objects.requireNonNull(key, "key cannot be null");
        return find(key, key, earliestSessionEndTime, latestSessionStartTime, true);
    }

    @Override
    public KeyValueIterator<Windowed<Bytes>, byte[]> backwardFindSessions(Bytes key, long earliestSessionEndTime,
                                                                          long latestSessionStartTime) {
        Objects.requireNonNull(key, "key cannot be null");
        return find(key, key, earliestSessionEndTime, latestSessionStartTime, false);
    }

    @Override
    public KeyValueIterator<Windowed<Bytes>, byte[]> findSessions(Bytes keyFrom, Bytes keyTo,
                                                                  long earliestSessionEndTime,
                                                                  long latestSessionStartTime) {
        return find(keyFrom, keyTo, earliestSessionEndTime, latestSessionStartTime, true);
    }

    @Override
    public KeyValueIterator<Windowed<Bytes>, byte[]> backwardFindSessions(Bytes keyFrom, Bytes keyTo,
                                                                          long earliestSessionEndTime,
                                                                          long latestSessionStartTime) {
        return find(keyFrom, keyTo, earliestSessionEndTime, latestSessionStartTime, false);
    }

    @Override
    public KeyValueIterator<Windowed<Bytes>, byte[]> fetch(Bytes key) {
        Objects.requireNonNull(key, "key cannot be null");
        return find(key, key, 0, Long.MAX_VALUE, true);
    }

    @Override
    public KeyValueIterator<Windowed<Bytes>, byte[]> backwardFetch(Bytes key) {
        Objects.requireNonNull(key, "key cannot be null");
        return find(key, key, 0, Long.MAX_VALUE, false);
    }

    @Override
    public KeyValueIterator<Windowed<Bytes>, byte[]> fetch(Bytes keyFrom, Bytes keyTo) {
        return find(keyFrom, keyTo, 0, Long.MAX_VALUE, true);
    }

    @Override
    public KeyValueIterator<Windowed<Bytes>, byte[]> backwardFetch(Bytes keyFrom, Bytes keyTo) {
        return find(keyFrom, keyTo, 0, Long.MAX_VALUE, false);
    }

    /**
     * The sessions of a key range that end at or after {@code earliestSessionEndTime} and start
     * at or before {@code latestSessionStartTime}; {@code keyFrom == keyTo} for one key.
     */
    private KeyValueIterator<Windowed<Bytes>, byte[]> find(Bytes keyFrom, Bytes keyTo, long earliestSessionEndTime,
                                                           long latestSessionStartTime, boolean forward) {
        StoreDatabase d = openDatabase();
        if (keyFrom != null && keyTo != null && keyFrom.compareTo(keyTo) > 0) {
            LOG.warn(LeveldbKeyValueStore.INVALID_RANGE_WARNING);
            return empty();
        }
        long from = Math.max(Math.max(0, earliestSessionEndTime), segments.minVisible());
        if (latestSessionStartTime < 0) {
            return empty();
        }
        byte[] kf = keyFrom == null ? null : keyFrom.get();
        byte[] kt = keyTo == null ? null : keyTo.get();
        byte[] low;
        byte[] high;
        if (kf != null && kf == kt) {
            // One key: its sessions ending at or after from, in key, end, start order.
            low = SessionKeySchema.toBinary(keyFrom, 0, from).get();
            high = SessionKeySchema.toBinary(keyFrom, Long.MAX_VALUE, Long.MAX_VALUE).get();
        } else {
            low = kf == null ? null : Arrays.copyOf(kf, kf.length + SUFFIX_BYTES);
            high = kt == null ? null : SegmentedData.upperBound(kt, ByteBuffer.allocate(SUFFIX_BYTES)
                    .putLong(Long.MAX_VALUE).putLong(latestSessionStartTime).array());
        }
        long fromSegment = segments.segmentId(from);
        long toSegment = segments.segmentId(Long.MAX_VALUE);
        return sessions(d, cursor -> new SegmentScan(cursor, fromSegment, toSegment, low, high,
                schema -> schema.length >= SUFFIX_BYTES
                        && (kf == null || compareKey(schema, kf) >= 0) && (kt == null || compareKey(schema, kt) <= 0)
                        && end(schema) >= from && start(schema) <= latestSessionStartTime, forward));
    }

    /**
     * The sessions whose end lies between the two times (inclusive), of every key: what the
     * DSL's emit-on-window-close session aggregation asks for. Ordered by end time, then key,
     * then start time (as Kafka's in-memory and time-ordered session stores): each segment's
     * matching sessions are sorted in memory, one segment at a time (the range the DSL asks
     * for is the sessions that closed since its last emission). Expired sessions are not
     * returned, except by the stores of emit-on-window-close aggregations (see the class comment).
     */
    @Override
    public KeyValueIterator<Windowed<Bytes>, byte[]> findSessions(long earliestSessionEndTime,
                                                                  long latestSessionEndTime) {
        StoreDatabase d = openDatabase();
        long from = Math.max(Math.max(0, earliestSessionEndTime),
                emitOnWindowClose ? segments.liveSegmentsStart() : segments.minVisible());
        if (latestSessionEndTime < from) {
            return empty();
        }
        long fromSegment = segments.segmentId(from);
        long toSegment = segments.segmentId(latestSessionEndTime);
        return sessions(d, cursor -> new SegmentScan(cursor, fromSegment, toSegment, null, null, schema -> {
            long end = end(schema);
            return end >= from && end <= latestSessionEndTime;
        }, true).sortedWithinSegments(END_ORDER));
    }

    private KeyValueIterator<Windowed<Bytes>, byte[]> empty() {
        return new SegmentIterator<>(name(), null, null, k -> null);
    }

    private KeyValueIterator<Windowed<Bytes>, byte[]> sessions(StoreDatabase d,
                                                               java.util.function.Function<DataIterator, SegmentScan> scanOf) {
        return new SegmentIterator<>(name(), d, scanOf, schema -> SessionKeySchema.from(Bytes.wrap(schema)));
    }

}
