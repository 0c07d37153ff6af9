package org.leveldbj.kafka.streams;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Collection;
import java.util.Objects;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.WindowStore;
import org.apache.kafka.streams.state.WindowStoreIterator;
import org.apache.kafka.streams.state.internals.WindowKeySchema;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A persistent Kafka Streams window store on one leveldbj database: the byte-level store that
 * {@code Stores.windowStoreBuilder}, the DSL's windowed aggregations ({@code Materialized.as})
 * and stream-stream joins ({@code StreamJoined.with}) wrap with serdes, caching, change logging
 * and metrics, in place of Kafka's segmented RocksDB window store.
 *
 * <p>Layout: the database lives in {@code <state dir>/leveldb/<store name>} (see
 * {@link StoreDatabase} for the namespace byte and the metadata). A data key is
 * <pre>
 *   segment id (8 bytes, big-endian: window start / segment interval)
 *   key bytes | window start (8 bytes, big-endian) | sequence number (4 bytes, big-endian)
 * </pre>
 * the second line being Kafka's window key schema ({@code WindowKeySchema.toStoreKeyBinary}),
 * the bytes of the changelog's keys. So the data is ordered segment by segment, and by those
 * bytes within a segment (key then window start, for keys of one length): the order of Kafka's
 * RocksDB window store, which its caching layer merges with. Key ranges are exact for keys of
 * any length (Kafka's RocksDB store can miss a key that is a prefix of the range's upper bound). The value is the store's value as given. The sequence number is 0 unless
 * the store retains duplicates, when every put gets the next one (kept at commit, and taken
 * from the changelog on restoration, so a reopened store does not reuse one).
 *
 * <p>Retention (see {@link SegmentedData}): windows starting at or before
 * {@code streamTime - retentionPeriod} are expired: invisible to every read at once, dropped when
 * put (with Kafka's dropped-records metric and warning), and removed from the database a
 * segment at a time by a compaction filter and a background compaction of their key range.
 *
 * <p>Why one database per store, not one per segment as Kafka's RocksDB store: the changelog
 * offsets and the data of every segment are in one database, written in order without a flush,
 * so after a crash the offsets never claim data the store lacks (see {@link StoreDatabase}),
 * whatever segment it is in; one set of files, memtable and cache serves all segments. The cost
 * is that dropping an expired segment is a compaction of its key range (reading and dropping its
 * entries) instead of deleting a directory.
 *
 * <p>Contract (Kafka's {@code WindowStore}): a {@code null} value deletes the window (ignored
 * when retaining duplicates); time ranges are inclusive; {@code null} key bounds are open; a key
 * range whose lower bound is above its upper bound is empty, with Kafka's warning. Iterators
 * read a consistent snapshot, must be closed, and closing the store closes them. Every method but
 * {@link #close()}, {@link #name()}, {@link #persistent()} and {@link #isOpen()} throws
 * {@link InvalidStateStoreException} when the store is not open. Window starts must not be
 * negative ({@link IllegalArgumentException}).
 *
 * <p>Offsets, restoration and queries: as {@link LeveldbKeyValueStore}; restoration takes the
 * changelog's window keys, advances the stream time to each restored batch's latest window
 * first (as Kafka's store), and drops what is expired. Interactive queries answer
 * {@code WindowKeyQuery} and {@code WindowRangeQuery} with position tracking.
 *
 * <p>Thread safety: Kafka Streams uses a store from its task's stream thread; interactive
 * queries may read concurrently.
 */
public class LeveldbWindowStore extends SegmentedStore implements WindowStore<Bytes, byte[]> {
    private static final Logger LOG = LoggerFactory.getLogger(LeveldbWindowStore.class);
    private static final int SUFFIX_BYTES = Long.BYTES + Integer.BYTES;
    private static final String SEQUENCE = "sequence";
    private static final WindowKeySchema SCHEMA = new WindowKeySchema();

    private final long windowSize;
    private final boolean retainDuplicates;
    private volatile int seqnum;

    /**
     * @param name the store's name
     * @param retentionPeriod how long windows are kept after their start, milliseconds
     * @param windowSize the windows' size, milliseconds
     * @param segmentInterval the segments' length, milliseconds, positive
     * @param retainDuplicates whether every put is a new entry
     */
    public LeveldbWindowStore(String name, long retentionPeriod, long windowSize, long segmentInterval,
                              boolean retainDuplicates) {
        super(name, retentionPeriod, segmentInterval);
        this.windowSize = windowSize;
        this.retainDuplicates = retainDuplicates;
    }

    @Override
    void opened(StoreDatabase d, StateStoreContext context) {
        super.opened(d, context);
        byte[] seq = d.kept(SEQUENCE);
        seqnum = seq == null || seq.length != Integer.BYTES ? 0 : ByteBuffer.wrap(seq).getInt();
        d.keepAtCommit(SEQUENCE, () -> ByteBuffer.allocate(Integer.BYTES).putInt(0, seqnum).array());
    }

    /** The window start of Kafka's window key schema bytes. */
    static long windowStart(byte[] schemaKey) {
        return ByteBuffer.wrap(schemaKey).getLong(schemaKey.length - SUFFIX_BYTES);
    }

    private static int sequence(byte[] schemaKey) {
        return ByteBuffer.wrap(schemaKey).getInt(schemaKey.length - Integer.BYTES);
    }

    private static int compareKey(byte[] schemaKey, byte[] key) {
        return Arrays.compareUnsigned(schemaKey, 0, schemaKey.length - SUFFIX_BYTES, key, 0, key.length);
    }

    /** Writes a batch of changelog records (keys in Kafka's window key schema). */
    @Override
    void restoreBatch(Collection<ConsumerRecord<byte[], byte[]>> records) {
        StoreDatabase d = openDatabase();
        for (ConsumerRecord<byte[], byte[]> r : records) {
            checkSchemaKey(r.key());
            segments.observe(windowStart(r.key()));
        }
        d.restore(records, (record, batch) -> {
            long start = windowStart(record.key());
            if (!segments.expired(start)) {
                batch.put(SegmentedData.dataKey(segments.segmentId(start), record.key()), record.value());
            }
            if (retainDuplicates) {
                seqnum = sequence(record.key());
            }
        });
    }

    private void checkSchemaKey(byte[] key) {
        if (key == null || key.length < SUFFIX_BYTES || windowStart(key) < 0) {
            throw new org.apache.kafka.streams.errors.ProcessorStateException("store " + name()
                    + ": a changelog record's key is not a window key (" + (key == null ? "null" : key.length + " bytes")
                    + ")");
        }
    }

    @Override
    public synchronized void put(Bytes key, byte[] value, long windowStartTimestamp) {
        Objects.requireNonNull(key, "key cannot be null");
        StoreDatabase d = openDatabase();
        if (windowStartTimestamp < 0) {
            throw new IllegalArgumentException("store " + name() + ": window start " + windowStartTimestamp
                    + " is negative");
        }
        segments.observe(windowStartTimestamp);
        if (segments.expired(windowStartTimestamp)) {
            segments.recordDropped();
        } else if (value != null || !retainDuplicates) { // deleting a duplicate is a no-op, as in Kafka's stores
            if (retainDuplicates) {
                seqnum = (seqnum + 1) & 0x7FFFFFFF;
            }
            byte[] schemaKey = WindowKeySchema.toStoreKeyBinary(key, windowStartTimestamp, seqnum).get();
            d.put(SegmentedData.dataKey(segments.segmentId(windowStartTimestamp), schemaKey), value);
        }
        d.updatePosition();
    }

    @Override
    public byte[] fetch(Bytes key, long windowStartTimestamp) {
        Objects.requireNonNull(key, "key cannot be null");
        StoreDatabase d = openDatabase();
        if (windowStartTimestamp < 0 || segments.expired(windowStartTimestamp)) {
            return null;
        }
        byte[] schemaKey = WindowKeySchema.toStoreKeyBinary(key, windowStartTimestamp, seqnum).get();
        return d.get(SegmentedData.dataKey(segments.segmentId(windowStartTimestamp), schemaKey));
    }

    @Override
    public WindowStoreIterator<byte[]> fetch(Bytes key, long timeFrom, long timeTo) {
        return fetch(key, timeFrom, timeTo, true);
    }

    @Override
    public WindowStoreIterator<byte[]> backwardFetch(Bytes key, long timeFrom, long timeTo) {
        return fetch(key, timeFrom, timeTo, false);
    }

    private WindowStoreIterator<byte[]> fetch(Bytes key, long timeFrom, long timeTo, boolean forward) {
        Objects.requireNonNull(key, "key cannot be null");
        StoreDatabase d = openDatabase();
        long from = Math.max(Math.max(0, timeFrom), segments.minVisible());
        if (timeTo < from) {
            return new TimeIterator(name(), null, null);
        }
        byte[] k = key.get();
        byte[] low = SCHEMA.lowerRangeFixedSize(key, from).get();
        byte[] high = SCHEMA.upperRangeFixedSize(key, timeTo).get();
        long fromSegment = segments.segmentId(from);
        long toSegment = segments.segmentId(timeTo);
        return new TimeIterator(name(), d, cursor -> new SegmentScan(cursor, fromSegment, toSegment, low, high,
                schema -> schema.length == k.length + SUFFIX_BYTES && compareKey(schema, k) == 0
                        && inTime(schema, from, timeTo), forward));
    }

    private static boolean inTime(byte[] schema, long from, long to) {
        long t = windowStart(schema);
        return t >= from && t <= to;
    }

    @Override
    public KeyValueIterator<Windowed<Bytes>, byte[]> fetch(Bytes keyFrom, Bytes keyTo, long timeFrom, long timeTo) {
        return fetchRange(keyFrom, keyTo, timeFrom, timeTo, true);
    }

    @Override
    public KeyValueIterator<Windowed<Bytes>, byte[]> backwardFetch(Bytes keyFrom, Bytes keyTo, long timeFrom,
                                                                   long timeTo) {
        return fetchRange(keyFrom, keyTo, timeFrom, timeTo, false);
    }

    private KeyValueIterator<Windowed<Bytes>, byte[]> fetchRange(Bytes keyFrom, Bytes keyTo, long timeFrom,
                                                                 long timeTo, boolean forward) {
        StoreDatabase d = openDatabase();
        if (keyFrom != null && keyTo != null && keyFrom.compareTo(keyTo) > 0) {
            LOG.warn(LeveldbKeyValueStore.INVALID_RANGE_WARNING);
            return empty();
        }
        long from = Math.max(Math.max(0, timeFrom), segments.minVisible());
        if (timeTo < from) {
            return empty();
        }
        byte[] kf = keyFrom == null ? null : keyFrom.get();
        byte[] kt = keyTo == null ? null : keyTo.get();
        byte[] low = kf == null ? null : Arrays.copyOf(kf, kf.length + SUFFIX_BYTES);
        byte[] high = kt == null ? null : SegmentedData.upperBound(kt, ByteBuffer.allocate(SUFFIX_BYTES).putLong(timeTo)
                .putInt(Integer.MAX_VALUE).array());
        long fromSegment = segments.segmentId(from);
        long toSegment = segments.segmentId(timeTo);
        return new SegmentIterator<>(name(), d, cursor -> new SegmentScan(cursor, fromSegment, toSegment, low, high,
                schema -> (kf == null || compareKey(schema, kf) >= 0) && (kt == null || compareKey(schema, kt) <= 0)
                        && inTime(schema, from, timeTo), forward),
                schema -> WindowKeySchema.fromStoreBytesKey(schema, windowSize));
    }

    @Override
    public KeyValueIterator<Windowed<Bytes>, byte[]> fetchAll(long timeFrom, long timeTo) {
        return fetchRange(null, null, timeFrom, timeTo, true);
    }

    @Override
    public KeyValueIterator<Windowed<Bytes>, byte[]> backwardFetchAll(long timeFrom, long timeTo) {
        return fetchRange(null, null, timeFrom, timeTo, false);
    }

    @Override
    public KeyValueIterator<Windowed<Bytes>, byte[]> all() {
        return fetchRange(null, null, 0, Long.MAX_VALUE, true);
    }

    @Override
    public KeyValueIterator<Windowed<Bytes>, byte[]> backwardAll() {
        return fetchRange(null, null, 0, Long.MAX_VALUE, false);
    }

    private KeyValueIterator<Windowed<Bytes>, byte[]> empty() {
        return new SegmentIterator<>(name(), null, null, k -> null);
    }

    /** A single key's fetch: window starts as keys. */
    private static final class TimeIterator extends SegmentIterator<Long> implements WindowStoreIterator<byte[]> {
        TimeIterator(String storeName, StoreDatabase database, java.util.function.Function<DataIterator, SegmentScan> scanOf) {
            super(storeName, database, scanOf, LeveldbWindowStore::windowStart);
        }
    }

}
