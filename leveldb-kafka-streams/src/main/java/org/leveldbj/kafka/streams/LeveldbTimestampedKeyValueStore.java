package org.leveldbj.kafka.streams;

import org.apache.kafka.streams.state.TimestampedBytesStore;

/**
 * The store of {@code Stores.timestampedKeyValueStoreBuilder} and the DSL's tables and
 * aggregations: the same database as {@link LeveldbKeyValueStore}, holding values in Kafka's
 * timestamped format (an eight-byte timestamp before the value bytes). The marker interface
 * tells Kafka Streams that no format adapter is needed.
 *
 * <p>A store directory written by a plain key-value store holds values without timestamps and
 * must not be reopened as this one: give the timestamped store its own name, as a new
 * application version would (Kafka's RocksDB store converts such data in place; this one does
 * not).
 */
public class LeveldbTimestampedKeyValueStore extends LeveldbKeyValueStore implements TimestampedBytesStore {
    /**
     * @param name the store's name
     */
    public LeveldbTimestampedKeyValueStore(String name) {
        super(name);
    }
}
