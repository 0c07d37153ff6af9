package org.leveldbj.engine;

import org.leveldbj.db.LevelDbFactory;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.DBIterator;
import org.iq80.leveldb.Options;
import org.iq80.leveldb.ReadOptions;
import org.iq80.leveldb.Snapshot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.leveldbj.testing.LeakCheck;
import org.leveldbj.testing.MemEnv;

/**
 * The testing artifact's leak check on real databases: the engine's open-snapshot and
 * open-iterator counts, a database never closed, and files an iterator pins past its database.
 */
class LeakCheckTest {
    /**
     * What the fixture leaks, held here so that the garbage collector does not reclaim it while
     * the module's reclaim check watches (that check would report it too); closed at the end.
     */
    static final List<AutoCloseable> LEAKED = new ArrayList<>();

    /** Tests that leak on purpose, run through the launcher below. */
    static class Fixture {
        @RegisterExtension
        final LeakCheck leaks = new LeakCheck();

        private DB open() throws IOException {
            return leaks.watch(LevelDbFactory.factory.open(new File("/db"),
                    new Options().env(leaks.env(new MemEnv())).writeBufferSize(64 << 10)));
        }

        @Test
        void clean() throws IOException {
            try (DB db = open()) {
                db.put(bytes("k"), bytes("v"));
                try (Snapshot s = db.getSnapshot(); DBIterator it = db.iterator(new ReadOptions().snapshot(s))) {
                    it.seekToFirst();
                }
            }
        }

        @Test
        void leaksASnapshot() throws IOException {
            try (DB db = open()) {
                LEAKED.add(db.getSnapshot());
            }
        }

        @Test
        void leaksAnIteratorPinningATable() throws IOException {
            try (DB db = open()) {
                for (int i = 0; i < 2000; i++) {
                    db.put(bytes("key" + i), new byte[100]);
                }
                db.compactRange(null, null);
                DBIterator it = db.iterator();
                LEAKED.add(it);
                it.seekToFirst();
            }
        }

        @Test
        void neverCloses() throws IOException {
            open().put(bytes("k"), bytes("v"));
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void leaksFailTheTestThatMadeThem() throws Exception {
        try {
            runFixture();
        } finally {
            for (AutoCloseable c : LEAKED) {
                c.close();
            }
            LEAKED.clear();
        }
    }

    private static void runFixture() {
        Map<String, TestExecutionResult> results = new HashMap<>();
        LauncherFactory.create().execute(
                LauncherDiscoveryRequestBuilder.request().selectors(selectClass(Fixture.class)).build(),
                new TestExecutionListener() {
                    @Override
                    public void executionFinished(TestIdentifier id, TestExecutionResult result) {
                        if (id.isTest()) {
                            results.put(id.getDisplayName(), result);
                        }
                    }
                });
        assertEquals(4, results.size(), results.toString());
        assertEquals(TestExecutionResult.Status.SUCCESSFUL, results.get("clean()").getStatus(),
                String.valueOf(results.get("clean()").getThrowable()));

        String snapshot = failure(results, "leaksASnapshot()");
        assertTrue(snapshot.startsWith("leaksASnapshot() leaked 1:\n"), snapshot);
        assertTrue(snapshot.contains("closed with 1 snapshot still open"), snapshot);

        String iterator = failure(results, "leaksAnIteratorPinningATable()");
        assertTrue(iterator.contains("closed with 1 iterator still open"), iterator);
        assertTrue(iterator.contains("random-access file /db/") && iterator.contains(".sst opened here, never closed"),
                "the table file the iterator pins stays open: " + iterator);

        String unclosed = failure(results, "neverCloses()");
        assertTrue(unclosed.contains("was never closed"), unclosed);
        assertTrue(unclosed.startsWith("neverCloses() leaked 1:\n"), "closing it released every file: " + unclosed);
    }

    private static String failure(Map<String, TestExecutionResult> results, String test) {
        TestExecutionResult r = results.get(test);
        assertEquals(TestExecutionResult.Status.FAILED, r.getStatus(), test);
        return r.getThrowable().orElseThrow().getMessage();
    }
}
