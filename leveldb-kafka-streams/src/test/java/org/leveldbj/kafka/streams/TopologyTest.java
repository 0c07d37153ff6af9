package org.leveldbj.kafka.streams;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import org.apache.kafka.common.serialization.LongDeserializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.ValueAndTimestamp;
import org.iq80.leveldb.Cache;
import org.iq80.leveldb.Options;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.leveldbj.db.LevelDbFactory;

/** DSL and Processor API topologies on leveldbj stores, run by Kafka's TopologyTestDriver. */
class TopologyTest {
    @TempDir
    Path stateDir;

    private Properties config() {
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "leveldbj-topology-test");
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:9092");
        p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        p.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        p.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        return p;
    }

    @Test
    void wordCountKeepsItsCountsInLeveldbj() throws Exception {
        StreamsBuilder builder = new StreamsBuilder();
        builder.<String, String>stream("lines")
                .flatMapValues(line -> Arrays.asList(line.toLowerCase(Locale.ROOT).split("\\W+")))
                .groupBy((key, word) -> word)
                .count(Materialized.as(LeveldbStores.persistentTimestampedKeyValueStore("counts")))
                .toStream()
                .to("counts", Produced.with(Serdes.String(), Serdes.Long()));
        Map<String, Long> expected = new TreeMap<>();
        String[] lines = {"the quick brown fox", "the lazy dog", "The dog barks", "fox and dog"};
        for (String line : lines) {
            for (String w : line.toLowerCase(Locale.ROOT).split("\\W+")) {
                expected.merge(w, 1L, Long::sum);
            }
        }
        Topology topology = builder.build();
        try (TopologyTestDriver driver = new TopologyTestDriver(topology, config())) {
            TestInputTopic<String, String> in = driver.createInputTopic("lines", new StringSerializer(), new StringSerializer());
            TestOutputTopic<String, Long> out = driver.createOutputTopic("counts", new StringDeserializer(), new LongDeserializer());
            for (String line : lines) {
                in.pipeInput(null, line);
            }
            assertEquals(expected, new TreeMap<>(out.readKeyValuesToMap()));
            KeyValueStore<String, ValueAndTimestamp<Long>> counts = driver.getTimestampedKeyValueStore("counts");
            Map<String, Long> stored = new TreeMap<>();
            try (KeyValueIterator<String, ValueAndTimestamp<Long>> it = counts.all()) {
                it.forEachRemaining(kv -> stored.put(kv.key, kv.value.value()));
            }
            assertEquals(expected, stored);
            // (The driver deletes its state directory when it closes: look while it runs.)
            // (A walk that tolerates the files the running store's compactions delete.)
            assertTrue(StateDirectoryFiles.leveldbStores(stateDir).contains("counts"),
                    "the counts live in a leveldbj database under the state directory");
        }
    }

    @Test
    void aTableJoinReadsBothLeveldbjTables() {
        StreamsBuilder builder = new StreamsBuilder();
        KTable<String, String> users = builder.table("users",
                Materialized.as(LeveldbStores.persistentTimestampedKeyValueStore("users")));
        KTable<String, String> cities = builder.table("cities",
                Materialized.as(LeveldbStores.persistentTimestampedKeyValueStore("cities")));
        users.join(cities, (name, city) -> name + "@" + city,
                        Materialized.as(LeveldbStores.persistentTimestampedKeyValueStore("joined")))
                .toStream().to("joined");
        try (TopologyTestDriver driver = new TopologyTestDriver(builder.build(), config())) {
            TestInputTopic<String, String> u = driver.createInputTopic("users", new StringSerializer(), new StringSerializer());
            TestInputTopic<String, String> c = driver.createInputTopic("cities", new StringSerializer(), new StringSerializer());
            TestOutputTopic<String, String> out = driver.createOutputTopic("joined", new StringDeserializer(), new StringDeserializer());
            u.pipeInput("1", "ada");
            u.pipeInput("2", "bob");
            c.pipeInput("1", "london");
            c.pipeInput("2", "paris");
            u.pipeInput("2", "bea");
            c.pipeInput("1", (String) null);
            List<KeyValue<String, String>> records = out.readKeyValuesToList();
            assertEquals(List.of(KeyValue.pair("1", "ada@london"), KeyValue.pair("2", "bob@paris"),
                    KeyValue.pair("2", "bea@paris"), KeyValue.pair("1", null)), records);
            KeyValueStore<String, ValueAndTimestamp<String>> joined = driver.getTimestampedKeyValueStore("joined");
            assertEquals("bea@paris", joined.get("2").value());
            assertEquals(null, joined.get("1"));
        }
    }

    @Test
    void reduceAndAggregateKeepTheirResultsInLeveldbj() {
        StreamsBuilder builder = new StreamsBuilder();
        var amounts = builder.<String, String>stream("payments").mapValues((String v) -> Long.valueOf(v)).groupByKey(
                org.apache.kafka.streams.kstream.Grouped.with(Serdes.String(), Serdes.Long()));
        amounts.reduce(Long::sum, Materialized.<String, Long>as(LeveldbStores.persistentTimestampedKeyValueStore("totals"))
                .withValueSerde(Serdes.Long()));
        amounts.aggregate(() -> "", (user, amount, seen) -> seen.isEmpty() ? amount.toString() : seen + "," + amount,
                Materialized.<String, String>as(LeveldbStores.persistentTimestampedKeyValueStore("history"))
                        .withValueSerde(Serdes.String()));
        try (TopologyTestDriver driver = new TopologyTestDriver(builder.build(), config())) {
            TestInputTopic<String, String> in = driver.createInputTopic("payments", new StringSerializer(), new StringSerializer());
            in.pipeInput("ann", "5");
            in.pipeInput("bo", "7");
            in.pipeInput("ann", "10");
            in.pipeInput("ann", "1");
            assertEquals(16L, driver.<String, Long>getTimestampedKeyValueStore("totals").get("ann").value());
            assertEquals(7L, driver.<String, Long>getTimestampedKeyValueStore("totals").get("bo").value());
            assertEquals("5,10,1", driver.<String, String>getTimestampedKeyValueStore("history").get("ann").value());
        }
    }

    /** Counts per key in a store the processor owns, forwarding each new count. */
    private static final class Counter implements Processor<String, String, String, Long> {
        private KeyValueStore<String, Long> counts;
        private ProcessorContext<String, Long> context;

        @Override
        public void init(ProcessorContext<String, Long> context) {
            this.context = context;
            this.counts = context.getStateStore("per-key");
        }

        @Override
        public void process(Record<String, String> record) {
            long n = counts.get(record.key()) == null ? 1 : counts.get(record.key()) + 1;
            counts.put(record.key(), n);
            context.forward(record.withValue(n));
        }
    }

    /** Records the options every store of the application is opened with. */
    public static final class BloomAndBiggerBuffer implements LeveldbConfigSetter {
        static final Map<String, Options> SEEN = new java.util.concurrent.ConcurrentHashMap<>();
        /** One block cache for every store of the application. */
        static final Cache SHARED = LevelDbFactory.newCache(16 << 20);

        @Override
        public void setConfig(String storeName, Options options, Map<String, Object> configs) {
            options.writeBufferSize(8 << 20).filterPolicy(org.iq80.leveldb.FilterPolicy.bloom(10)).cache(SHARED);
            SEEN.put(storeName, options);
        }
    }

    @Test
    void aProcessorApiStoreWithAConfigSetter() {
        Topology topology = new Topology();
        topology.addSource("in", new StringDeserializer(), new StringDeserializer(), "events");
        topology.addProcessor("count", Counter::new, "in");
        topology.addStateStore(Stores.keyValueStoreBuilder(LeveldbStores.persistentKeyValueStore("per-key"),
                Serdes.String(), Serdes.Long()), "count");
        topology.addSink("out", "per-key-counts", new StringSerializer(), new org.apache.kafka.common.serialization.LongSerializer(), "count");
        Properties p = config();
        p.put(LeveldbConfigSetter.CONFIG, BloomAndBiggerBuffer.class.getName());
        try (TopologyTestDriver driver = new TopologyTestDriver(topology, p)) {
            TestInputTopic<String, String> in = driver.createInputTopic("events", new StringSerializer(), new StringSerializer());
            TestOutputTopic<String, Long> out = driver.createOutputTopic("per-key-counts", new StringDeserializer(), new LongDeserializer());
            for (String k : new String[] {"a", "b", "a", "a", "c", "b"}) {
                in.pipeInput(k, "x");
            }
            assertEquals(List.of(1L, 1L, 2L, 3L, 1L, 2L), out.readValuesToList());
            KeyValueStore<String, Long> store = driver.getKeyValueStore("per-key");
            assertEquals(3L, store.get("a"));
            assertEquals(8 << 20, BloomAndBiggerBuffer.SEEN.get("per-key").writeBufferSize(), "the setter's options were used");
            assertSame(BloomAndBiggerBuffer.SHARED, BloomAndBiggerBuffer.SEEN.get("per-key").cache());
            Map<String, Object> gauges = new TreeMap<>();
            driver.metrics().forEach((metricName, metric) -> {
                if ("per-key".equals(metricName.tags().get("leveldbj-state-id"))) {
                    gauges.put(metricName.name(), metric.metricValue());
                }
            });
            for (String gauge : new String[] {"total-sst-files-size", "size-all-mem-tables", "number-of-files",
                    "compactions-total", "compaction-bytes-written-total"}) {
                assertTrue(gauges.containsKey(gauge), gauge + " in " + gauges);
            }
            assertTrue((Long) gauges.get("size-all-mem-tables") > 0, "the memtable holds the counts: " + gauges);
        }
    }
}
