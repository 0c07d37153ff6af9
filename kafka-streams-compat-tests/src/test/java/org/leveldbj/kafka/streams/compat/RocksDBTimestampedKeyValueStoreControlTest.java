package org.leveldbj.kafka.streams.compat;

import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.Stores;

/** Kafka's {@code AbstractKeyValueStoreTest} on Kafka's timestamped RocksDB store (the control for LeveldbTimestampedKeyValueStoreTest). */
class RocksDBTimestampedKeyValueStoreControlTest extends KeyValueStoreSuite {
    @Override
    KeyValueBytesStoreSupplier supplier(String name) {
        return Stores.persistentTimestampedKeyValueStore(name);
    }
}
