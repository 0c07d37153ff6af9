package org.leveldbj.kafka.streams;

/**
 * Store suppliers for Kafka Streams on leveldbj, mirroring the persistent key-value suppliers of
 * Kafka's {@code org.apache.kafka.streams.state.Stores}:
 * <pre>{@code
 * // was: Stores.persistentKeyValueStore("counts")
 * StoreBuilder<KeyValueStore<String, Long>> counts = Stores.keyValueStoreBuilder(
 *         LeveldbStores.persistentKeyValueStore("counts"), Serdes.String(), Serdes.Long());
 * // in the DSL: Materialized.as(LeveldbStores.persistentTimestampedKeyValueStore("counts"))
 * }</pre>
 *
 * <p>Window and session stores are not offered yet (see doc/kafka-streams.md).
 */
public final class LeveldbStores {
    private LeveldbStores() {
    }

    /**
     * A supplier of persistent key-value stores, for {@code Stores.keyValueStoreBuilder}.
     *
     * @param name the store's name (also its directory under the task's state directory)
     * @return the supplier
     */
    public static LeveldbKeyValueBytesStoreSupplier persistentKeyValueStore(String name) {
        return new LeveldbKeyValueBytesStoreSupplier(name, false);
    }

    /**
     * A supplier of persistent key-value stores holding Kafka's timestamped values, for
     * {@code Stores.timestampedKeyValueStoreBuilder} and the DSL's {@code Materialized.as}.
     *
     * @param name the store's name
     * @return the supplier
     */
    public static LeveldbKeyValueBytesStoreSupplier persistentTimestampedKeyValueStore(String name) {
        return new LeveldbKeyValueBytesStoreSupplier(name, true);
    }

    /**
     * A supplier of persistent key-value stores holding Kafka's timestamped values with headers,
     * for {@code Stores.timestampedKeyValueStoreWithHeadersBuilder} and the DSL's
     * {@code Materialized.as} under {@code dsl.store.format=headers} (in place of
     * {@code Stores.persistentTimestampedKeyValueStoreWithHeaders}).
     *
     * @param name the store's name
     * @return the supplier
     */
    public static LeveldbHeadersKeyValueBytesStoreSupplier persistentTimestampedKeyValueStoreWithHeaders(String name) {
        return new LeveldbHeadersKeyValueBytesStoreSupplier(name);
    }
}
