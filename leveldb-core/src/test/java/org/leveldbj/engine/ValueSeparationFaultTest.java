package org.leveldbj.engine;

import org.leveldbj.db.LevelDbFactory;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.leveldbj.engine.DbTestSupport.randomBytes;
import static org.leveldbj.engine.DbTestSupport.utf8;

import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.IOErrorException;
import org.iq80.leveldb.Options;
import org.iq80.leveldb.WriteOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.leveldbj.testing.FaultInjectionEnv;
import org.leveldbj.testing.Seed;
import org.leveldbj.testing.SeedExtension;

/**
 * Value files under injected faults: a power failure keeps every write acknowledged before the
 * last synced one (value files and their directory entries included), and a value file that
 * cannot be written fails the write, and every later one, without losing what was acknowledged
 * or leaving a reference to nothing.
 */
@ExtendWith(SeedExtension.class)
class ValueSeparationFaultTest {
    private final FaultInjectionEnv env = new FaultInjectionEnv();
    private final File dir = new File("/db");

    private Options options() {
        // Small table files make small value files, so that the writes start several of them.
        return new Options().env(env).valueThreshold(1000).maxFileSize(4096);
    }

    private long valueFiles() throws IOException {
        return env.getChildren(dir.toPath()).stream().filter(name -> name.endsWith(".vlog")).count();
    }

    /** What a test does to an open database holding unsynced values, closing it, before the power fails. */
    private interface Step {
        void run(DB db) throws IOException;
    }

    /**
     * Puts 30 values of 1,000 to 6,000 bytes under keys k0..k29, none synced, runs {@code step}
     * (which closes the database), cuts the power and checks, with paranoid checks, that every
     * value came back: each step puts them into a table before the power fails.
     */
    private void assertValuesSurviveAPowerFailureAfter(Random r, Step step) throws IOException {
        List<byte[]> values = new ArrayList<>();
        DB db = LevelDbFactory.factory.open(dir, options().maxFileSize(1 << 20));
        for (int i = 0; i < 30; i++) {
            values.add(randomBytes(r, 1000 + r.nextInt(5000)));
            db.put(utf8("k" + i), values.get(i));
        }
        step.run(db);
        env.crash();
        try (DB reopened = LevelDbFactory.factory.open(dir, options().paranoidChecks(true))) {
            for (int i = 0; i < values.size(); i++) {
                assertArrayEquals(values.get(i), reopened.get(utf8("k" + i)), "k" + i + " was in a table before the failure");
            }
        }
    }

    @Test
    void aPowerFailureKeepsEverythingUpToTheLastSyncedWrite(@Seed Random r) throws IOException {
        List<byte[]> values = new ArrayList<>();
        DB db = LevelDbFactory.factory.open(dir, options());
        for (int i = 0; i < 120; i++) {
            values.add(randomBytes(r, 1000 + r.nextInt(5000)));
            db.put(utf8("k" + i), values.get(i), new WriteOptions().sync(i == 99));
        }
        db.close(); // then the power fails (handles must not be used after a crash)
        env.crash();
        try (DB reopened = LevelDbFactory.factory.open(dir, options().paranoidChecks(true))) {
            for (int i = 0; i < 100; i++) {
                assertArrayEquals(values.get(i), reopened.get(utf8("k" + i)), "k" + i + " was acknowledged before a sync");
            }
            for (int i = 100; i < 120; i++) {
                byte[] got = reopened.get(utf8("k" + i));
                assertTrue(got == null || java.util.Arrays.equals(values.get(i), got), "k" + i + " is its value or absent");
            }
        }
    }

    @Test
    void valuesOfAFlushedMemtableSurviveAPowerFailure(@Seed Random r) throws IOException {
        // The memtable goes to a synced table and the log holding the writes is deleted: the
        // table's references must not outlive the values they name.
        assertValuesSurviveAPowerFailureAfter(r, db -> {
            db.compactRange(null, null);
            db.close();
        });
    }

    @Test
    void valuesOfLogsRecoveredIntoTablesSurviveAPowerFailureAfterTheReopen(@Seed Random r) throws IOException {
        // The process ends (what it wrote is still in the operating system's cache), and the
        // reopen replays the log into a synced table and deletes the log.
        assertValuesSurviveAPowerFailureAfter(r, db -> {
            db.close();
            LevelDbFactory.factory.open(dir, options().maxFileSize(1 << 20)).close();
        });
    }

    @Test
    void valuesOfLogsRepairedIntoTablesSurviveAPowerFailureAfterTheRepair(@Seed Random r) throws IOException {
        // The repair turns the log into a table and archives the log.
        assertValuesSurviveAPowerFailureAfter(r, db -> {
            db.close();
            LevelDbFactory.factory.repair(dir, options());
        });
    }

    @Test
    void valuesMovedOutOfAReclaimedFileSurviveAPowerFailure(@Seed Random r) throws IOException {
        int keys = 150;
        byte[][] latest = new byte[keys][];
        // Small table files make value files of 128 KiB; every other key is overwritten, so
        // the first files end up half garbage and their live values are moved.
        Options options = options().maxFileSize(4096).writeBufferSize(64 << 10).valueGarbageRatio(0.25);
        DbImpl db = (DbImpl) LevelDbFactory.factory.open(dir, options);
        for (int round = 0; round < 3; round++) {
            for (int i = round == 0 ? 0 : 1; i < keys; i += round == 0 ? 1 : 2) {
                latest[i] = randomBytes(r, 3000 + r.nextInt(2000));
                db.put(utf8("k" + i), latest[i]);
            }
        }
        db.put(utf8("synced"), utf8("s"), new WriteOptions().sync(true)); // everything above is durable
        long before = valueFiles();
        db.compactRange(null, null);
        db.collectValueGarbageForTesting();
        db.compactEverything();
        db.collectValueGarbageForTesting();
        assertTrue(valueFiles() < before, "reclamation deleted a value file: test set-up");
        db.close();
        env.crash();
        try (DB reopened = LevelDbFactory.factory.open(dir, options.paranoidChecks(true))) {
            for (int i = 0; i < keys; i++) {
                assertArrayEquals(latest[i], reopened.get(utf8("k" + i)), "k" + i + " was durable before its value moved");
            }
        }
    }

    @Test
    void aFullValueFileWhoseBackgroundSyncFailsFailsEveryLaterWrite(@Seed Random r) throws IOException {
        DB db = LevelDbFactory.factory.open(dir, options());
        try {
            env.failAlways(FaultInjectionEnv.Op.SYNC);
            // Value files of 128 KiB: each switch hands the full file to the background sync,
            // whose failure the next switches collect.
            IOErrorException e = assertThrows(IOErrorException.class, () -> {
                for (int i = 0; i < 1000; i++) {
                    db.put(utf8("k" + i), randomBytes(r, 3000));
                }
            });
            assertTrue(e.getMessage().contains(".vlog"), e.getMessage());
            assertThrows(IOErrorException.class, () -> db.put(utf8("small"), utf8("s")), "the failure is sticky");
        } finally {
            env.clearFaults();
            db.close();
        }
    }

    @Test
    void fullValueFilesWaitUnsyncedForTheNextSyncThatNeedsThem(@Seed Random r) throws IOException {
        DB db = LevelDbFactory.factory.open(dir, options());
        try {
            env.failAlways(FaultInjectionEnv.Op.SYNC);
            // Value files of 128 KiB: two full ones wait for a sync, the third goes to the
            // background sync, which fails without a writer waiting for it yet: no write fails
            // before the fourth file is started.
            int i = 0;
            while (valueFiles() < 4) {
                db.put(utf8("k" + i++), randomBytes(r, 3000));
            }
            // A synced write needs them durable: it syncs them, and fails.
            IOErrorException e = assertThrows(IOErrorException.class,
                    () -> db.put(utf8("synced"), utf8("s"), new WriteOptions().sync(true)));
            assertTrue(e.getMessage().contains(".vlog"), e.getMessage());
            assertThrows(IOErrorException.class, () -> db.put(utf8("large"), randomBytes(r, 3000)), "the failure is sticky");
        } finally {
            env.clearFaults();
            db.close();
        }
    }

    @Test
    void aValueFileThatCannotBeWrittenFailsEveryLaterWriteAndLosesNothing(@Seed Random r) throws IOException {
        List<byte[]> values = new ArrayList<>();
        DB db = LevelDbFactory.factory.open(dir, options());
        for (int i = 0; i < 20; i++) {
            values.add(randomBytes(r, 2000));
            db.put(utf8("k" + i), values.get(i));
        }
        env.setSpaceLeft(p -> p.toString().endsWith(".vlog"), 1000);
        IOErrorException e = assertThrows(IOErrorException.class, () -> db.put(utf8("full"), randomBytes(r, 3000)));
        assertTrue(e.getMessage().contains(".vlog") || e.getMessage().contains("value file"), e.getMessage());
        assertThrows(IOErrorException.class, () -> db.put(utf8("small"), utf8("s")),
                "the failure is sticky, as a log failure is");
        db.close();
        env.setSpaceLeft(p -> false, 0);
        try (DB reopened = LevelDbFactory.factory.open(dir, options().paranoidChecks(true))) {
            for (int i = 0; i < 20; i++) {
                assertArrayEquals(values.get(i), reopened.get(utf8("k" + i)));
            }
            assertTrue(reopened.get(utf8("full")) == null);
            reopened.put(utf8("after"), randomBytes(r, 3000));
        }
    }
}
