package org.leveldbj.kafka.streams;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.TreeMap;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.EmitStrategy;
import org.apache.kafka.streams.kstream.GlobalKTable;
import org.apache.kafka.streams.kstream.JoinWindows;
import org.apache.kafka.streams.kstream.KGroupedStream;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.SessionWindows;
import org.apache.kafka.streams.kstream.SlidingWindows;
import org.apache.kafka.streams.kstream.StreamJoined;
import org.apache.kafka.streams.kstream.TimeWindows;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.state.BuiltInDslStoreSuppliers;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.SessionStore;
import org.apache.kafka.streams.state.WindowStore;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.VersionedBytesStoreSupplier;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.leveldbj.testing.Seed;
import org.leveldbj.testing.SeedExtension;

/**
 * One line of configuration puts every DSL store on leveldbj: a topology using every kind of
 * store the DSL builds through its suppliers (source, global and aggregated tables, table-table
 * and foreign-key joins, cogroup, tumbling, hopping, sliding and emit-on-window-close windows,
 * session windows with both emit strategies, inner and outer stream-stream joins) and a
 * versioned table (named explicitly: versioned tables do not go through the suppliers) runs
 * under {@code TopologyTestDriver} with {@link LeveldbDslStoreSuppliers}, with the record cache
 * on and off. Its outputs and final store contents must equal those of Kafka's in-memory
 * suppliers (and Kafka's own versioned store) on the same random input, and its state directory
 * must hold no RocksDB file.
 */
@ExtendWith(SeedExtension.class)
class DslStoreSuppliersTest {
    private static final Duration HISTORY = Duration.ofMinutes(10);
    /** Outputs of emit-on-window-close operators: compared key by key (see LeveldbDslStoreSuppliers). */
    private static final List<String> PER_KEY_ORDER = List.of("tumbling-eowc-out", "sessions-eowc-out");

    @TempDir
    Path tmp;

    private record Run(Map<String, List<KeyValue<String, String>>> outputs, Map<String, Map<String, String>> stores,
                       List<Path> rocksDbFiles, List<String> leveldbStores) {
    }

    private static String windowed(Windowed<String> w) {
        return w.key() + "@" + w.window().start() + "-" + w.window().end();
    }

    private static Topology topology(VersionedBytesStoreSupplier prices) {
        StreamsBuilder builder = new StreamsBuilder();
        KTable<String, String> users = builder.table("users", Materialized.as("users-store"));
        KTable<String, String> scores = builder.table("scores", Materialized.as("scores-store"));
        KTable<String, String> orders = builder.table("orders", Materialized.as("orders-store"));
        GlobalKTable<String, String> countries = builder.globalTable("countries", Materialized.as("countries-store"));
        KTable<String, String> priceTable = builder.table("prices", Materialized.as(prices));
        KStream<String, String> clicks = builder.stream("clicks");
        KStream<String, String> views = builder.stream("views");

        users.join(scores, (u, s) -> u + ":" + s, Materialized.as("user-scores")).toStream().to("user-scores-out");
        orders.join(users, o -> o.split(":")[0], (o, u) -> o + "/" + u, Materialized.as("orders-users"))
                .toStream().to("orders-users-out");
        clicks.join(countries, (k, v) -> v, (v, c) -> v + "/" + c).to("clicks-countries-out");
        clicks.join(priceTable, (c, p) -> c + "$" + p).to("clicks-prices-out");

        KGroupedStream<String, String> byUser = clicks.groupByKey();
        byUser.count(Materialized.as("click-counts")).toStream().mapValues(String::valueOf).to("click-counts-out");
        byUser.cogroup((String k, String v, String agg) -> agg + "c")
                .cogroup(views.groupByKey(), (k, v, agg) -> agg + "v")
                .aggregate(() -> "", Materialized.as("cogrouped")).toStream().to("cogrouped-out");
        byUser.windowedBy(TimeWindows.ofSizeAndGrace(Duration.ofSeconds(10), Duration.ofSeconds(5)))
                .count(Materialized.as("tumbling")).toStream((w, v) -> windowed(w)).mapValues(String::valueOf)
                .to("tumbling-out");
        byUser.windowedBy(TimeWindows.ofSizeAndGrace(Duration.ofSeconds(10), Duration.ofSeconds(5))
                        .advanceBy(Duration.ofSeconds(5)))
                .count(Materialized.as("hopping")).toStream((w, v) -> windowed(w)).mapValues(String::valueOf)
                .to("hopping-out");
        byUser.windowedBy(SlidingWindows.ofTimeDifferenceAndGrace(Duration.ofSeconds(10), Duration.ofSeconds(5)))
                .count(Materialized.as("sliding")).toStream((w, v) -> windowed(w)).mapValues(String::valueOf)
                .to("sliding-out");
        byUser.windowedBy(TimeWindows.ofSizeAndGrace(Duration.ofSeconds(10), Duration.ofSeconds(2)))
                .emitStrategy(EmitStrategy.onWindowClose())
                // retention beyond size + grace: Kafka's in-memory store (the model) expires a window
                // as it closes and emits none (ours emits them, as Kafka's RocksDB store:
                // EmitOnWindowCloseTest)
                .count(Materialized.<String, Long, WindowStore<Bytes, byte[]>>as("tumbling-eowc")
                        .withRetention(Duration.ofSeconds(30)))
                .toStream((w, v) -> windowed(w)).mapValues(String::valueOf)
                .to("tumbling-eowc-out");
        byUser.windowedBy(SessionWindows.ofInactivityGapAndGrace(Duration.ofSeconds(5), Duration.ofSeconds(2)))
                .count(Materialized.as("sessions")).toStream((w, v) -> windowed(w))
                .mapValues(v -> v == null ? null : String.valueOf(v)).to("sessions-out");
        byUser.windowedBy(SessionWindows.ofInactivityGapAndGrace(Duration.ofSeconds(5), Duration.ofSeconds(2)))
                .emitStrategy(EmitStrategy.onWindowClose())
                // retention beyond gap + grace, or a session expires as it closes and none is emitted
                .count(Materialized.<String, Long, SessionStore<Bytes, byte[]>>as("sessions-eowc")
                        .withRetention(Duration.ofSeconds(30)))
                .toStream((w, v) -> windowed(w))
                .mapValues(v -> v == null ? null : String.valueOf(v)).to("sessions-eowc-out");
        clicks.join(views, (c, v) -> c + "+" + v, JoinWindows.ofTimeDifferenceAndGrace(Duration.ofSeconds(5),
                Duration.ofSeconds(2)), StreamJoined.as("inner-join")).to("inner-join-out");
        clicks.outerJoin(views, (c, v) -> c + "+" + v, JoinWindows.ofTimeDifferenceAndGrace(Duration.ofSeconds(5),
                Duration.ofSeconds(2)), StreamJoined.as("outer-join")).to("outer-join-out");
        return builder.build();
    }

    private static final List<String> OUTPUTS = List.of("user-scores-out", "orders-users-out", "clicks-countries-out",
            "clicks-prices-out", "click-counts-out", "cogrouped-out", "tumbling-out", "hopping-out", "sliding-out",
            "tumbling-eowc-out", "sessions-out", "sessions-eowc-out", "inner-join-out", "outer-join-out");

    private Run run(Class<?> suppliers, VersionedBytesStoreSupplier prices, boolean caching, long seed, Path stateDir)
            throws IOException {
        Properties p = StoreFixture.driverConfig("dsl-suppliers-test", stateDir, suppliers, caching);
        Random random = new Random(seed);
        try (TopologyTestDriver driver = new TopologyTestDriver(topology(prices), p)) {
            StringSerializer s = new StringSerializer();
            Map<String, TestInputTopic<String, String>> in = new LinkedHashMap<>();
            for (String topic : List.of("users", "scores", "orders", "countries", "prices", "clicks", "views")) {
                in.put(topic, driver.createInputTopic(topic, s, s));
            }
            long time = 1_000_000;
            for (int i = 0; i < 600; i++) {
                time += random.nextInt(1_500);
                // now and then a record a little late (within the grace periods, or not)
                long at = random.nextInt(10) == 0 ? time - random.nextInt(6_000) : time;
                String user = "u" + random.nextInt(8);
                switch (random.nextInt(9)) {
                    case 0 -> in.get("users").pipeInput(user, random.nextInt(12) == 0 ? null : "name" + i, at);
                    case 1 -> in.get("scores").pipeInput(user, "s" + i, at);
                    case 2 -> in.get("orders").pipeInput("o" + random.nextInt(20), user + ":" + i, at);
                    case 3 -> in.get("countries").pipeInput("c" + random.nextInt(4), "country" + i, at);
                    case 4 -> in.get("prices").pipeInput(user, "p" + i, at);
                    case 5, 6 -> in.get("clicks").pipeInput(user, "c" + random.nextInt(4), at);
                    default -> in.get("views").pipeInput(user, "v" + i, at);
                }
            }
            Map<String, List<KeyValue<String, String>>> outputs = new LinkedHashMap<>();
            StringDeserializer d = new StringDeserializer();
            for (String topic : OUTPUTS) {
                outputs.put(topic, driver.createOutputTopic(topic, d, d).readKeyValuesToList());
            }
            Map<String, Map<String, String>> stores = new LinkedHashMap<>();
            for (String name : List.of("users-store", "scores-store", "orders-store", "user-scores", "orders-users",
                    "click-counts", "cogrouped")) {
                Map<String, String> contents = new TreeMap<>();
                try (KeyValueIterator<String, ?> it = driver.<String, Object>getTimestampedKeyValueStore(name).all()) {
                    it.forEachRemaining(kv -> contents.put(kv.key, String.valueOf(kv.value)));
                }
                stores.put(name, contents);
            }
            // (not "tumbling-eowc": its store keeps a window starting at streamTime - retention, as
            // Kafka's RocksDB store for emit-on-window-close does, and the model does not; its
            // output is compared)
            for (String name : List.of("tumbling", "hopping", "sliding")) {
                Map<String, String> contents = new TreeMap<>();
                try (KeyValueIterator<Windowed<String>, ?> it = driver.<String, Object>getTimestampedWindowStore(name).all()) {
                    it.forEachRemaining(kv -> contents.put(windowed(kv.key), String.valueOf(kv.value)));
                }
                stores.put(name, contents);
            }
            for (String name : List.of("sessions", "sessions-eowc")) {
                Map<String, String> contents = new TreeMap<>();
                try (KeyValueIterator<Windowed<String>, Long> it = driver.<String, Long>getSessionStore(name)
                        .findSessions(null, null, 0, Long.MAX_VALUE)) {
                    it.forEachRemaining(kv -> contents.put(windowed(kv.key), String.valueOf(kv.value)));
                }
                stores.put(name, contents);
            }
            // The driver deletes its state directory when it closes: look while it runs.
            return new Run(outputs, stores, StateDirectoryFiles.rocksDbFiles(stateDir), StateDirectoryFiles.leveldbStores(stateDir));
        }
    }

    private static Map<String, List<String>> byKey(List<KeyValue<String, String>> records) {
        Map<String, List<String>> out = new TreeMap<>();
        for (KeyValue<String, String> r : records) {
            out.computeIfAbsent(r.key, k -> new ArrayList<>()).add(r.value);
        }
        return out;
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void everyDslStoreIsOursAndAgreesWithKafkasInMemoryStores(boolean caching, @Seed long seed) throws IOException {
        Run ours = run(LeveldbDslStoreSuppliers.class,
                LeveldbStores.persistentVersionedKeyValueStore("prices-store", HISTORY), caching, seed, tmp.resolve("ours"));
        Run kafkas = run(BuiltInDslStoreSuppliers.InMemoryDslStoreSuppliers.class,
                Stores.persistentVersionedKeyValueStore("prices-store", HISTORY), caching, seed, tmp.resolve("kafka"));
        for (String topic : OUTPUTS) {
            assertTrue(!kafkas.outputs().get(topic).isEmpty(), topic + " had no output");
            if (topic.endsWith("-eowc-out")) {
                // Kafka's in-memory stores can expire a closed window or session before it is
                // emitted; ours keep it as Kafka's RocksDB stores do (EmitOnWindowCloseTest), so
                // ours emit every final result the model emits, and may emit more
                Map<String, List<String>> emitted = byKey(ours.outputs().get(topic));
                byKey(kafkas.outputs().get(topic)).forEach((window, values) ->
                        assertEquals(values, emitted.get(window), topic + " " + window));
            } else if (PER_KEY_ORDER.contains(topic)) {
                assertEquals(byKey(kafkas.outputs().get(topic)), byKey(ours.outputs().get(topic)), topic);
            } else {
                assertEquals(kafkas.outputs().get(topic), ours.outputs().get(topic), topic);
            }
        }
        assertEquals(kafkas.stores(), ours.stores());
        assertEquals(List.of(), ours.rocksDbFiles(), "no RocksDB file in the state directory");
        for (String store : List.of("users-store", "click-counts", "tumbling", "sliding", "sessions", "sessions-eowc",
                "inner-join-this-join-store", "prices-store")) {
            assertTrue(ours.leveldbStores().stream().anyMatch(s -> s.startsWith(store)),
                    store + " is a leveldbj database: " + ours.leveldbStores());
        }
    }
}
