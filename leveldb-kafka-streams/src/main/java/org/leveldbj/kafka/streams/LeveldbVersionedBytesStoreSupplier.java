package org.leveldbj.kafka.streams;

import java.util.Objects;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.VersionedBytesStoreSupplier;

/**
 * Supplies leveldbj versioned key-value stores ({@link LeveldbVersionedKeyValueStore}) to Kafka
 * Streams: what {@link LeveldbStores#persistentVersionedKeyValueStore(String, java.time.Duration)}
 * returns, to pass to {@code Stores.versionedKeyValueStoreBuilder} or the DSL's
 * {@code Materialized.as(...)}. Each {@link #get()} makes a new store (one per task). Kafka
 * Streams reads {@link #historyRetentionMs()} to configure the changelog topic's compaction.
 *
 * <p>Thread safety: immutable.
 */
public final class LeveldbVersionedBytesStoreSupplier implements VersionedBytesStoreSupplier {
    private final String name;
    private final long historyRetentionMs;

    /**
     * @param name the stores' name
     * @param historyRetentionMs their history retention, in milliseconds (at least 0)
     */
    public LeveldbVersionedBytesStoreSupplier(String name, long historyRetentionMs) {
        this.name = Objects.requireNonNull(name, "name cannot be null");
        if (historyRetentionMs < 0) {
            throw new IllegalArgumentException("historyRetention cannot be negative");
        }
        this.historyRetentionMs = historyRetentionMs;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public long historyRetentionMs() {
        return historyRetentionMs;
    }

    @Override
    public KeyValueStore<Bytes, byte[]> get() {
        return new LeveldbVersionedKeyValueStore(name, historyRetentionMs);
    }

    @Override
    public String metricsScope() {
        return LeveldbKeyValueBytesStoreSupplier.METRICS_SCOPE;
    }

    @Override
    public String toString() {
        return "LeveldbVersionedBytesStoreSupplier(" + name + ", historyRetention " + historyRetentionMs + " ms)";
    }
}
