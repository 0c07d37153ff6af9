package org.leveldbj.kafka.streams;

import org.apache.kafka.streams.state.HeadersBytesStore;

/**
 * The store of {@code Stores.timestampedKeyValueStoreWithHeadersBuilder} and of the DSL's tables
 * and aggregations under {@code dsl.store.format=headers}: the same database as
 * {@link LeveldbKeyValueStore}, holding values in Kafka's format with headers (the headers'
 * size and bytes, then the timestamp, then the value). The marker interface tells Kafka Streams
 * that no format adapter is needed.
 *
 * <p>As for {@link LeveldbTimestampedKeyValueStore}, a directory written in another value
 * format must not be reopened as this store: give it its own name.
 */
public class LeveldbTimestampedKeyValueStoreWithHeaders extends LeveldbKeyValueStore implements HeadersBytesStore {
    /**
     * @param name the store's name
     */
    public LeveldbTimestampedKeyValueStoreWithHeaders(String name) {
        super(name);
    }
}
