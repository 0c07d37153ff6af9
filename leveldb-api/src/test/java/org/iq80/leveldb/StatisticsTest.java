package org.iq80.leveldb;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The snapshot type and the one list of figures behind it. */
class StatisticsTest {
    @Test
    void namesAreUniqueLowerCaseAndDotted() {
        Set<String> keys = new HashSet<>();
        Set<String> attributes = new HashSet<>();
        for (Metric m : Metric.values()) {
            assertTrue(m.key().matches("[a-z][a-z0-9]*(\\.[a-z][a-z0-9]*)*"), m.key());
            assertTrue(keys.add(m.key()), "duplicate " + m.key());
            assertTrue(attributes.add(m.attributeName()), "duplicate " + m.attributeName());
            assertEquals(m, Metric.forKey(m.key()));
            assertTrue(!m.description().isEmpty());
        }
        assertEquals("KeysWritten", Metric.KEYS_WRITTEN.attributeName());
        assertEquals("StallLevel0SlowdownCount", Metric.STALL_LEVEL0_SLOWDOWN_COUNT.attributeName());
        assertThrows(IllegalArgumentException.class, () -> Metric.forKey("no.such"));
    }

    @Test
    void aSnapshotHoldsWhatItWasBuiltWith() {
        Statistics.Builder b = Statistics.builder().set(Metric.GETS, 5).set(Metric.LEVEL_FILES, 0, 3)
                .set(Metric.LEVEL_FILES, 6, 4);
        Statistics s = b.build();
        b.set(Metric.GETS, 6);
        assertEquals(5, s.get(Metric.GETS), "built snapshots do not change");
        assertEquals(7, s.get(Metric.LEVEL_FILES), "a per-level figure's sum");
        assertEquals(3, s.get(Metric.LEVEL_FILES, 0));
        assertArrayEquals(new long[] {3, 0, 0, 0, 0, 0, 4}, s.perLevel(Metric.LEVEL_FILES));
        s.perLevel(Metric.LEVEL_FILES)[0] = 99;
        assertEquals(3, s.get(Metric.LEVEL_FILES, 0), "a copy");
        assertEquals(0, s.get(Metric.KEYS_READ));
        assertEquals(Statistics.builder().set(Metric.GETS, 5).set(Metric.LEVEL_FILES, 0, 3).set(Metric.LEVEL_FILES, 6, 4)
                .build(), s);
        assertNotEquals(b.build(), s);
        assertTrue(s.toString().contains("gets=5") && s.toString().contains("level.files=[3, 0, 0, 0, 0, 0, 4]"),
                s.toString());
    }

    @Test
    void perLevelAndScalarFiguresAreNotMixedUp() {
        Statistics s = Statistics.builder().build();
        assertThrows(IllegalArgumentException.class, () -> s.get(Metric.GETS, 0));
        assertThrows(IllegalArgumentException.class, () -> s.perLevel(Metric.GETS));
        assertThrows(IllegalArgumentException.class, () -> s.get(Metric.LEVEL_FILES, 7));
        assertThrows(IllegalArgumentException.class, () -> Statistics.builder().set(Metric.LEVEL_FILES, 1));
        assertThrows(IllegalArgumentException.class, () -> Statistics.builder().set(Metric.GETS, 0, 1));
    }
}
