package org.leveldbj.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import jdk.jfr.EventType;
import jdk.jfr.Name;
import jdk.jfr.ValueDescriptor;
import org.iq80.leveldb.Metric;
import org.junit.jupiter.api.Test;

/**
 * doc/observability.md lists exactly the figures of {@link Metric}, in its order, with their JMX
 * attribute, unit and kind, and exactly the events of this package with their fields.
 */
class ObservabilityDocumentedTest {
    private static final Path PAGE = Path.of("..", "doc", "observability.md");
    private static final List<Class<? extends DatabaseEvent>> EVENTS = List.of(FlushEvent.class, CompactionEvent.class,
            WriteStallEvent.class, TableOpenEvent.class, TableEvictionEvent.class, RecoveryEvent.class,
            ValueCollectionEvent.class, BackgroundErrorEvent.class);
    private static final List<String> COMMON_FIELDS = List.of("startTime", "duration", "eventThread", "stackTrace",
            "directory");

    @Test
    void theFiguresTableIsTheMetricList() throws IOException {
        List<String> documented = new ArrayList<>();
        Matcher m = Pattern.compile("(?m)^\\| `([a-z0-9.]+)` \\| `(\\w+)` \\| (\\w+) \\| ([a-z, ]+) \\|")
                .matcher(Files.readString(PAGE));
        while (m.find()) {
            documented.add(String.join(" ", m.group(1), m.group(2), m.group(3), m.group(4)));
        }
        List<String> expected = new ArrayList<>();
        for (Metric metric : Metric.values()) {
            String unit = metric.unit() == Metric.Unit.NANOSECONDS ? "ns" : metric.unit().name().toLowerCase(Locale.ROOT);
            String kind = metric.kind().name().toLowerCase(Locale.ROOT) + (metric.perLevel() ? ", per level" : "");
            expected.add(String.join(" ", metric.key(), metric.attributeName(), unit, kind));
        }
        assertEquals(expected, documented);
    }

    @Test
    void theEventsTableNamesEveryEventAndItsFields() throws IOException {
        List<String> documented = new ArrayList<>();
        Matcher m = Pattern.compile("(?m)^\\| `(org\\.leveldbj\\.\\w+)` \\|[^|]*\\| ([^|]*) \\|$")
                .matcher(Files.readString(PAGE));
        while (m.find()) {
            documented.add(m.group(1));
            for (ValueDescriptor field : EventType.getEventType(byName(m.group(1))).getFields()) {
                if (!COMMON_FIELDS.contains(field.getName())) {
                    assertTrue(m.group(2).contains("`" + field.getName() + "`"), m.group(1) + " documents " + field.getName());
                }
            }
        }
        List<String> expected = new ArrayList<>();
        for (Class<? extends DatabaseEvent> e : EVENTS) {
            expected.add(e.getAnnotation(Name.class).value());
        }
        assertEquals(expected, documented);
    }

    private static Class<? extends DatabaseEvent> byName(String name) {
        for (Class<? extends DatabaseEvent> e : EVENTS) {
            if (e.getAnnotation(Name.class).value().equals(name)) {
                return e;
            }
        }
        throw new AssertionError("no event " + name);
    }
}
