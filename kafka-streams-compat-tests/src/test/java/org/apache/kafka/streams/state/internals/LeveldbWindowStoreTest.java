package org.apache.kafka.streams.state.internals;

import java.time.Duration;
import org.apache.kafka.streams.state.WindowBytesStoreSupplier;
import org.leveldbj.kafka.streams.LeveldbStores;

/** Kafka's {@code AbstractWindowBytesStoreTest} on our window store. */
class LeveldbWindowStoreTest extends WindowStoreSuite {
    @Override
    WindowBytesStoreSupplier supplier(String name, long retentionPeriod, long windowSize, boolean retainDuplicates) {
        return LeveldbStores.persistentWindowStore(name, Duration.ofMillis(retentionPeriod), Duration.ofMillis(windowSize),
                retainDuplicates);
    }
}
