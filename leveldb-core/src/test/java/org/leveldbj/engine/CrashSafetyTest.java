package org.leveldbj.engine;

import org.leveldbj.db.LevelDbFactory;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.leveldbj.engine.DbTestSupport.Write;
import static org.leveldbj.engine.DbTestSupport.apply;
import static org.leveldbj.engine.DbTestSupport.assertPrefix;
import static org.leveldbj.engine.DbTestSupport.contents;
import static org.leveldbj.engine.DbTestSupport.newModel;
import static org.leveldbj.engine.DbTestSupport.randomWrite;
import static org.leveldbj.engine.DbTestSupport.utf8;

import java.io.File;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Predicate;
import org.iq80.leveldb.CompressionType;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.DBException;
import org.iq80.leveldb.Options;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.leveldbj.testing.FaultInjectionEnv.Op;
import org.leveldbj.testing.FaultInjectionEnv;
import org.leveldbj.testing.Seed;
import org.leveldbj.testing.SeedExtension;

/**
 * Crash safety and I/O-failure handling of a whole database, on {@link FaultInjectionEnv}
 * (leveldb's fault_injection_test and the fault parts of db_test, as randomized tests against a
 * write history).
 *
 * <p>The crash property: after a power failure at any point, the reopened database holds
 * exactly the state after some prefix of the write history, and that prefix includes every
 * write up to the last one acknowledged with {@code sync}. Crashes are placed at exact I/O
 * boundaries by {@link ScriptedEnv} (the disk freezes after the n-th mutating call), so they
 * land inside log appends, memtable flushes, compactions, MANIFEST and CURRENT updates, and
 * recovery itself.
 *
 * <p>The failure property: an I/O error while writing surfaces from the write as a
 * {@link DBException} whose cause is the {@link IOException}; the error is sticky (later writes
 * fail with it as their cause); after reopening without faults the database holds every
 * acknowledged write and is not corrupt (it opens with paranoid checks).
 *
 * <p>A failure reports its seed; replay it with {@code -Dleveldbj.seed=N}. For a longer hunt, raise the
 * number of crash runs (8 by default) with {@code -Dleveldbj.crashRuns=300}.
 */
@ExtendWith(SeedExtension.class)
class CrashSafetyTest {
    private static final File DIR = new File("/db");
    private static final Duration LIMIT = Duration.ofSeconds(Integer.getInteger("leveldbj.crashRuns", 8) > 8 ? 600 : 60);

    private static Options options(org.iq80.leveldb.Env env, Random r) {
        return new Options().env(env).writeBufferSize(3_000 + r.nextInt(3_000)).maxFileSize(4_000 + r.nextInt(4_000))
                .blockSize(256).compressionType(r.nextBoolean() ? CompressionType.NONE : CompressionType.SNAPPY);
    }

    @Test
    void crashAtAnyIoBoundaryLeavesASyncedPrefix(@Seed long seed) {
        assertTimeoutPreemptively(LIMIT, () -> {
            for (int run = 0; run < Integer.getInteger("leveldbj.crashRuns", 8); run++) {
                crashRun(seed + run, false);
            }
        });
    }

    /**
     * The same with values of 60 bytes and more (about half of them) in value files: the power
     * may fail between a value and the log record, the table or the MANIFEST edit that names it.
     */
    @Test
    void crashAtAnyIoBoundaryLeavesASyncedPrefixWithSeparatedValues(@Seed long seed) {
        assertTimeoutPreemptively(LIMIT, () -> {
            for (int run = 0; run < Integer.getInteger("leveldbj.crashRuns", 8); run++) {
                crashRun(seed + run, true);
            }
        });
    }

    private void crashRun(long seed, boolean separated) throws IOException {
        Random r = new Random(seed);
        ScriptedEnv env = new ScriptedEnv(new FaultInjectionEnv());
        Options options = options(env, r);
        if (separated) {
            options.valueThreshold(60);
        }
        TreeMap<byte[], byte[]> durable = newModel(); // what a successful open has recovered
        int writeId = 0;
        for (int round = 0; round < 5; round++) {
            String context = "seed " + seed + " round " + round + (separated ? " (separated values)" : "");
            int writes = 100 + r.nextInt(500);
            // The crash point, in mutating I/O calls: sometimes inside the open itself.
            long crashAt = r.nextInt(writes * 2 + 40);
            env.freezeAfter(crashAt);
            List<Write> history = new ArrayList<>();
            int synced = 0; // writes up to here were acknowledged after a sync
            DB db = null;
            try {
                db = LevelDbFactory.factory.open(DIR, options);
                if (r.nextBoolean()) {
                    // Small MANIFESTs: flushes and compactions also switch MANIFEST and CURRENT.
                    ((DbImpl) db).setManifestSizeLimitForTesting(1_000 + r.nextInt(3_000));
                }
                for (int i = 0; i < writes; i++) {
                    Write w = randomWrite(r, writeId++, 400, 0.05);
                    history.add(w);
                    apply(db, w);
                    if (w.sync()) {
                        synced = history.size();
                    }
                }
            } catch (DBException | IOException e) {
                assertTrue(env.isFrozen(), context + ": failed before the crash: " + e);
            } finally {
                // The power fails now, wherever the database was: in the write path, a flush,
                // a compaction or the open.
                env.freeze();
                if (db != null) {
                    db.close();
                }
                env.crashAndThaw();
            }
            TreeMap<byte[], byte[]> actual;
            try (DB reopened = LevelDbFactory.factory.open(DIR, options.paranoidChecks(true))) {
                actual = contents(reopened);
            } finally {
                options.paranoidChecks(false);
            }
            assertPrefix(context, durable, history, synced, actual);
            durable = actual;
        }
    }

    @ParameterizedTest(name = "{0} torn={1} crash={2}")
    @CsvSource({"APPEND, false, false", "APPEND, true, false", "SYNC, false, false", "APPEND, false, true",
        "APPEND, true, true", "SYNC, false, true"})
    void failedLogWritesAreReportedStickyAndRecoverable(Op op, boolean torn, boolean crash) throws IOException {
        FaultInjectionEnv env = new FaultInjectionEnv();
        Options options = new Options().env(env).writeBufferSize(1 << 20);
        List<Write> history = new ArrayList<>();
        Random r = new Random(42);
        int acknowledged;
        int synced = 0;
        try (DB db = LevelDbFactory.factory.open(DIR, options)) {
            for (int i = 0; i < 50; i++) {
                Write w = randomWrite(r, i, 100, 0.1);
                history.add(w);
                apply(db, w);
                synced = w.sync() ? history.size() : synced;
            }
            acknowledged = history.size();
            env.setTornAppends(torn);
            env.fail(op, 1);
            Write failing = new Write(List.of(utf8("failing")), List.of(utf8("value".repeat(50))), true);
            history.add(failing);
            DBException first = assertThrows(DBException.class, () -> apply(db, failing));
            IOException cause = assertInstanceOf(IOException.class, first.getCause(), first.toString());
            assertTrue(cause.getMessage().startsWith(FaultInjectionEnv.INJECTED), cause.getMessage());
            assertTrue(first.getMessage().contains(cause.getMessage()), first.getMessage());
            // Sticky: the error fails every later write, though the disk works again.
            for (Write later : List.of(randomWrite(r, 100, 100, 0), randomWrite(r, 101, 100, 1),
                    new Write(List.of(utf8("a"), utf8("b")), List.of(utf8("1"), utf8("2")), false))) {
                DBException again = assertThrows(DBException.class, () -> apply(db, later));
                assertSame(first, again.getCause(), again.toString());
            }
            assertThrows(DBException.class, () -> db.delete(utf8("key00001")));
            // Reads still work, and see every acknowledged write.
            TreeMap<byte[], byte[]> expected = newModel();
            history.subList(0, acknowledged).forEach(w -> w.applyTo(expected));
            assertEquals(expected.size(), countMatching(db, expected));
        }
        if (crash) {
            env.crash();
        }
        try (DB db = LevelDbFactory.factory.open(DIR, options.paranoidChecks(true))) {
            TreeMap<byte[], byte[]> actual = contents(db);
            assertPrefix(op + " torn " + torn, newModel(), history, crash ? synced : acknowledged, actual);
            // The database works normally again.
            db.put(utf8("after"), utf8("reopen"));
            db.compactRange(null, null);
            assertArrayEquals(utf8("reopen"), db.get(utf8("after")));
        }
    }

    private static int countMatching(DB db, TreeMap<byte[], byte[]> expected) {
        int n = 0;
        for (var e : expected.entrySet()) {
            assertArrayEquals(e.getValue(), db.get(e.getKey()));
            n++;
        }
        return n;
    }

    /**
     * Failures of the background thread's writes (flush and compaction outputs, MANIFEST
     * records, CURRENT) become the sticky error and leave a database that reopens intact.
     */
    @ParameterizedTest(name = "{0} {1} skip={2} torn={3} crash={4}")
    @CsvSource({
        ".sst, APPEND, 0, false, false", ".sst, APPEND, 7, true, false", ".sst, SYNC, 0, false, false",
        ".sst, SYNC, 3, false, true", ".sst, NEW_FILE, 0, false, false", ".sst, NEW_FILE, 4, false, true",
        "MANIFEST, APPEND, 0, false, false", "MANIFEST, APPEND, 2, true, false", "MANIFEST, APPEND, 5, true, true",
        "MANIFEST, SYNC, 1, false, false", "MANIFEST, SYNC, 4, false, true",
        "CURRENT, RENAME, 0, false, false", "MANIFEST, NEW_FILE, 0, false, true",
        "db, SYNC_DIR, 0, false, false", "db, SYNC_DIR, 3, false, true", "db, SYNC_DIR, 6, false, false",
        "db, SYNC_DIR, 9, false, true", "dbtmp, SYNC, 0, false, false", "after rename to CURRENT, SYNC_DIR, 0, false, false",
        "after rename to CURRENT, SYNC_DIR, 1, false, true"})
    void backgroundWriteFailuresAreStickyAndNeverCorrupt(String file, Op op, int skip, boolean torn, boolean crash) {
        assertTimeoutPreemptively(LIMIT, () -> backgroundFailure(file, op, skip, torn, crash));
    }

    private void backgroundFailure(String file, Op op, int skip, boolean torn, boolean crash) throws IOException {
        ScriptedEnv env = new ScriptedEnv(new FaultInjectionEnv());
        Random r = new Random(skip * 31L + op.ordinal());
        // A small MANIFEST limit makes compactions start new MANIFESTs (and rewrite CURRENT).
        Options options = new Options().env(env).writeBufferSize(2_000).maxFileSize(3_000).blockSize(256)
                .compressionType(CompressionType.NONE);
        String context = file + " " + op + " skip " + skip;
        List<Write> history = new ArrayList<>();
        int acknowledged = 0;
        int synced = 0;
        Predicate<String> target = name -> name.contains(file);
        DBException failure = null;
        try (DB db = LevelDbFactory.factory.open(DIR, options)) {
            ((DbImpl) db).setManifestSizeLimitForTesting(4_000);
            env.failNext(op, countdown(target, skip), 1, torn);
            for (int i = 0; i < 20_000 && failure == null; i++) {
                Write w = randomWrite(r, i, 300, 0.02);
                history.add(w);
                try {
                    apply(db, w);
                    acknowledged = history.size();
                    synced = w.sync() ? history.size() : synced;
                    if (i % 500 == 499) {
                        db.compactRange(null, null);
                    }
                } catch (DBException e) {
                    failure = e;
                }
            }
            assertNotNull(failure, context + ": the injected failure never surfaced");
            assertTrue(env.targetHits() > 0, context);
            Throwable root = rootCause(failure);
            assertInstanceOf(IOException.class, root, context + ": " + failure);
            assertTrue(root.getMessage().startsWith(ScriptedEnv.FROZEN), root.getMessage());
            if (failure.getMessage().contains("cannot create log")) {
                // As in C++ LevelDB, failing to create the next log fails only the write that
                // needed it: nothing was written, and the next write tries again.
                history.remove(history.size() - 1);
                Write retry = new Write(List.of(utf8("retry")), List.of(utf8("works")), false);
                history.add(retry);
                apply(db, retry);
                acknowledged = history.size();
            } else {
                // A failure in a background task reaches the write as "background error: X"
                // with X sticky; one in the write path itself (a synced write syncing the
                // previous log or the new log's directory entry) is itself the sticky error.
                Throwable background = failure.getMessage().startsWith("background error")
                        ? failure.getCause() : failure;
                for (int i = 0; i < 3; i++) {
                    DBException again = assertThrows(DBException.class, () -> db.put(utf8("x"), utf8("y")));
                    assertSame(background, again.getCause(), context + ": not sticky: " + again);
                }
                assertThrows(DBException.class, () -> db.compactRange(null, null));
            }
        }
        if (crash) {
            env.crashAndThaw();
        }
        try (DB db = LevelDbFactory.factory.open(DIR, options.paranoidChecks(true))) {
            assertPrefix(context, newModel(), history, crash ? synced : acknowledged, contents(db));
            db.compactRange(null, null);
            assertPrefix(context + " after compaction", newModel(), history, crash ? synced : acknowledged,
                    contents(db));
        }
    }

    /** A name filter that rejects its first {@code skip} matches. */
    private static Predicate<String> countdown(Predicate<String> target, int skip) {
        int[] left = {skip};
        return name -> target.test(name) && left[0]-- <= 0;
    }

    private static Throwable rootCause(Throwable t) {
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t;
    }
}
