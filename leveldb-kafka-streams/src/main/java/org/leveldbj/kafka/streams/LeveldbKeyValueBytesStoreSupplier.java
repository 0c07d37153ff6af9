package org.leveldbj.kafka.streams;

import java.util.Objects;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Supplies leveldbj key-value stores to Kafka Streams: what {@link LeveldbStores} returns, to
 * pass to {@code Stores.keyValueStoreBuilder}, {@code Stores.timestampedKeyValueStoreBuilder} or
 * {@code Materialized.as(...)}. Each {@link #get()} makes a new store (one per task).
 *
 * <p>Thread safety: immutable.
 */
public final class LeveldbKeyValueBytesStoreSupplier implements KeyValueBytesStoreSupplier {
    /** The metrics scope of the stores (tag {@code leveldbj-state-id}), in place of RocksDB's {@code rocksdb}. */
    public static final String METRICS_SCOPE = "leveldbj";

    private final String name;
    private final boolean timestamped;

    /**
     * @param name the stores' name
     * @param timestamped whether the stores hold Kafka's timestamped values
     */
    public LeveldbKeyValueBytesStoreSupplier(String name, boolean timestamped) {
        this.name = Objects.requireNonNull(name, "name");
        this.timestamped = timestamped;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public KeyValueStore<Bytes, byte[]> get() {
        return timestamped ? new LeveldbTimestampedKeyValueStore(name) : new LeveldbKeyValueStore(name);
    }

    @Override
    public String metricsScope() {
        return METRICS_SCOPE;
    }

    @Override
    public String toString() {
        return "LeveldbKeyValueBytesStoreSupplier(" + name + (timestamped ? ", timestamped)" : ")");
    }
}
