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
 * <p>Window and session stores (segmented by time, with retention) are offered too: see
 * {@link LeveldbWindowStore} and {@link LeveldbSessionStore}.
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

    // Window and session stores.

    /**
     * A supplier of persistent window stores, for {@code Stores.windowStoreBuilder} and
     * {@code StreamJoined.with}; the arguments are checked as Kafka's
     * {@code Stores.persistentWindowStore} checks them.
     *
     * @param name the store's name (also its directory under the task's state directory)
     * @param retentionPeriod how long a window is kept after its start; at least the window size
     * @param windowSize the windows' size
     * @param retainDuplicates whether every put is kept as a new entry (stream-stream joins)
     * @return the supplier
     * @throws NullPointerException if {@code name} is {@code null}
     * @throws IllegalArgumentException if a duration is negative or not representable in
     *     milliseconds, or the window size exceeds the retention period
     */
    public static LeveldbWindowBytesStoreSupplier persistentWindowStore(String name, java.time.Duration retentionPeriod,
                                                                        java.time.Duration windowSize,
                                                                        boolean retainDuplicates) {
        return LeveldbWindowBytesStoreSupplier.create(name, retentionPeriod, windowSize, retainDuplicates,
                LeveldbWindowBytesStoreSupplier.Format.PLAIN);
    }

    /**
     * A supplier of persistent window stores holding Kafka's timestamped values, for
     * {@code Stores.timestampedWindowStoreBuilder} and the DSL's {@code Materialized.as}.
     *
     * @param name the store's name
     * @param retentionPeriod how long a window is kept after its start; at least the window size
     * @param windowSize the windows' size
     * @param retainDuplicates whether every put is kept as a new entry
     * @return the supplier
     * @throws NullPointerException if {@code name} is {@code null}
     * @throws IllegalArgumentException as {@link #persistentWindowStore}
     */
    public static LeveldbWindowBytesStoreSupplier persistentTimestampedWindowStore(String name,
            java.time.Duration retentionPeriod, java.time.Duration windowSize, boolean retainDuplicates) {
        return LeveldbWindowBytesStoreSupplier.create(name, retentionPeriod, windowSize, retainDuplicates,
                LeveldbWindowBytesStoreSupplier.Format.TIMESTAMPED);
    }

    /**
     * A supplier of persistent window stores holding Kafka's headers-and-timestamp values (what
     * Kafka Streams asks for under {@code dsl.store.format=headers}); the supplier and its
     * stores carry Kafka's headers markers.
     *
     * @param name the store's name
     * @param retentionPeriod how long a window is kept after its start; at least the window size
     * @param windowSize the windows' size
     * @param retainDuplicates whether every put is kept as a new entry
     * @return the supplier
     * @throws NullPointerException if {@code name} is {@code null}
     * @throws IllegalArgumentException as {@link #persistentWindowStore}
     */
    public static LeveldbWindowBytesStoreSupplier persistentTimestampedWindowStoreWithHeaders(String name,
            java.time.Duration retentionPeriod, java.time.Duration windowSize, boolean retainDuplicates) {
        return LeveldbWindowBytesStoreSupplier.create(name, retentionPeriod, windowSize, retainDuplicates,
                LeveldbWindowBytesStoreSupplier.Format.HEADERS);
    }

    /**
     * A supplier of persistent session stores, for {@code Stores.sessionStoreBuilder} and the
     * DSL's {@code Materialized.as}; the argument is checked as Kafka's
     * {@code Stores.persistentSessionStore} checks it.
     *
     * @param name the store's name
     * @param retentionPeriod how long a session is kept after its end
     * @return the supplier
     * @throws NullPointerException if {@code name} is {@code null}
     * @throws IllegalArgumentException if the retention period is negative or not representable
     *     in milliseconds
     */
    public static LeveldbSessionBytesStoreSupplier persistentSessionStore(String name,
                                                                          java.time.Duration retentionPeriod) {
        return LeveldbSessionBytesStoreSupplier.create(name, retentionPeriod, false);
    }

    /**
     * A supplier of persistent session stores holding Kafka's aggregates with headers (what
     * Kafka Streams asks for under {@code dsl.store.format=headers}); the supplier and its
     * stores carry Kafka's headers markers.
     *
     * @param name the store's name
     * @param retentionPeriod how long a session is kept after its end
     * @return the supplier
     * @throws NullPointerException if {@code name} is {@code null}
     * @throws IllegalArgumentException as {@link #persistentSessionStore}
     */
    public static LeveldbSessionBytesStoreSupplier persistentSessionStoreWithHeaders(String name,
            java.time.Duration retentionPeriod) {
        return LeveldbSessionBytesStoreSupplier.create(name, retentionPeriod, true);
    }

    // End of window and session stores.
}
