package org.leveldbj.kafka.streams.compat;

import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.leveldbj.kafka.streams.LeveldbStores;

/** Kafka's {@code AbstractKeyValueStoreTest} on our LeveldbKeyValueStore. */
class LeveldbKeyValueStoreTest extends KeyValueStoreSuite {
    @Override
    KeyValueBytesStoreSupplier supplier(String name) {
        return LeveldbStores.persistentKeyValueStore(name);
    }
}
