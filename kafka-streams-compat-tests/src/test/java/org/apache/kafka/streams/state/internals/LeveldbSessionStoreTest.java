package org.apache.kafka.streams.state.internals;

import java.time.Duration;
import org.apache.kafka.streams.state.SessionBytesStoreSupplier;
import org.leveldbj.kafka.streams.LeveldbStores;

/**
 * Kafka's {@code AbstractSessionBytesStoreTest} on our session store, checked with the in-memory
 * store's expectations: like Kafka's in-memory session store (and unlike its RocksDB one) ours
 * answers {@code findSessions(earliestSessionEndTime, latestSessionEndTime)}, and a session is
 * expired as soon as its end falls out of the retention period, not a whole segment later.
 */
class LeveldbSessionStoreTest extends SessionStoreSuite {
    @Override
    SessionBytesStoreSupplier supplier(String name, long retentionPeriod) {
        return LeveldbStores.persistentSessionStore(name, Duration.ofMillis(retentionPeriod));
    }

    @Override
    StoreType storeType() {
        return StoreType.InMemoryStore;
    }
}
