package org.apache.kafka.streams.state.internals;

import java.time.Duration;
import org.apache.kafka.streams.state.SessionBytesStoreSupplier;
import org.apache.kafka.streams.state.Stores;

/** Kafka's {@code AbstractSessionBytesStoreTest} on Kafka's RocksDB session store: the control. */
class RocksDBSessionStoreControlTest extends SessionStoreSuite {
    @Override
    SessionBytesStoreSupplier supplier(String name, long retentionPeriod) {
        return Stores.persistentSessionStore(name, Duration.ofMillis(retentionPeriod));
    }

    @Override
    StoreType storeType() {
        return StoreType.RocksDBSessionStore;
    }
}
