package org.leveldbj.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.leveldbj.db.LevelDbFactory.bytes;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.Set;
import javax.management.Attribute;
import javax.management.AttributeList;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.iq80.leveldb.DatabaseNotFoundException;
import org.iq80.leveldb.ExtendedDB;
import org.iq80.leveldb.Metric;
import org.iq80.leveldb.Options;
import org.iq80.leveldb.Statistics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.leveldbj.db.LevelDbFactory;
import org.leveldbj.stats.JmxRegistration;
import org.leveldbj.testing.MemEnv;

/**
 * Every open database has its bean in the platform MBean server, with an attribute per figure of
 * its statistics, for exactly as long as it is open.
 */
class JmxBeanTest {
    private static final MBeanServer SERVER = ManagementFactory.getPlatformMBeanServer();

    @TempDir
    Path tmp;

    private static ObjectName name(Path dir) throws Exception {
        return JmxRegistration.objectName(dir.toAbsolutePath().toString(), 1);
    }

    @Test
    void theBeanLivesAsLongAsTheDatabaseAndShowsItsStatistics() throws Exception {
        Path dir = tmp.resolve("db");
        ObjectName name = name(dir);
        try (ExtendedDB db = LevelDbFactory.factory.open(dir.toFile(), new Options())) {
            assertTrue(SERVER.isRegistered(name), name + " is registered");
            for (int i = 0; i < 10; i++) {
                db.put(bytes("key" + i), bytes("value"));
            }
            db.get(bytes("key1"));
            db.flushMemTable();
            assertEquals(10L, SERVER.getAttribute(name, "KeysWritten"));
            assertEquals(1L, SERVER.getAttribute(name, "Gets"));
            Statistics stats = db.statistics();
            for (MBeanAttributeInfo info : SERVER.getMBeanInfo(name).getAttributes()) {
                Metric m = byAttribute(info.getName());
                Object value = SERVER.getAttribute(name, info.getName());
                if (m.perLevel()) {
                    assertEquals("[J", info.getType());
                    assertArrayEquals(stats.perLevel(m), (long[]) value, m.key());
                } else if (m.kind() == Metric.Kind.GAUGE) {
                    assertEquals("long", info.getType());
                }
            }
            assertEquals(Metric.values().length, SERVER.getMBeanInfo(name).getAttributes().length);
            assertEquals(stats.get(Metric.LEVEL_BYTES), sum((long[]) SERVER.getAttribute(name, "LevelBytes")));
            assertEquals("bytes", SERVER.getMBeanInfo(name).getAttributes()[Metric.FLUSH_BYTES_WRITTEN.ordinal()]
                    .getDescriptor().getFieldValue("units"));
            AttributeList some = SERVER.getAttributes(name, new String[] {"Flushes", "KeysRead"});
            assertEquals(new Attribute("Flushes", 1L), some.asList().get(0));
            assertEquals(new Attribute("KeysRead", 1L), some.asList().get(1));
        }
        assertFalse(SERVER.isRegistered(name), "unregistered at close");
    }

    private static Metric byAttribute(String attribute) {
        for (Metric m : Metric.values()) {
            if (m.attributeName().equals(attribute)) {
                return m;
            }
        }
        throw new AssertionError("no metric for attribute " + attribute);
    }

    private static long sum(long[] values) {
        long sum = 0;
        for (long v : values) {
            sum += v;
        }
        return sum;
    }

    @Test
    @SuppressWarnings("try") // databases opened only to be seen in the MBean server
    void twoDatabasesHaveTwoBeansAndTheSameDirectoryTwiceGetsANumber() throws Exception {
        Path a = tmp.resolve("a");
        Path b = tmp.resolve("b");
        try (ExtendedDB first = LevelDbFactory.factory.open(a.toFile(), new Options());
             ExtendedDB second = LevelDbFactory.factory.open(b.toFile(), new Options())) {
            Set<ObjectName> names = SERVER.queryNames(new ObjectName("org.leveldbj:type=Database,*"), null);
            assertTrue(names.contains(name(a)) && names.contains(name(b)), names.toString());
            first.put(bytes("k"), bytes("v"));
            assertEquals(1L, SERVER.getAttribute(name(a), "KeysWritten"));
            assertEquals(0L, SERVER.getAttribute(name(b), "KeysWritten"));
        }
        // Separate in-memory environments may hold the same path: the second bean gets "#2".
        Path same = Path.of("/jmx-same").toAbsolutePath();
        try (ExtendedDB one = LevelDbFactory.factory.open(same.toFile(), new Options().env(new MemEnv()));
             ExtendedDB two = LevelDbFactory.factory.open(same.toFile(), new Options().env(new MemEnv()))) {
            two.put(bytes("k"), bytes("v"));
            assertEquals(0L, SERVER.getAttribute(JmxRegistration.objectName(same.toString(), 1), "KeysWritten"));
            ObjectName second = new ObjectName("org.leveldbj:type=Database,name=" + same + "#2");
            assertEquals(1L, SERVER.getAttribute(second, "KeysWritten"));
        }
        assertTrue(SERVER.queryNames(new ObjectName("org.leveldbj:type=Database,*"), null).isEmpty());
    }

    @Test
    @SuppressWarnings("try") // a database opened only to be seen in the MBean server
    void aNameThatNeedsQuotingIsQuoted() throws Exception {
        Path dir = tmp.resolve("a,b=c:d");
        try (ExtendedDB db = LevelDbFactory.factory.open(dir.toFile(), new Options())) {
            ObjectName name = new ObjectName("org.leveldbj:type=Database,name="
                    + ObjectName.quote(dir.toAbsolutePath().toString()));
            assertTrue(SERVER.isRegistered(name), name.toString());
        }
    }

    @Test
    @SuppressWarnings("try") // a database opened only to be seen in the MBean server
    void aFailedOpenLeavesNoBeanAndThePropertyTurnsThemOff() throws Exception {
        Path missing = tmp.resolve("missing");
        try {
            LevelDbFactory.factory.open(missing.toFile(), new Options().createIfMissing(false)).close();
        } catch (DatabaseNotFoundException expected) {
            // nothing was opened
        }
        assertFalse(SERVER.isRegistered(name(missing)));
        Path dir = tmp.resolve("quiet");
        String before = System.getProperty(JmxRegistration.PROPERTY);
        System.setProperty(JmxRegistration.PROPERTY, "false");
        try (ExtendedDB db = LevelDbFactory.factory.open(dir.toFile(), new Options())) {
            assertFalse(SERVER.isRegistered(name(dir)));
        } finally {
            if (before == null) {
                System.clearProperty(JmxRegistration.PROPERTY);
            } else {
                System.setProperty(JmxRegistration.PROPERTY, before);
            }
        }
    }
}
