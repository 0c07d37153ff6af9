package org.leveldbj.kafka.streams.compat;

import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.leveldbj.kafka.streams.LeveldbStores;

/** Kafka's {@code AbstractKeyValueStoreTest} on our timestamped store, LeveldbTimestampedKeyValueStore (Kafka's plain key-value builder hands it the values as they are). */
class LeveldbTimestampedKeyValueStoreTest extends KeyValueStoreSuite {
    @Override
    KeyValueBytesStoreSupplier supplier(String name) {
        return LeveldbStores.persistentTimestampedKeyValueStore(name);
    }
}
