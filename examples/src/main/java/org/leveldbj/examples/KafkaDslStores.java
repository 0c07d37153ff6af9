package org.leveldbj.examples;

import java.time.Duration;
import java.util.Arrays;
import java.util.Properties;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.kstream.JoinWindows;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.SessionWindows;
import org.apache.kafka.streams.kstream.TimeWindows;
import org.leveldbj.kafka.streams.LeveldbDslStoreSuppliers;
import org.leveldbj.kafka.streams.LeveldbStores;

// The rest runs the topology on Kafka's TopologyTestDriver, without a broker.
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TopologyTestDriver;

/**
 * Every store of a Kafka Streams DSL application on leveldbj, by one line of configuration
 * ({@code dsl.store.suppliers.class}): a word count, counts per minute, counts per session, a
 * stream-stream join and a join with a versioned table (whose supplier is named, as Kafka
 * Streams does not ask the suppliers for versioned stores), run on {@code TopologyTestDriver}
 * so that no broker is needed. It prints each output and the stores' directories.
 *
 * <p>Run: {@code KafkaDslStores [directory]}; the state directory is {@code directory/state}.
 */
public final class KafkaDslStores {
    private KafkaDslStores() {
    }

    /**
     * Runs the example.
     *
     * @param args nothing, or the directory to keep the state directory in
     */
    public static void main(String[] args) throws Exception {
        ExampleDirectory.run(args, KafkaDslStores::run);
    }

    static void run(File dir) throws IOException {
        Properties config = new Properties();
        // The one line: every store the DSL makes is a leveldbj store.
        config.put(StreamsConfig.DSL_STORE_SUPPLIERS_CLASS_CONFIG, LeveldbDslStoreSuppliers.class);

        StreamsBuilder builder = new StreamsBuilder();
        KStream<String, String> clicks = builder.stream("clicks");       // user -> page
        KStream<String, String> buys = builder.stream("purchases");      // user -> item
        KTable<String, String> plans = builder.table("plans",            // user -> plan, versioned
                Materialized.as(LeveldbStores.persistentVersionedKeyValueStore("plans", Duration.ofHours(1))));

        clicks.flatMapValues(page -> Arrays.asList(page.split("/")))
              .groupBy((user, word) -> word).count().toStream()
              .mapValues(String::valueOf).to("words");
        clicks.groupByKey().windowedBy(TimeWindows.ofSizeWithNoGrace(Duration.ofMinutes(1))).count()
              .toStream((w, n) -> w.key() + "@" + w.window().startTime()).mapValues(String::valueOf).to("per-minute");
        clicks.groupByKey().windowedBy(SessionWindows.ofInactivityGapWithNoGrace(Duration.ofSeconds(30))).count()
              .toStream((w, n) -> w.key() + "@" + w.window().startTime() + ".." + w.window().endTime())
              .filter((k, n) -> n != null).mapValues(String::valueOf).to("per-session");
        clicks.join(buys, (page, item) -> page + " -> " + item,
                    JoinWindows.ofTimeDifferenceWithNoGrace(Duration.ofMinutes(5)))
              .to("click-to-buy");
        buys.join(plans, (item, plan) -> item + " on " + plan).to("buys-with-plan");

        Path stateDir = new File(dir, "state").toPath();
        config.put(StreamsConfig.APPLICATION_ID_CONFIG, "dsl-stores");
        config.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:9092");   // never contacted
        config.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        config.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        config.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        try (TopologyTestDriver driver = new TopologyTestDriver(builder.build(), config)) {
            StringSerializer s = new StringSerializer();
            TestInputTopic<String, String> clickIn = driver.createInputTopic("clicks", s, s);
            TestInputTopic<String, String> buyIn = driver.createInputTopic("purchases", s, s);
            TestInputTopic<String, String> planIn = driver.createInputTopic("plans", s, s);
            long t0 = 1_700_000_000_000L;
            planIn.pipeInput("ada", "free", t0);
            clickIn.pipeInput("ada", "shop/books", t0 + 1_000);
            clickIn.pipeInput("ada", "shop/music", t0 + 10_000);
            planIn.pipeInput("ada", "pro", t0 + 20_000);
            buyIn.pipeInput("ada", "a book", t0 + 15_000);   // arrives late: bought on the free plan
            clickIn.pipeInput("ada", "home", t0 + 90_000);

            StringDeserializer d = new StringDeserializer();
            for (String topic : List.of("words", "per-minute", "per-session", "click-to-buy", "buys-with-plan")) {
                for (KeyValue<String, String> kv : driver.createOutputTopic(topic, d, d).readKeyValuesToList()) {
                    System.out.println(topic + ": " + kv.key + " = " + kv.value);
                }
            }
            // Every store is a leveldbj database: <state.dir>/<application>/<task>/leveldb/<store>.
            // The walk stops at the stores' directories: inside them the open databases delete
            // files as they compact, which a walk listing them could no longer find.
            try (Stream<Path> dirs = Files.walk(stateDir, 4)) {
                System.out.println("leveldbj stores: " + dirs
                        .filter(store -> Files.exists(store.resolve("CURRENT")))
                        .map(store -> store.getFileName().toString()).sorted().toList());
            }
        }
    }
}
