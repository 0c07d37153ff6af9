package org.apache.kafka.streams.state.internals;

import java.time.Duration;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.WindowBytesStoreSupplier;

/** Kafka's {@code AbstractWindowBytesStoreTest} on Kafka's RocksDB window store: the control. */
class RocksDBWindowStoreControlTest extends WindowStoreSuite {
    @Override
    WindowBytesStoreSupplier supplier(String name, long retentionPeriod, long windowSize, boolean retainDuplicates) {
        return Stores.persistentWindowStore(name, Duration.ofMillis(retentionPeriod), Duration.ofMillis(windowSize),
                retainDuplicates);
    }
}
