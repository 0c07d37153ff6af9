package org.leveldbj.kafka.streams;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.processor.internals.InternalProcessorContext;
import org.apache.kafka.streams.processor.internals.metrics.StreamsMetricsImpl;
import org.apache.kafka.streams.processor.internals.metrics.TaskMetrics;
import org.iq80.leveldb.CompactionFilter;
import org.iq80.leveldb.Options;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The time segments, retention and expiry that window and session stores share: a store's data
 * keys are an 8-byte big-endian segment id ({@code timestamp / segmentInterval}, the timestamp
 * being a window's start or a session's end) followed by Kafka's key schema bytes, so the data
 * is ordered segment by segment and, within a segment, by key then time: the order Kafka's
 * caching layers ({@code CachingWindowStore}, {@code CachingSessionStore}) merge their cache
 * with.
 *
 * <p>Retention. The store's observed stream time is the largest timestamp it was given (by a
 * put or by restoration). A timestamp at or before {@code streamTime - retention} is expired:
 * a put of it is dropped (counted in the task's {@code dropped-records} metric, with a warning,
 * as Kafka's in-memory stores do) and reads never return it. (Kafka's RocksDB stores hide the
 * same timestamps from reads, but drop a put only when its whole segment is expired, counting
 * it without a warning, and write the others invisibly: what reads return is the same.) A segment whose every timestamp is
 * expired is removed whole: the store's compaction filter drops its data keys (never the
 * metadata beside them), and each time the oldest live segment moves on, one compaction of the
 * expired segments' key range runs on a background thread of the store, off the stream thread,
 * so their space is reclaimed at once rather than when compactions happen to reach it. The
 * stream time is kept in the database with every commit and at close, so reopened stores hide
 * exactly what they hid before (Kafka's RocksDB stores forget it until the next write).
 *
 * <p>Timestamps must not be negative (the segment ids are compared as unsigned bytes).
 *
 * <p>Thread safety: the stream thread writes; interactive queries read the stream time
 * concurrently (it is volatile); the compaction filter runs on the engine's background threads
 * and reads only a volatile bound. Lifetime: {@link #attach} once the database is open,
 * {@link #close()} before the database closes (it waits for a running expiry compaction).
 */
final class SegmentedData {
    private static final Logger LOG = LoggerFactory.getLogger(SegmentedData.class);
    /** Bytes of the segment id before every data key. */
    static final int SEGMENT_ID_BYTES = Long.BYTES;
    private static final String STREAM_TIME = "stream-time";
    /** Kafka's "no timestamp": the stream time of a store that saw nothing yet. */
    private static final long NO_TIME = -1L;

    private final String storeName;
    private final long retention;
    private final long segmentInterval;
    private final ExpiredSegments filter = new ExpiredSegments();
    private volatile long streamTime = NO_TIME;
    private StoreDatabase database;
    private Sensor droppedRecords;
    private StateStoreContext context;
    private ExecutorService expiry;
    /** The expiry compactions have covered every segment below this one. */
    private long compactedBelow;
    /** What the expiry compactions must cover, up to this segment (exclusive). */
    private long compactBelow;
    private boolean compacting;

    /**
     * @param storeName the store's name
     * @param retention the retention period, milliseconds
     * @param segmentInterval the segment interval, milliseconds, positive
     */
    SegmentedData(String storeName, long retention, long segmentInterval) {
        if (segmentInterval <= 0) {
            throw new IllegalArgumentException("segment interval must be positive: " + segmentInterval);
        }
        this.storeName = storeName;
        this.retention = retention;
        this.segmentInterval = segmentInterval;
    }

    /** @return what the store sets on its options: the compaction filter that drops expired segments */
    Consumer<Options> options() {
        return options -> options.compactionFilter(filter);
    }

    /**
     * Binds to the store's open database: reads the kept stream time, registers it to be kept
     * at each commit, and starts reclaiming what expired.
     *
     * @param db the open database
     * @param ctx the store's context, for the dropped-records metric
     */
    synchronized void attach(StoreDatabase db, StateStoreContext ctx) {
        this.database = db;
        this.context = ctx;
        byte[] kept = db.kept(STREAM_TIME);
        streamTime = kept == null || kept.length != Long.BYTES ? NO_TIME : ByteBuffer.wrap(kept).getLong();
        db.keepAtCommit(STREAM_TIME, () -> ByteBuffer.allocate(Long.BYTES).putLong(0, streamTime).array());
        if (ctx.metrics() instanceof StreamsMetricsImpl metrics) {
            droppedRecords = TaskMetrics.droppedRecordsSensor(Thread.currentThread().getName(),
                    ctx.taskId().toString(), metrics);
        }
        compactedBelow = 0;
        compactBelow = 0;
        filter.minLiveSegment = minLiveSegment();
        scheduleExpiry();
    }

    /** @return the observed stream time, -1 before any timestamp */
    long streamTime() {
        return streamTime;
    }

    /** @return the smallest timestamp that is not expired */
    long minVisible() {
        return streamTime - retention + 1;
    }

    /**
     * @param timestamp a window start or session end
     * @return whether it is expired: at or before stream time minus retention
     */
    boolean expired(long timestamp) {
        return timestamp < minVisible();
    }

    /**
     * @param timestamp a timestamp, not negative
     * @return its segment's id
     */
    long segmentId(long timestamp) {
        return timestamp / segmentInterval;
    }

    /**
     * @return the first timestamp of the oldest segment holding a timestamp that is not expired:
     *     what is older is expired and being removed; from here on the data is still in the
     *     database (expired or not), as in the live segments of Kafka's RocksDB stores
     */
    long liveSegmentsStart() {
        return minLiveSegment() * segmentInterval;
    }

    /** @return the oldest segment holding a timestamp that is not expired */
    private long minLiveSegment() {
        return segmentId(Math.max(0, minVisible()));
    }

    /**
     * Advances the observed stream time to {@code timestamp} if later, and schedules the removal
     * of the segments that expire with it.
     *
     * @param timestamp a window start or session end being written
     */
    void observe(long timestamp) {
        if (timestamp > streamTime) {
            long before = minLiveSegment();
            streamTime = timestamp;
            long after = minLiveSegment();
            if (after > before) {
                filter.minLiveSegment = after;
                scheduleExpiry();
            }
        }
    }

    /**
     * Counts a record dropped because it expired, and warns.
     */
    void recordDropped() {
        if (droppedRecords != null) {
            droppedRecords.record(1.0d, context instanceof InternalProcessorContext<?, ?> internal
                    ? internal.currentSystemTimeMs() : System.currentTimeMillis());
        }
        LOG.warn("Skipping record for expired segment.");
    }

    /**
     * @param segmentId a segment id
     * @return the first 8 bytes of that segment's data keys
     */
    static byte[] segmentPrefix(long segmentId) {
        return ByteBuffer.allocate(SEGMENT_ID_BYTES).putLong(0, segmentId).array();
    }

    /**
     * @param segmentId a segment id
     * @param schemaKey Kafka's key schema bytes
     * @return the data key: the segment id, then the schema bytes
     */
    static byte[] dataKey(long segmentId, byte[] schemaKey) {
        byte[] key = new byte[SEGMENT_ID_BYTES + schemaKey.length];
        ByteBuffer.wrap(key).putLong(segmentId);
        System.arraycopy(schemaKey, 0, key, SEGMENT_ID_BYTES, schemaKey.length);
        return key;
    }

    /**
     * @param dataKey a data key
     * @return its segment id
     */
    static long segmentOf(byte[] dataKey) {
        return ByteBuffer.wrap(dataKey).getLong(0);
    }

    /**
     * @param dataKey a data key
     * @return its schema bytes (after the segment id)
     */
    static byte[] schemaKey(byte[] dataKey) {
        return Arrays.copyOfRange(dataKey, SEGMENT_ID_BYTES, dataKey.length);
    }

    /**
     * The largest schema key of a key up to {@code key} (in byte order) whose suffix (the bytes
     * after the key) is at most {@code maxSuffix}: the greatest of {@code p + maxSuffix} over
     * the prefixes {@code p} of {@code key}, itself included. A shorter key that is a prefix of
     * {@code key} may sort after {@code key + maxSuffix} (its suffix bytes against the key's
     * next bytes), which is why Kafka's own bound, built from {@code key} alone, can miss it.
     *
     * @param key the largest key of a range
     * @param maxSuffix the largest suffix
     * @return the bound, inclusive
     */
    static byte[] upperBound(byte[] key, byte[] maxSuffix) {
        byte[] best = null;
        for (int len = 0; len <= key.length; len++) {
            byte[] candidate = new byte[len + maxSuffix.length];
            System.arraycopy(key, 0, candidate, 0, len);
            System.arraycopy(maxSuffix, 0, candidate, len, maxSuffix.length);
            if (best == null || Arrays.compareUnsigned(candidate, best) > 0) {
                best = candidate;
            }
        }
        return best;
    }

    /** Starts (or extends) the background compaction of the segments below the oldest live one. */
    private synchronized void scheduleExpiry() {
        compactBelow = Math.max(compactBelow, filter.minLiveSegment);
        if (compacting || compactBelow <= compactedBelow || database == null) {
            return;
        }
        if (expiry == null) {
            expiry = Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "leveldbj-expiry-" + storeName);
                t.setDaemon(true);
                return t;
            });
        }
        compacting = true;
        expiry.execute(this::compactExpired);
    }

    /** Runs on the expiry thread: compacts the expired segments' key range until caught up. */
    private void compactExpired() {
        while (true) {
            long from;
            long below;
            StoreDatabase db;
            synchronized (this) {
                if (compactBelow <= compactedBelow || database == null) {
                    compacting = false;
                    return;
                }
                from = compactedBelow;
                below = compactBelow;
                db = database;
            }
            try {
                // Inclusive end: the prefix of the first live segment is not itself a data key.
                db.compactData(segmentPrefix(from), segmentPrefix(below));
            } catch (RuntimeException e) {
                LOG.warn("store {}: reclaiming the space of expired segments failed: {}", storeName, e.toString());
                synchronized (this) {
                    compacting = false;
                }
                return;
            }
            synchronized (this) {
                compactedBelow = below;
            }
        }
    }

    /**
     * Waits for the expiry compaction of the moment (if any) to finish and stops the expiry
     * thread; call before the database closes.
     */
    void close() {
        ExecutorService e;
        synchronized (this) {
            database = null;
            e = expiry;
            expiry = null;
        }
        if (e != null) {
            e.shutdown();
            try {
                if (!e.awaitTermination(5, TimeUnit.MINUTES)) {
                    LOG.warn("store {}: the expiry compaction did not finish within 5 minutes", storeName);
                }
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** For tests: waits until the expiry compactions scheduled so far are done. */
    void awaitExpiry() throws InterruptedException {
        while (true) {
            synchronized (this) {
                if (!compacting) {
                    return;
                }
            }
            Thread.sleep(5);
        }
    }

    /**
     * The compaction filter: drops the data keys of segments below the oldest live one, keeps
     * the metadata. Sees database keys, namespace byte first.
     */
    private static final class ExpiredSegments implements CompactionFilter {
        volatile long minLiveSegment;

        @Override
        public String name() {
            return "leveldbj.kafka.ExpiredSegments";
        }

        @Override
        public Decision filter(int level, byte[] key, byte[] value) {
            if (key.length > SEGMENT_ID_BYTES && key[0] == StoreDatabase.DATA
                    && ByteBuffer.wrap(key, 1, SEGMENT_ID_BYTES).getLong() < minLiveSegment) {
                return Decision.REMOVE;
            }
            return Decision.KEEP;
        }
    }
}
