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
import static org.leveldbj.engine.DbTestSupport.named;
import static org.leveldbj.engine.DbTestSupport.newModel;
import static org.leveldbj.engine.DbTestSupport.randomWrite;
import static org.leveldbj.engine.DbTestSupport.utf8;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Predicate;
import org.iq80.leveldb.CompressionType;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.DBException;
import org.iq80.leveldb.IOErrorException;
import org.iq80.leveldb.Options;
import org.iq80.leveldb.WriteOptions;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.leveldbj.testing.FaultInjectionEnv.Op;
import org.leveldbj.testing.FaultInjectionEnv;
import org.leveldbj.testing.SeedExtension;

/**
 * What a failed write to the disk does to a database, one fault at a time, on
 * {@link FaultInjectionEnv} (through {@link ScriptedEnv} for faults aimed at one kind of file):
 * a failed fsync or append of the log, a failed append or sync of a table written by a memtable
 * flush or by a compaction, a failed append or sync of the MANIFEST, and a full disk under the
 * log, the tables and the MANIFEST.
 *
 * <p>For every fault: the write that needed the failed I/O is not acknowledged (it throws a
 * {@link DBException} whose message names the file and whose cause chain holds the
 * {@link IOException}); the error is sticky (every later write fails with it, though the disk
 * works again); reads still return every acknowledged write; after a failed log fsync the log
 * is never synced again (on Linux a retried fsync can report success for pages the failed one
 * dropped, so it cannot make the failed data safe); {@code close()} completes. Then the power
 * fails ({@link FaultInjectionEnv#crash()}) and the database reopens without faults, with
 * paranoid checks, holding the state after a prefix of the write history that includes every
 * acknowledged synced write; it stays so after a full compaction (a failed MANIFEST write must
 * not have left live files to be deleted).
 */
@ExtendWith(SeedExtension.class)
class IoFailureTest {
    private static final File DIR = new File("/db");
    private static final Path PATH = DIR.toPath();

    /** The faults, each aimed at one kind of file and, for tables, at flushes or compactions. */
    enum Fault {
        LOG_SYNC, LOG_APPEND, LOG_APPEND_TORN,
        FLUSH_APPEND, FLUSH_SYNC, COMPACTION_APPEND, COMPACTION_SYNC,
        MANIFEST_APPEND, MANIFEST_SYNC,
        FULL_LOG, FULL_FLUSH, FULL_COMPACTION, FULL_MANIFEST;

        /** @return the suffix or prefix of the name of the file the fault hits */
        String file() {
            String n = name();
            return n.contains("LOG") ? ".log" : n.contains("MANIFEST") ? "MANIFEST-" : ".sst";
        }

        boolean inLogPath() {
            return file().equals(".log");
        }

        /** Whether a file the engine is writing now is the target. */
        boolean targets(String fileName) {
            if (!fileName.contains(file())) {
                return false;
            }
            String n = name();
            if (n.contains("FLUSH")) {
                return !inCompaction();
            }
            return !n.contains("COMPACTION") || inCompaction();
        }
    }

    /**
     * Whether the calling thread is running a compaction (rather than a memtable flush): the
     * two write tables through the same code, so the stack tells them apart.
     */
    private static boolean inCompaction() {
        return StackWalker.getInstance().walk(frames -> frames.anyMatch(
                f -> f.getClassName().equals("org.leveldbj.compaction.CompactionJob")));
    }

    @ParameterizedTest
    @EnumSource(Fault.class)
    void failedWriteIsReportedStickyAndRecoverable(Fault fault, Random r) {
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> run(fault, r));
    }

    private void run(Fault fault, Random r) throws IOException {
        FaultInjectionEnv faults = new FaultInjectionEnv();
        ScriptedEnv env = new ScriptedEnv(faults);
        Options options = new Options().env(env).writeBufferSize(3_000).maxFileSize(3_000).blockSize(256)
                .compressionType(CompressionType.NONE);
        List<Write> history = new ArrayList<>();
        int acknowledged = 0;
        int synced = 0;
        DBException failure = null;
        String context = fault.toString();
        try (DB db = LevelDbFactory.factory.open(DIR, options)) {
            // Some data first, so compactions have inputs on two levels.
            for (int i = 0; i < 300; i++) {
                Write w = randomWrite(r, i, 300, 0.05);
                history.add(w);
                apply(db, w);
                acknowledged = history.size();
                synced = w.sync() ? history.size() : synced;
            }
            // A small MANIFEST limit: flushes and compactions also start new MANIFESTs.
            ((DbImpl) db).setManifestSizeLimitForTesting(2_000);
            arm(fault, env, faults, r);
            for (int i = 300; i < 20_000 && failure == null; i++) {
                Write w = randomWrite(r, i, 300, fault == Fault.LOG_SYNC ? 0.5 : 0.05);
                history.add(w);
                try {
                    apply(db, w);
                    acknowledged = history.size();
                    synced = w.sync() ? history.size() : synced;
                    if (i % 200 == 199) {
                        db.compactRange(null, null);
                    }
                } catch (DBException e) {
                    failure = e;
                }
            }
            assertNotNull(failure, context + ": the fault never surfaced");
            assertInstanceOf(IOErrorException.class, failure, context + ": an I/O failure is an IOErrorException");
            String message = failure.getMessage();
            assertTrue(message.contains(fault.file()), context + ": the error does not name the file: " + message);
            assertTrue(causes(failure, fault.name().startsWith("FULL") ? FaultInjectionEnv.NO_SPACE : ScriptedEnv.FROZEN),
                    context + ": the cause is not the I/O error: " + message);
            if (fault.inLogPath()) {
                assertEquals(history.size() - 1, acknowledged, context);
            }
            // The disk works again; the error stays.
            faults.clearFaults();
            env.failNext(Op.APPEND, name -> false, 0, false);
            Throwable sticky = message.startsWith("background error") ? failure.getCause() : failure;
            List<Path> logs = new ArrayList<>();
            for (String name : named(faults.base(), PATH, ".log")) {
                logs.add(PATH.resolve(name));
            }
            int[] logSyncs = logs.stream().mapToInt(faults::syncs).toArray();
            for (boolean sync : new boolean[] {false, true, true}) {
                DBException again = assertThrows(IOErrorException.class,
                        () -> db.put(utf8("later"), utf8("value"), new WriteOptions().sync(sync)));
                assertSame(sticky, again.getCause(), context + ": not sticky: " + again);
            }
            assertThrows(DBException.class, () -> db.delete(utf8("key00001")));
            assertArrayEquals(logSyncs, logs.stream().mapToInt(faults::syncs).toArray(),
                    context + ": a log was synced after the failure");
            // Reads still see every acknowledged write, and not the failed one.
            TreeMap<byte[], byte[]> expected = newModel();
            history.subList(0, acknowledged).forEach(w -> w.applyTo(expected));
            assertEquals(null, db.get(utf8("later")));
            for (Map.Entry<byte[], byte[]> e : expected.entrySet()) {
                assertArrayEquals(e.getValue(), db.get(e.getKey()), context);
            }
            if (fault.inLogPath()) {
                Write failed = history.get(history.size() - 1);
                for (byte[] key : failed.keys()) {
                    assertArrayEquals(expected.get(key), db.get(key), context + ": the failed write is visible");
                }
            }
        }
        // close() completed; now the power fails.
        env.crashAndThaw();
        try (DB db = LevelDbFactory.factory.open(DIR, options.paranoidChecks(true))) {
            assertPrefix(context, newModel(), history, synced, contents(db));
            db.compactRange(null, null);
            assertPrefix(context + " after a full compaction", newModel(), history, synced, contents(db));
        }
    }

    private static void arm(Fault fault, ScriptedEnv env, FaultInjectionEnv faults, Random r) {
        Predicate<String> target = fault::targets;
        switch (fault) {
            case LOG_SYNC, FLUSH_SYNC, COMPACTION_SYNC, MANIFEST_SYNC -> env.failNext(Op.SYNC, target, 1, false);
            case LOG_APPEND, FLUSH_APPEND, COMPACTION_APPEND, MANIFEST_APPEND ->
                    env.failNext(Op.APPEND, target, 1, r.nextBoolean());
            case LOG_APPEND_TORN -> env.failNext(Op.APPEND, target, 1, true);
            default -> faults.setSpaceLeft(p -> target.test(p.getFileName().toString()), r.nextInt(20_000));
        }
    }

    /** Whether an exception or one of its causes carries a message starting with {@code text}. */
    private static boolean causes(Throwable t, String text) {
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c instanceof IOException && c.getMessage() != null && c.getMessage().startsWith(text)) {
                return true;
            }
        }
        return false;
    }
}
