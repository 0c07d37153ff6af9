package org.leveldbj.examples;

import static org.leveldbj.db.LevelDbFactory.*;
import java.io.File;
import java.lang.management.ManagementFactory;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.iq80.leveldb.*;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.leveldbj.micrometer.LevelDbMetrics;

/**
 * What a database reports about itself: the statistics snapshot of {@code ExtendedDB}, the same
 * figures through the database's JMX bean, and as Micrometer meters ({@code leveldb-micrometer}).
 *
 * <p>Run: {@code Observability [directory]}; without a directory it works in a temporary one.
 */
public final class Observability {
    private Observability() {
    }

    /**
     * Runs the example.
     *
     * @param args nothing, or the directory to work in
     */
    public static void main(String[] args) throws Exception {
        ExampleDirectory.run(args, Observability::run);
    }

    static void run(File dir) throws Exception {
        try (ExtendedDB db = factory.open(new File(dir, "example-db"), new Options())) {
            for (int i = 0; i < 1000; i++) {
                db.put(bytes("key" + i), bytes("value" + i));
            }
            db.get(bytes("key7"));
            db.get(bytes("no-such-key"));
            db.flushMemTable();

            Statistics stats = db.statistics();
            System.out.println("keys written: " + stats.get(Metric.KEYS_WRITTEN));              // 1000
            System.out.println("gets: " + stats.get(Metric.GETS)
                    + ", found: " + stats.get(Metric.KEYS_READ));                              // gets: 2, found: 1
            System.out.println("tables: " + stats.get(Metric.LEVEL_FILES)
                    + ", in level 2: " + stats.get(Metric.LEVEL_FILES, 2));                    // tables: 1, in level 2: 1
            System.out.println("write stalls: " + stats.get(Metric.STALL_MEMTABLE_COUNT));     // 0

            MBeanServer server = ManagementFactory.getPlatformMBeanServer();
            ObjectName bean = new ObjectName("org.leveldbj:type=Database,name="
                    + new File(dir, "example-db").getAbsolutePath());
            System.out.println("JMX KeysWritten: " + server.getAttribute(bean, "KeysWritten")); // 1000

            MeterRegistry registry = new SimpleMeterRegistry();
            new LevelDbMetrics(db, "example").bindTo(registry);
            System.out.println("leveldb.keys.written: "
                    + registry.get("leveldb.keys.written").functionCounter().count());          // 1000.0
        }
    }
}
