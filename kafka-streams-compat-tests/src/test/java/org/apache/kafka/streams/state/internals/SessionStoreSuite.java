package org.apache.kafka.streams.state.internals;

import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.streams.state.SessionBytesStoreSupplier;
import org.apache.kafka.streams.state.SessionStore;
import org.apache.kafka.streams.state.Stores;

/**
 * Kafka's {@code AbstractSessionBytesStoreTest}, unchanged, on the store of one supplier, built by
 * Kafka's {@code Stores.sessionStoreBuilder} as an application builds it. A subclass names the
 * supplier and the suite's {@code StoreType} whose expectations the store meets (the suite
 * checks a few store-specific behaviours by type: RocksDB's segments, the in-memory store's
 * eager expiry).
 *
 * <p>In Kafka's package because the suite's factory methods are package-private.
 */
abstract class SessionStoreSuite extends AbstractSessionBytesStoreTest {
    /** The store name the suites use. */
    static final String STORE_NAME = "session-store";

    /**
     * @param name the store's name
     * @param retentionPeriod how long sessions are kept, in milliseconds
     * @return the supplier of the store under test
     */
    abstract SessionBytesStoreSupplier supplier(String name, long retentionPeriod);

    @Override
    <K, V> SessionStore<K, V> buildSessionStore(long retentionPeriod, Serde<K> keySerde, Serde<V> valueSerde) {
        return Stores.sessionStoreBuilder(supplier(STORE_NAME, retentionPeriod), keySerde, valueSerde).build();
    }
}
