package org.leveldbj.micrometer;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.BaseUnits;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.Objects;
import java.util.function.ToDoubleFunction;
import org.iq80.leveldb.DBException;
import org.iq80.leveldb.ExtendedDB;
import org.iq80.leveldb.Metric;
import org.iq80.leveldb.Statistics;

/**
 * Publishes a database's statistics as Micrometer meters: one per {@link Metric} (per level for
 * per-level figures), named {@code "leveldb." + metric.key()} and tagged with the database's
 * name; see the package documentation for the conventions.
 *
 * <pre>{@code
 * new LevelDbMetrics(db, "orders", Tags.of("service", "checkout")).bindTo(registry);
 * registry.get("leveldb.keys.written").tag("database", "orders").functionCounter().count();
 * }</pre>
 *
 * <p>Thread safety: immutable; see the package documentation.
 */
public final class LevelDbMetrics implements MeterBinder {
    /** The tag naming the database. */
    public static final String DATABASE_TAG = "database";
    /** The tag naming the level of a per-level figure. */
    public static final String LEVEL_TAG = "level";
    /** The prefix of every meter name. */
    public static final String PREFIX = "leveldb.";

    private final ExtendedDB db;
    private final Tags tags;

    /**
     * A binder for a database, tagged with its name.
     *
     * @param db the database (from {@code LevelDbFactory.factory.open})
     * @param name the value of the {@value #DATABASE_TAG} tag
     */
    public LevelDbMetrics(ExtendedDB db, String name) {
        this(db, name, Tags.empty());
    }

    /**
     * A binder for a database, tagged with its name and further tags.
     *
     * @param db the database (from {@code LevelDbFactory.factory.open})
     * @param name the value of the {@value #DATABASE_TAG} tag
     * @param tags further tags of every meter
     */
    public LevelDbMetrics(ExtendedDB db, String name, Iterable<Tag> tags) {
        this.db = Objects.requireNonNull(db, "db");
        this.tags = Tags.concat(tags, DATABASE_TAG, Objects.requireNonNull(name, "name"));
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        for (Metric m : Metric.values()) {
            if (m.perLevel()) {
                for (int level = 0; level < Statistics.LEVELS; level++) {
                    int l = level;
                    register(registry, m, tags.and(LEVEL_TAG, Integer.toString(level)), s -> s.get(m, l));
                }
            } else {
                register(registry, m, tags, s -> s.get(m));
            }
        }
    }

    /** A figure's value in a snapshot, in the engine's unit. */
    private interface Reading {
        long of(Statistics stats);
    }

    private void register(MeterRegistry registry, Metric m, Tags meterTags, Reading reading) {
        double scale = m.unit() == Metric.Unit.NANOSECONDS ? 1e-9 : 1;
        ToDoubleFunction<ExtendedDB> value = d -> {
            try {
                return reading.of(d.statistics()) * scale;
            } catch (DBException closed) {
                return Double.NaN;
            }
        };
        String name = PREFIX + m.key();
        if (m.kind() == Metric.Kind.COUNTER) {
            FunctionCounter.builder(name, db, value).description(m.description()).baseUnit(baseUnit(m.unit()))
                    .tags(meterTags).register(registry);
        } else {
            Gauge.builder(name, db, value).description(m.description()).baseUnit(baseUnit(m.unit()))
                    .tags(meterTags).register(registry);
        }
    }

    private static String baseUnit(Metric.Unit unit) {
        switch (unit) {
            case BYTES:
                return BaseUnits.BYTES;
            case NANOSECONDS:
                return "seconds";
            default:
                return null;
        }
    }
}
