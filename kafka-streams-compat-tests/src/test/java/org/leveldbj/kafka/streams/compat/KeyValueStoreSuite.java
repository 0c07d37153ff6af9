package org.leveldbj.kafka.streams.compat;

import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.internals.AbstractKeyValueStoreTest;

/**
 * Kafka's {@code AbstractKeyValueStoreTest}, unchanged, on the store of one supplier: the store is
 * built the way an application builds it, by Kafka's {@code Stores.keyValueStoreBuilder} (a
 * metered store over the supplier's store, no cache, no changelog), and initialized on the test
 * driver's context. A subclass names only the supplier, so ours and Kafka's RocksDB control run
 * the same code.
 */
abstract class KeyValueStoreSuite extends AbstractKeyValueStoreTest {
    /** The store name Kafka's own subclasses use. */
    static final String STORE_NAME = "my-store";

    /**
     * @param name the store's name
     * @return the supplier of the store under test
     */
    abstract KeyValueBytesStoreSupplier supplier(String name);

    @Override
    @SuppressWarnings("unchecked") // the driver's context carries the suite's serdes as Serde<?>
    protected <K, V> KeyValueStore<K, V> createKeyValueStore(StateStoreContext context) {
        KeyValueStore<K, V> store = Stores.keyValueStoreBuilder(
                supplier(STORE_NAME),
                (Serde<K>) context.keySerde(),
                (Serde<V>) context.valueSerde()).build();
        store.init(context, store);
        return store;
    }
}
