package org.leveldbj.kafka.streams;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Random;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.state.VersionedBytesStoreSupplier;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.VersionedKeyValueStore;
import org.apache.kafka.streams.state.VersionedRecord;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.leveldbj.testing.SeedExtension;

/**
 * A versioned table joined with a stream, run by Kafka's TopologyTestDriver: the join reads the
 * table as of each stream record's timestamp. The output must equal the same topology's on
 * Kafka's RocksDB versioned store, for random out-of-order table updates, deletes and stream
 * records.
 */
@ExtendWith(SeedExtension.class)
class VersionedTopologyTest {
    private static final Duration RETENTION = Duration.ofMillis(500);

    @TempDir
    Path stateDir;

    private Properties config(String dir) {
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "leveldbj-versioned-topology");
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:9092");
        p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.resolve(dir).toString());
        p.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        p.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        p.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 0);
        return p;
    }

    /** One input event: a table update (value null: a delete) or a stream record. */
    private record Event(boolean table, String key, String value, long timestamp) {
    }

    /** Runs the join on a store; returns the joined records with their timestamps, and checks the store. */
    private List<String> run(VersionedBytesStoreSupplier supplier, List<Event> events, String dir) throws Exception {
        StreamsBuilder builder = new StreamsBuilder();
        KTable<String, String> prices = builder.table("prices",
                Materialized.<String, String>as(supplier).withCachingDisabled());
        builder.<String, String>stream("orders")
                .join(prices, (order, price) -> order + "@" + price)
                .to("priced");
        List<String> out = new ArrayList<>();
        try (TopologyTestDriver driver = new TopologyTestDriver(builder.build(), config(dir))) {
            TestInputTopic<String, String> table = driver.createInputTopic("prices", new StringSerializer(), new StringSerializer());
            TestInputTopic<String, String> stream = driver.createInputTopic("orders", new StringSerializer(), new StringSerializer());
            TestOutputTopic<String, String> priced = driver.createOutputTopic("priced", new StringDeserializer(), new StringDeserializer());
            for (Event e : events) {
                (e.table ? table : stream).pipeInput(e.key, e.value, Instant.ofEpochMilli(e.timestamp));
            }
            for (TestRecord<String, String> r : priced.readRecordsToList()) {
                out.add(r.key() + "=" + r.value() + "@" + r.timestamp());
            }
            VersionedKeyValueStore<String, String> store = driver.getVersionedKeyValueStore("prices-store");
            for (String key : new String[] {"x", "y", "z"}) {
                VersionedRecord<String> latest = store.get(key);
                out.add("latest " + key + "=" + (latest == null ? null : latest.value() + "@" + latest.timestamp()));
            }
            if (supplier instanceof org.leveldbj.kafka.streams.LeveldbVersionedBytesStoreSupplier) {
                assertTrue(StateDirectoryFiles.leveldbStores(stateDir.resolve(dir)).contains("prices-store"),
                        "the table lives in a leveldbj database");
            }
        }
        return out;
    }

    @Test
    void theJoinReadsTheTableAsOfEachStreamRecord() throws Exception {
        List<Event> events = List.of(
                new Event(true, "x", "p1", 100),
                new Event(true, "x", "p2", 200),
                new Event(false, "x", "o1", 150), // late order: the price as of 150
                new Event(false, "x", "o2", 250),
                new Event(true, "x", "p0", 50),   // a late price update
                new Event(false, "x", "o3", 60),
                new Event(true, "x", null, 300),  // deleted at 300
                new Event(false, "x", "o4", 310), // no price: no join
                new Event(false, "x", "o5", 210));
        List<String> expected = List.of("x=o1@p1@150", "x=o2@p2@250", "x=o3@p0@60", "x=o5@p2@210",
                "latest x=null", "latest y=null", "latest z=null");
        assertEquals(expected, run(LeveldbStores.persistentVersionedKeyValueStore("prices-store", RETENTION), events, "ours"));
        assertEquals(expected, run(Stores.persistentVersionedKeyValueStore("prices-store", RETENTION), events, "kafka"));
    }

    @Test
    void randomEventsJoinAsOnKafkasVersionedStore(Random r) throws Exception {
        List<Event> events = new ArrayList<>();
        long time = 1000;
        String[] keys = {"x", "y", "z"};
        for (int i = 0; i < 600; i++) {
            time += r.nextInt(20);
            long ts = Math.max(0, time - r.nextInt(700));
            boolean table = r.nextInt(3) == 0;
            String value = table && r.nextInt(6) == 0 ? null : (table ? "p" : "o") + i;
            events.add(new Event(table, keys[r.nextInt(keys.length)], value, ts));
        }
        List<String> ours = run(LeveldbStores.persistentVersionedKeyValueStore("prices-store", RETENTION), events, "ours");
        List<String> kafka = run(Stores.persistentVersionedKeyValueStore("prices-store", RETENTION), events, "kafka");
        assertEquals(kafka, ours);
        assertTrue(ours.size() > 50, "the join produced " + ours.size() + " records");
    }
}
