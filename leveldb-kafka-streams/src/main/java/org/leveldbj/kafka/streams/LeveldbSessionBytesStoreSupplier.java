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

    LeveldbSessionBytesStoreSupplier(String name, long retentionPeriod, boolean headers) {
        this.name = name;
        this.retentionPeriod = retentionPeriod;
        this.headers = headers;
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
        Objects.requireNonNull(name, "name cannot be null");
        long retentionMs = ApiUtils.validateMillisecondDuration(retentionPeriod,
                ApiUtils.prepareMillisCheckFailMsgPrefix(retentionPeriod, "retentionPeriod"));
        if (retentionMs < 0) {
            throw new IllegalArgumentException("retentionPeriod cannot be negative");
        }
        return headers ? new LeveldbSessionHeadersBytesStoreSupplier(name, retentionMs)
                : new LeveldbSessionBytesStoreSupplier(name, retentionMs, false);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public SessionStore<Bytes, byte[]> get() {
        return headers ? new LeveldbSessionStoreWithHeaders(name, retentionPeriod, segmentIntervalMs())
                : new LeveldbSessionStore(name, retentionPeriod, segmentIntervalMs());
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
        return "LeveldbSessionBytesStoreSupplier(" + name + (headers ? ", headers" : "") + ", retention="
                + retentionPeriod + "ms)";
    }
}
