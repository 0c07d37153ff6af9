package org.leveldbj.kafka.streams;

import java.io.File;
import java.nio.file.Path;
import java.util.Properties;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.MockProcessorContext;

/**
 * Stores initialized outside a topology, on Kafka's mock context, with a state directory; and the
 * configuration of a {@code TopologyTestDriver} whose DSL stores come from given suppliers.
 */
final class StoreFixture {
    private StoreFixture() {
    }

    static MockProcessorContext<Object, Object> context(File stateDir, Properties extra) {
        Properties config = new Properties();
        config.put(StreamsConfig.APPLICATION_ID_CONFIG, "leveldbj-store-test");
        config.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:9092");
        config.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.BytesSerde.class);
        config.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.ByteArraySerde.class);
        config.putAll(extra);
        return new MockProcessorContext<>(config, new TaskId(0, 0), stateDir);
    }

    /**
     * A {@code TopologyTestDriver}'s configuration: string serdes, every DSL store from
     * {@code suppliers}, the record cache on or off, and final results of windowed aggregations
     * emitted at every record (their wall-clock emit interval, which the driver does not advance,
     * set to 0).
     */
    static Properties driverConfig(String applicationId, Path stateDir, Class<?> suppliers, boolean caching) {
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:9092");
        p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        p.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        p.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        p.put(StreamsConfig.DSL_STORE_SUPPLIERS_CLASS_CONFIG, suppliers);
        p.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, caching ? 1 << 20 : 0);
        p.put(StreamsConfig.InternalConfig.EMIT_INTERVAL_MS_KSTREAMS_WINDOWED_AGGREGATION, 0L);
        return p;
    }

    static <S extends StateStore> S init(S store, MockProcessorContext<Object, Object> context) {
        store.init(context.getStateStoreContext(), store);
        return store;
    }
}
