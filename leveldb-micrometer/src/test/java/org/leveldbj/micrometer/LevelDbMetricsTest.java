package org.leveldbj.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.leveldbj.db.LevelDbFactory.bytes;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Set;
import java.util.stream.Collectors;
import org.iq80.leveldb.ExtendedDB;
import org.iq80.leveldb.Metric;
import org.iq80.leveldb.Options;
import org.iq80.leveldb.Statistics;
import org.junit.jupiter.api.Test;
import org.leveldbj.db.LevelDbFactory;
import org.leveldbj.testing.MemEnv;

/** The binder publishes every figure under Micrometer's conventions, with the database's values. */
class LevelDbMetricsTest {
    private final MemEnv env = new MemEnv();

    private ExtendedDB open(String dir) throws IOException {
        return LevelDbFactory.factory.open(Path.of(dir).toFile(), new Options().env(env));
    }

    @Test
    void everyFigureIsAMeterWithTheDatabasesValue() throws IOException {
        MeterRegistry registry = new SimpleMeterRegistry();
        try (ExtendedDB db = open("/orders")) {
            new LevelDbMetrics(db, "orders", Tags.of("service", "checkout")).bindTo(registry);
            for (int i = 0; i < 100; i++) {
                db.put(bytes("key" + i), bytes("value" + i));
            }
            db.delete(bytes("key1"));
            db.get(bytes("key2"));
            db.get(bytes("missing"));
            db.flushMemTable();

            assertEquals(100, counter(registry, "leveldb.keys.written"));
            assertEquals(1, counter(registry, "leveldb.keys.deleted"));
            assertEquals(2, counter(registry, "leveldb.gets"));
            assertEquals(1, counter(registry, "leveldb.keys.read"));
            assertEquals(1, counter(registry, "leveldb.flushes"));
            Statistics stats = db.statistics();
            assertEquals(stats.get(Metric.FLUSH_BYTES_WRITTEN), counter(registry, "leveldb.flush.bytes.written"));
            for (int level = 0; level < Statistics.LEVELS; level++) {
                assertEquals(stats.get(Metric.LEVEL_BYTES, level), registry.get("leveldb.level.bytes")
                        .tag("database", "orders").tag("level", Integer.toString(level)).gauge().value());
            }
            assertEquals(1, registry.get("leveldb.level.files").gauges().stream().mapToDouble(g -> g.value()).sum());

            Meter written = registry.get("leveldb.flush.bytes.written").meter();
            assertEquals("bytes", written.getId().getBaseUnit());
            assertEquals(Meter.Type.COUNTER, written.getId().getType());
            assertEquals("checkout", written.getId().getTag("service"));
            assertEquals("seconds", registry.get("leveldb.stall.memtable.time").meter().getId().getBaseUnit());
            assertEquals(Meter.Type.GAUGE, registry.get("leveldb.memtable.bytes").meter().getId().getType());

            Set<String> names = registry.getMeters().stream().map(m -> m.getId().getName()).collect(Collectors.toSet());
            for (Metric m : Metric.values()) {
                assertTrue(names.contains("leveldb." + m.key()), m.key());
            }
            long perLevel = java.util.Arrays.stream(Metric.values()).filter(Metric::perLevel).count();
            assertEquals(Metric.values().length + perLevel * (Statistics.LEVELS - 1), registry.getMeters().size());
        }
        assertTrue(Double.isNaN(counter(registry, "leveldb.keys.written")), "a closed database reads NaN");
    }

    @Test
    void twoDatabasesAreTwoSetsOfMeters() throws IOException {
        MeterRegistry registry = new SimpleMeterRegistry();
        try (ExtendedDB a = open("/a"); ExtendedDB b = open("/b")) {
            new LevelDbMetrics(a, "a").bindTo(registry);
            new LevelDbMetrics(b, "b").bindTo(registry);
            a.put(bytes("k"), bytes("v"));
            assertEquals(1, registry.get("leveldb.keys.written").tag("database", "a").functionCounter().count());
            assertEquals(0, registry.get("leveldb.keys.written").tag("database", "b").functionCounter().count());
        }
    }

    private static double counter(MeterRegistry registry, String name) {
        return registry.get(name).tag("database", "orders").functionCounter().count();
    }
}
