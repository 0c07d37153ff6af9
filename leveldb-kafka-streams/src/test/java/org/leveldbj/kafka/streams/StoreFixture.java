package org.leveldbj.kafka.streams;

import java.io.File;
import java.util.Properties;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.MockProcessorContext;

/** Stores initialized outside a topology, on Kafka's mock context, with a state directory. */
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

    static <S extends StateStore> S init(S store, MockProcessorContext<Object, Object> context) {
        store.init(context.getStateStoreContext(), store);
        return store;
    }
}
