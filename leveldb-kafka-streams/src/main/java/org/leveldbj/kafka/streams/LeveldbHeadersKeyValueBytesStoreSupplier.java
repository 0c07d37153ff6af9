package org.leveldbj.kafka.streams;

import java.util.Objects;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.HeadersBytesStoreSupplier;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Supplies leveldbj key-value stores that hold Kafka's values with headers
 * ({@link LeveldbTimestampedKeyValueStoreWithHeaders}): what
 * {@link LeveldbStores#persistentTimestampedKeyValueStoreWithHeaders} returns, and what
 * {@code LeveldbDslStoreSuppliers} gives the DSL under {@code dsl.store.format=headers}. Each
 * {@link #get()} makes a new store (one per task).
 *
 * <p>Thread safety: immutable.
 */
public final class LeveldbHeadersKeyValueBytesStoreSupplier implements KeyValueBytesStoreSupplier, HeadersBytesStoreSupplier {
    private final String name;

    /**
     * @param name the stores' name
     */
    public LeveldbHeadersKeyValueBytesStoreSupplier(String name) {
        this.name = Objects.requireNonNull(name, "name");
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public KeyValueStore<Bytes, byte[]> get() {
        return new LeveldbTimestampedKeyValueStoreWithHeaders(name);
    }

    @Override
    public String metricsScope() {
        return LeveldbKeyValueBytesStoreSupplier.METRICS_SCOPE;
    }

    @Override
    public String toString() {
        return "LeveldbHeadersKeyValueBytesStoreSupplier(" + name + ")";
    }
}
