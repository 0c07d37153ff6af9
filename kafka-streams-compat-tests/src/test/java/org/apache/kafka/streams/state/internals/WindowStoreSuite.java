package org.apache.kafka.streams.state.internals;

import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.WindowBytesStoreSupplier;
import org.apache.kafka.streams.state.WindowStore;

/**
 * Kafka's {@code AbstractWindowBytesStoreTest}, unchanged, on the store of one supplier, built by
 * Kafka's {@code Stores.windowStoreBuilder} as an application builds it. A subclass names only the
 * supplier: the RocksDB control now, and a leveldbj window store by the same one-method subclass.
 *
 * <p>In Kafka's package because the suite's factory method is package-private.
 */
abstract class WindowStoreSuite extends AbstractWindowBytesStoreTest {
    /** The store name the suites use. */
    static final String STORE_NAME = "window-store";

    /**
     * @param name the store's name
     * @param retentionPeriod how long windows are kept, in milliseconds
     * @param windowSize the windows' size, in milliseconds
     * @param retainDuplicates whether equal keys at the same window are all kept
     * @return the supplier of the store under test
     */
    abstract WindowBytesStoreSupplier supplier(String name, long retentionPeriod, long windowSize, boolean retainDuplicates);

    @Override
    <K, V> WindowStore<K, V> buildWindowStore(long retentionPeriod, long windowSize, boolean retainDuplicates,
                                              Serde<K> keySerde, Serde<V> valueSerde) {
        return Stores.windowStoreBuilder(supplier(STORE_NAME, retentionPeriod, windowSize, retainDuplicates),
                keySerde, valueSerde).build();
    }
}
