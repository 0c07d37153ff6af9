package org.leveldbj.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.leveldbj.db.LevelDbFactory.bytes;

import org.leveldbj.db.LevelDbFactory;
import java.io.File;
import java.util.ArrayList;
import java.util.List;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.DBIterator;
import org.iq80.leveldb.Options;
import org.iq80.leveldb.Snapshot;
import org.junit.jupiter.api.Test;
import org.leveldbj.testing.MemEnv;
import org.leveldbj.util.LeakDetector;

/** With leak detection on (as the build runs the tests), forgotten iterators and snapshots are reported. */
class LeakDetectionTest {
    @Test
    void forgottenIteratorsAndSnapshotsAreReportedWithTheirCreationStack() throws Exception {
        assertTrue(LeakDetector.enabled(), "run with -D" + LeakDetector.PROPERTY + "=true, as the Maven build does");
        LeakDetector.takeReports();
        try (DB db = LevelDbFactory.factory.open(new File("/db"), new Options().env(new MemEnv()))) {
            db.put(bytes("k"), bytes("v"));
            leakIterator(db);
            leakSnapshot(db);
            Snapshot closedSnapshot = db.getSnapshot();
            try (DBIterator closed = db.iterator()) {
                closed.seekToFirst();
            }
            closedSnapshot.close();
            List<String> reports = awaitReports(2);
            assertEquals(2, reports.size(), reports.toString());
            assertTrue(reports.stream().anyMatch(r -> r.startsWith("leak: iterator of /db was reclaimed")
                    && r.contains("leakIterator")), reports.toString());
            assertTrue(reports.stream().anyMatch(r -> r.startsWith("leak: snapshot 1 of /db was reclaimed")
                    && r.contains("leakSnapshot")), reports.toString());
        }
    }

    private static void leakIterator(DB db) {
        db.iterator().seekToFirst();
    }

    private static void leakSnapshot(DB db) {
        db.getSnapshot();
    }

    private static List<String> awaitReports(int expected) throws InterruptedException {
        List<String> reports = new ArrayList<>();
        for (int i = 0; i < 100 && reports.size() < expected; i++) {
            System.gc();
            Thread.sleep(20);
            reports.addAll(LeakDetector.takeReports());
        }
        Thread.sleep(50);
        reports.addAll(LeakDetector.takeReports()); // anything more, such as the closed ones, fails the count
        return reports;
    }
}
