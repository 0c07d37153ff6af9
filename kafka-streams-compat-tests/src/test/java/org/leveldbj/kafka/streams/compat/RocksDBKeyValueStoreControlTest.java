package org.leveldbj.kafka.streams.compat;

import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.Stores;

/** Kafka's {@code AbstractKeyValueStoreTest} on Kafka's RocksDB store (the control: it must pass all of it). */
class RocksDBKeyValueStoreControlTest extends KeyValueStoreSuite {
    @Override
    KeyValueBytesStoreSupplier supplier(String name) {
        return Stores.persistentKeyValueStore(name);
    }
}
