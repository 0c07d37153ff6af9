package org.leveldbj.examples;

import java.util.Arrays;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Materialized;
import org.leveldbj.kafka.streams.LeveldbStores;

// The rest runs the topology on Kafka's TopologyTestDriver, without a broker.
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.ValueAndTimestamp;

/**
 * A Kafka Streams word count whose counts live in a leveldbj store
 * ({@code LeveldbStores.persistentTimestampedKeyValueStore}) instead of RocksDB, run on
 * {@code TopologyTestDriver} so that no broker is needed. doc/kafka-streams.md's example is this
 * code.
 *
 * <p>Run: {@code KafkaWordCount [directory]}; the state directory is {@code directory/state}.
 */
public final class KafkaWordCount {
    private KafkaWordCount() {
    }

    /**
     * Runs the example.
     *
     * @param args nothing, or the directory to keep the state directory in
     */
    public static void main(String[] args) throws Exception {
        ExampleDirectory.run(args, KafkaWordCount::run);
    }

    static void run(File dir) throws IOException {
        StreamsBuilder builder = new StreamsBuilder();
        builder.<String, String>stream("lines")
               .flatMapValues(line -> Arrays.asList(line.split(" ")))
               .groupBy((key, word) -> word)
               // was: .count(Materialized.as("counts")), a RocksDB store
               .count(Materialized.as(LeveldbStores.persistentTimestampedKeyValueStore("counts")));

        Path stateDir = new File(dir, "state").toPath();
        Properties config = new Properties();
        config.put(StreamsConfig.APPLICATION_ID_CONFIG, "word-count");
        config.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:9092");   // never contacted
        config.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        config.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        config.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        try (TopologyTestDriver driver = new TopologyTestDriver(builder.build(), config)) {
            TestInputTopic<String, String> lines =
                    driver.createInputTopic("lines", new StringSerializer(), new StringSerializer());
            lines.pipeInput("1", "the quick brown fox");
            lines.pipeInput("2", "jumps over the lazy dog");
            lines.pipeInput("3", "the end");

            KeyValueStore<String, ValueAndTimestamp<Long>> counts = driver.getTimestampedKeyValueStore("counts");
            try (KeyValueIterator<String, ValueAndTimestamp<Long>> it = counts.all()) {
                while (it.hasNext()) {
                    KeyValue<String, ValueAndTimestamp<Long>> count = it.next();
                    System.out.println(count.key + " " + count.value.value());
                }
            }
            // The store is a leveldbj database: <state.dir>/<application>/<task>/leveldb/<store>.
            // The walk stops at the store's directory, whose files the open database deletes as
            // it compacts.
            try (Stream<Path> dirs = Files.walk(stateDir, 4)) {
                System.out.println("store: " + dirs.filter(d -> d.endsWith(Path.of("leveldb", "counts")))
                        .filter(d -> Files.exists(d.resolve("CURRENT")))
                        .map(d -> stateDir.relativize(d).toString())
                        .collect(Collectors.joining(", ")));
            }
        }
    }
}
