package org.leveldbj.kafka.streams;

import java.time.Duration;
import java.util.Objects;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.internals.ApiUtils;
import org.apache.kafka.streams.state.SessionBytesStoreSupplier;
import org.apache.kafka.streams.state.SessionStore;

/**
 * Supplies leveldbj session stores to Kafka Streams: what {@link LeveldbStores}'s session
 * factories return, to pass to {@code Stores.sessionStoreBuilder} or {@code Materialized.as(...)}.
 * Each {@link #get()} makes a new store (one per task).
 *
 * <p>Thread safety: immutable.
 */
public class LeveldbSessionBytesStoreSupplier implements SessionBytesStoreSupplier {
    private final String name;
    private final long retentionPeriod;
    private final boolean headers;
    private final boolean emitOnWindowClose;

    LeveldbSessionBytesStoreSupplier(String name, long retentionPeriod, boolean headers, boolean emitOnWindowClose) {
        this.name = name;
        this.retentionPeriod = retentionPeriod;
        this.headers = headers;
        this.emitOnWindowClose = emitOnWindowClose;
    }

    /**
     * Validates the arguments as Kafka's {@code Stores.persistentSessionStore} does.
     *
     * @return a supplier
     * @throws NullPointerException if {@code name} is {@code null}
     * @throws IllegalArgumentException if the retention period is negative or not representable
     *     in milliseconds
     */
    static LeveldbSessionBytesStoreSupplier create(String name, Duration retentionPeriod, boolean headers) {
        return create(name, retentionPeriod, headers, false);
    }

    /**
     * As {@link #create(String, Duration, boolean)}; with {@code emitOnWindowClose}, the stores'
     * {@code findSessions(earliestSessionEndTime, latestSessionEndTime)} sees the sessions of every
     * segment not yet removed (see {@link LeveldbSessionStore}).
     */
    static LeveldbSessionBytesStoreSupplier create(String name, Duration retentionPeriod, boolean headers,
            boolean emitOnWindowClose) {
        Objects.requireNonNull(name, "name cannot be null");
        long retentionMs = ApiUtils.validateMillisecondDuration(retentionPeriod,
                ApiUtils.prepareMillisCheckFailMsgPrefix(retentionPeriod, "retentionPeriod"));
        if (retentionMs < 0) {
            throw new IllegalArgumentException("retentionPeriod cannot be negative");
        }
        return headers ? new LeveldbSessionHeadersBytesStoreSupplier(name, retentionMs, emitOnWindowClose)
                : new LeveldbSessionBytesStoreSupplier(name, retentionMs, false, emitOnWindowClose);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public SessionStore<Bytes, byte[]> get() {
        return headers ? new LeveldbSessionStoreWithHeaders(name, retentionPeriod, segmentIntervalMs(), emitOnWindowClose)
                : new LeveldbSessionStore(name, retentionPeriod, segmentIntervalMs(), emitOnWindowClose);
    }

    @Override
    public String metricsScope() {
        return LeveldbKeyValueBytesStoreSupplier.METRICS_SCOPE;
    }

    /** @return {@code max(retentionPeriod / 2, 60,000 ms)}, as Kafka's RocksDB session stores */
    @Override
    public long segmentIntervalMs() {
        return Math.max(retentionPeriod / 2, 60_000L);
    }

    @Override
    public long retentionPeriod() {
        return retentionPeriod;
    }

    @Override
    public String toString() {
        return "LeveldbSessionBytesStoreSupplier(" + name + (headers ? ", headers" : "")
                + (emitOnWindowClose ? ", emit on window close" : "") + ", retention="
                + retentionPeriod + "ms)";
    }
}
