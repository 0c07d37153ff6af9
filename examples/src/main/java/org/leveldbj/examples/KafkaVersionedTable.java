package org.leveldbj.examples;

import java.time.Duration;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Materialized;
import org.leveldbj.kafka.streams.LeveldbStores;

// The rest runs the topology on Kafka's TopologyTestDriver, without a broker.
import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Properties;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.state.VersionedKeyValueStore;
import org.apache.kafka.streams.state.VersionedRecord;
import org.apache.kafka.streams.test.TestRecord;

/**
 * A Kafka Streams versioned table in a leveldbj store
 * ({@code LeveldbStores.persistentVersionedKeyValueStore}) instead of RocksDB: orders joined with
 * the price their product had at the order's time, even when the order arrives late, run on
 * {@code TopologyTestDriver} so that no broker is needed.
 *
 * <p>Run: {@code KafkaVersionedTable [directory]}; the state directory is {@code directory/state}.
 */
public final class KafkaVersionedTable {
    private KafkaVersionedTable() {
    }

    /**
     * Runs the example.
     *
     * @param args nothing, or the directory to keep the state directory in
     */
    public static void main(String[] args) throws Exception {
        ExampleDirectory.run(args, KafkaVersionedTable::run);
    }

    static void run(File dir) throws IOException {
        StreamsBuilder builder = new StreamsBuilder();
        // was: Stores.persistentVersionedKeyValueStore("prices", Duration.ofHours(1)), a RocksDB store
        KTable<String, String> prices = builder.table("prices",
                Materialized.as(LeveldbStores.persistentVersionedKeyValueStore("prices", Duration.ofHours(1))));
        builder.<String, String>stream("orders")
               .join(prices, (order, price) -> order + " at " + price)
               .to("priced-orders");

        Path stateDir = new File(dir, "state").toPath();
        Properties config = new Properties();
        config.put(StreamsConfig.APPLICATION_ID_CONFIG, "versioned-prices");
        config.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:9092");   // never contacted
        config.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        config.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        config.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        try (TopologyTestDriver driver = new TopologyTestDriver(builder.build(), config)) {
            TestInputTopic<String, String> priceUpdates =
                    driver.createInputTopic("prices", new StringSerializer(), new StringSerializer());
            TestInputTopic<String, String> orders =
                    driver.createInputTopic("orders", new StringSerializer(), new StringSerializer());
            TestOutputTopic<String, String> priced =
                    driver.createOutputTopic("priced-orders", new StringDeserializer(), new StringDeserializer());
            Instant nine = Instant.parse("2026-01-01T09:00:00Z");
            priceUpdates.pipeInput("apple", "1.00", nine);
            priceUpdates.pipeInput("apple", "1.20", nine.plusSeconds(600));
            orders.pipeInput("apple", "order 1", nine.plusSeconds(900));
            orders.pipeInput("apple", "order 2 (late)", nine.plusSeconds(300)); // priced as of 09:05
            for (TestRecord<String, String> r : priced.readRecordsToList()) {
                System.out.println(r.key() + ": " + r.value());
            }
            VersionedKeyValueStore<String, String> store = driver.getVersionedKeyValueStore("prices");
            VersionedRecord<String> at0905 = store.get("apple", nine.plusSeconds(300).toEpochMilli());
            System.out.println("apple at 09:05: " + at0905.value() + ", set at " + Instant.ofEpochMilli(at0905.timestamp()));
            System.out.println("apple now: " + store.get("apple").value());
        }
    }
}
