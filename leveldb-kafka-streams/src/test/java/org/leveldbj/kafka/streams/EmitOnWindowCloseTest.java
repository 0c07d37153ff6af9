package org.leveldbj.kafka.streams;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Properties;
import java.util.Random;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.EmitStrategy;
import org.apache.kafka.streams.kstream.KGroupedStream;
import org.apache.kafka.streams.kstream.SessionWindows;
import org.apache.kafka.streams.kstream.SlidingWindows;
import org.apache.kafka.streams.kstream.TimeWindows;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.state.BuiltInDslStoreSuppliers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.leveldbj.testing.Seed;
import org.leveldbj.testing.SeedExtension;

/**
 * Emit-on-window-close aggregations on {@link LeveldbDslStoreSuppliers} with the DSL's default
 * retention (window size or inactivity gap plus grace): a window closes at the stream time at
 * which a store with exactly that retention expires it, so the suppliers' stores keep what these
 * aggregations emit as Kafka's time-ordered RocksDB stores do (windows one millisecond longer, the
 * query of closed sessions answered from every segment not yet removed). Tumbling, hopping, sliding and session windows, with the record cache
 * off and on, on random input with late records, must emit the same final results as on Kafka's
 * RocksDB suppliers (the order across keys may differ: ours close segment by segment), and some.
 */
@ExtendWith(SeedExtension.class)
class EmitOnWindowCloseTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void finalResultsAsOnKafkasRocksDbStores(boolean caching, @Seed long seed) {
        List<String> ours = run(LeveldbDslStoreSuppliers.class, caching, seed, dir.resolve("ours"));
        List<String> rocks = run(BuiltInDslStoreSuppliers.RocksDBDslStoreSuppliers.class, caching, seed,
                dir.resolve("rocksdb"));
        for (String kind : List.of("tumbling ", "hopping ", "sliding ", "session ")) {
            assertTrue(rocks.stream().anyMatch(r -> r.startsWith(kind)), "Kafka's stores emit " + kind + rocks);
        }
        Collections.sort(ours);
        Collections.sort(rocks);
        assertEquals(rocks, ours);
    }

    @Test
    void windowStoresKeepWindowsOneMillisecondLongerForEmitOnWindowCloseOnly() {
        EmitStrategy close = EmitStrategy.onWindowClose();
        EmitStrategy update = EmitStrategy.onWindowUpdate();
        assertEquals(Duration.ofSeconds(12), LeveldbDslStoreSuppliers.windowRetention(Duration.ofSeconds(12), update));
        assertEquals(Duration.ofSeconds(12), LeveldbDslStoreSuppliers.windowRetention(Duration.ofSeconds(12), null));
        assertEquals(Duration.ofMillis(12_001), LeveldbDslStoreSuppliers.windowRetention(Duration.ofSeconds(12), close));
        assertEquals(Duration.ofMillis(Long.MAX_VALUE),
                LeveldbDslStoreSuppliers.windowRetention(Duration.ofMillis(Long.MAX_VALUE), close));
        assertEquals(Duration.ofMillis(-1), LeveldbDslStoreSuppliers.windowRetention(Duration.ofMillis(-1), close));
    }

    private static List<String> run(Class<?> suppliers, boolean caching, long seed, Path stateDir) {
        StreamsBuilder builder = new StreamsBuilder();
        KGroupedStream<String, String> events = builder.<String, String>stream("events").groupByKey();
        events.windowedBy(TimeWindows.ofSizeAndGrace(Duration.ofSeconds(10), Duration.ofSeconds(2)))
                .emitStrategy(EmitStrategy.onWindowClose()).count()
                .toStream((w, v) -> "tumbling " + show(w)).mapValues(String::valueOf).to("out");
        events.windowedBy(TimeWindows.ofSizeWithNoGrace(Duration.ofSeconds(10)).advanceBy(Duration.ofSeconds(5)))
                .emitStrategy(EmitStrategy.onWindowClose()).count()
                .toStream((w, v) -> "hopping " + show(w)).mapValues(String::valueOf).to("out");
        events.windowedBy(SlidingWindows.ofTimeDifferenceAndGrace(Duration.ofSeconds(5), Duration.ofSeconds(1)))
                .emitStrategy(EmitStrategy.onWindowClose()).count()
                .toStream((w, v) -> "sliding " + show(w)).mapValues(String::valueOf).to("out");
        events.windowedBy(SessionWindows.ofInactivityGapAndGrace(Duration.ofSeconds(3), Duration.ofSeconds(1)))
                .emitStrategy(EmitStrategy.onWindowClose()).count()
                .toStream((w, v) -> "session " + show(w)).mapValues(String::valueOf).to("out");

        Properties p = StoreFixture.driverConfig("eowc-test", stateDir, suppliers, caching);
        Random random = new Random(seed);
        List<String> out = new ArrayList<>();
        try (TopologyTestDriver driver = new TopologyTestDriver(builder.build(), p)) {
            TestInputTopic<String, String> in = driver.createInputTopic("events", new StringSerializer(),
                    new StringSerializer());
            long time = 0;
            for (int i = 0; i < 400; i++) {
                time += random.nextInt(1_500);
                long at = random.nextInt(8) == 0 ? Math.max(0, time - random.nextInt(4_000)) : time;
                in.pipeInput("k" + random.nextInt(4), "v" + i, at);
            }
            driver.createOutputTopic("out", new StringDeserializer(), new StringDeserializer()).readRecordsToList()
                    .forEach(r -> out.add(r.key() + " = " + r.value() + " @" + r.timestamp()));
        }
        return out;
    }

    private static String show(Windowed<String> w) {
        return w.key() + "@" + w.window().start() + "/" + w.window().end();
    }
}
