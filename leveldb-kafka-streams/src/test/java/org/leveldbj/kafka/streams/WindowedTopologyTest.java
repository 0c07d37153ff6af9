package org.leveldbj.kafka.streams;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Properties;
import java.util.Random;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.EmitStrategy;
import org.apache.kafka.streams.kstream.JoinWindows;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.SessionWindows;
import org.apache.kafka.streams.kstream.SlidingWindows;
import org.apache.kafka.streams.kstream.StreamJoined;
import org.apache.kafka.streams.kstream.TimeWindows;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.SessionBytesStoreSupplier;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.ValueAndTimestamp;
import org.apache.kafka.streams.state.WindowBytesStoreSupplier;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.leveldbj.testing.SeedExtension;

/**
 * Windowed DSL topologies on leveldbj window and session stores, run by Kafka's
 * TopologyTestDriver against the same topologies on Kafka's in-memory stores: a tumbling and a
 * hopping window count, a sliding window count, a session window count (emitting every update,
 * and emitting final results on window close) and a stream-stream join
 * (window stores retaining duplicates), with record caching on and off. The output records
 * (key, value, timestamp, in order) and the stores' final contents must be the same.
 */
@ExtendWith(SeedExtension.class)
class WindowedTopologyTest {
    private static final Duration SIZE = Duration.ofSeconds(10);
    private static final Duration GRACE = Duration.ofSeconds(5);

    @TempDir
    Path stateDir;

    /** Makes the stores of one run. */
    private interface StoreKind {
        WindowBytesStoreSupplier window(String name, Duration retention, Duration size, boolean duplicates);

        SessionBytesStoreSupplier session(String name, Duration retention);
    }

    private static final StoreKind LEVELDBJ = new StoreKind() {
        @Override
        public WindowBytesStoreSupplier window(String name, Duration retention, Duration size, boolean duplicates) {
            return duplicates ? LeveldbStores.persistentWindowStore(name, retention, size, true)
                    : LeveldbStores.persistentTimestampedWindowStore(name, retention, size, false);
        }

        @Override
        public SessionBytesStoreSupplier session(String name, Duration retention) {
            return LeveldbStores.persistentSessionStore(name, retention);
        }
    };

    private static final StoreKind IN_MEMORY = new StoreKind() {
        @Override
        public WindowBytesStoreSupplier window(String name, Duration retention, Duration size, boolean duplicates) {
            return Stores.inMemoryWindowStore(name, retention, size, duplicates);
        }

        @Override
        public SessionBytesStoreSupplier session(String name, Duration retention) {
            return Stores.inMemorySessionStore(name, retention);
        }
    };

    private static String show(Windowed<String> k) {
        return k.key() + "@" + k.window().start() + "-" + k.window().end();
    }

    /** What one run produced: the output records, then the stores' contents (sorted). */
    private List<String> run(StoreKind kind, boolean caching, List<TestRecord<String, String>> left,
                             List<TestRecord<String, String>> right, Path dir) {
        StreamsBuilder builder = new StreamsBuilder();
        KStream<String, String> events = builder.stream("left");
        KStream<String, String> others = builder.stream("right");
        Duration retention = SIZE.plus(GRACE);
        events.groupByKey().windowedBy(TimeWindows.ofSizeAndGrace(SIZE, GRACE))
                .count(Materialized.as(kind.window("tumbling", retention, SIZE, false)))
                .toStream((k, v) -> "tumbling " + show(k)).mapValues(String::valueOf).to("out");
        events.groupByKey().windowedBy(TimeWindows.ofSizeAndGrace(SIZE, GRACE).advanceBy(Duration.ofSeconds(5)))
                .count(Materialized.as(kind.window("hopping", retention, SIZE, false)))
                .toStream((k, v) -> "hopping " + show(k)).mapValues(String::valueOf).to("out");
        events.groupByKey().windowedBy(SlidingWindows.ofTimeDifferenceAndGrace(Duration.ofSeconds(5), GRACE))
                .count(Materialized.as(kind.window("sliding", Duration.ofSeconds(20), Duration.ofSeconds(5), false)))
                .toStream((k, v) -> "sliding " + show(k)).mapValues(String::valueOf).to("out");
        KTable<Windowed<String>, Long> sessions = events.groupByKey()
                .windowedBy(SessionWindows.ofInactivityGapAndGrace(Duration.ofSeconds(3), GRACE))
                .count(Materialized.as(kind.session("sessions", Duration.ofSeconds(8))));
        sessions.toStream((k, v) -> "session " + show(k)).mapValues(v -> String.valueOf(v)).to("out");
        events.groupByKey()
                .windowedBy(SessionWindows.ofInactivityGapAndGrace(Duration.ofSeconds(3), GRACE))
                .emitStrategy(EmitStrategy.onWindowClose())
                .count(Materialized.as(kind.session("sessions-final", Duration.ofSeconds(20))))
                .toStream((k, v) -> "final session " + show(k)).mapValues(v -> String.valueOf(v)).to("out");
        JoinWindows join = JoinWindows.ofTimeDifferenceAndGrace(Duration.ofSeconds(2), Duration.ofSeconds(1));
        Duration joinSize = Duration.ofMillis(join.size());
        Duration joinRetention = Duration.ofMillis(join.size() + join.gracePeriodMs());
        events.join(others, (a, b) -> a + "+" + b, join,
                StreamJoined.<String, String, String>with(kind.window("join-this", joinRetention, joinSize, true),
                        kind.window("join-other", joinRetention, joinSize, true)))
                .selectKey((k, v) -> "join " + k).to("out");

        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "leveldbj-windowed-test");
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:9092");
        p.put(StreamsConfig.STATE_DIR_CONFIG, dir.toString());
        p.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        p.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        p.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, caching ? 10 << 20 : 0);
        // Final results are emitted at most this often (wall-clock), which the driver does not advance.
        p.put(StreamsConfig.InternalConfig.EMIT_INTERVAL_MS_KSTREAMS_WINDOWED_AGGREGATION, 0L);
        List<String> out = new ArrayList<>();
        try (TopologyTestDriver driver = new TopologyTestDriver(builder.build(), p)) {
            TestInputTopic<String, String> l = driver.createInputTopic("left", new StringSerializer(), new StringSerializer());
            TestInputTopic<String, String> r = driver.createInputTopic("right", new StringSerializer(), new StringSerializer());
            for (int i = 0; i < left.size(); i++) {
                l.pipeInput(left.get(i));
                r.pipeInput(right.get(i));
            }
            for (TestRecord<String, String> rec : driver.createOutputTopic("out", new StringDeserializer(),
                    new StringDeserializer()).readRecordsToList()) {
                out.add(rec.key() + " = " + rec.value() + " @" + rec.timestamp());
            }
            List<String> contents = new ArrayList<>();
            for (String store : new String[] {"tumbling", "hopping", "sliding"}) {
                try (KeyValueIterator<Windowed<String>, ValueAndTimestamp<Long>> it =
                             driver.<String, Long>getTimestampedWindowStore(store).all()) {
                    it.forEachRemaining(kv -> contents.add(store + " " + show(kv.key) + " = " + kv.value));
                }
            }
            try (KeyValueIterator<Windowed<String>, Long> it =
                         driver.<String, Long>getSessionStore("sessions").fetch(null, null)) {
                it.forEachRemaining(kv -> contents.add("session " + show(kv.key) + " = " + kv.value));
            }
            Collections.sort(contents);
            out.add("-- stores --");
            out.addAll(contents);
        }
        return out;
    }

    private static List<TestRecord<String, String>> input(Random r, String prefix) {
        List<TestRecord<String, String>> records = new ArrayList<>();
        long t = 1_000_000;
        for (int i = 0; i < 300; i++) {
            t += r.nextInt(2500);
            long ts = r.nextInt(6) == 0 ? t - r.nextInt(12_000) : t; // some late, some too late
            records.add(new TestRecord<>("k" + r.nextInt(4), prefix + i, Instant.ofEpochMilli(ts)));
        }
        return records;
    }

    @Test
    void windowedTopologiesMatchTheInMemoryStores(Random r) {
        List<TestRecord<String, String>> left = input(r, "l");
        List<TestRecord<String, String>> right = input(r, "r");
        for (boolean caching : new boolean[] {false, true}) {
            List<String> expected = run(IN_MEMORY, caching, left, right, stateDir.resolve("memory-" + caching));
            List<String> actual = run(LEVELDBJ, caching, left, right, stateDir.resolve("leveldbj-" + caching));
            assertFalse(expected.size() < 100, "the topologies produce output: " + expected.size());
            assertFalse(expected.stream().noneMatch(line -> line.startsWith("final session ")), "final sessions emitted");
            assertEquals(expected, actual, "caching " + caching);
        }
    }
}
