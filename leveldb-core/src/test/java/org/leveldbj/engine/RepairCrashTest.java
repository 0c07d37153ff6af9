package org.leveldbj.engine;

import org.leveldbj.db.LevelDbFactory;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.Env;
import org.iq80.leveldb.Options;
import org.iq80.leveldb.WriteOptions;
import org.junit.jupiter.api.Test;
import org.leveldbj.testing.FaultInjectionEnv;
import org.leveldbj.testing.MemEnv;

/**
 * Repair killed at every I/O boundary: the disk freezes after the n-th mutating call of a
 * repair (for every n the repair makes), unsynced data is dropped, and then the database must
 * (a) open with every entry it held before the repair, and (b) be repaired to completion by a
 * second repair, with the same contents as an uninterrupted repair gives.
 */
class RepairCrashTest {
    private static final Path DIR = Path.of("/db");

    private static Options options(Env env) {
        return new Options().env(env).writeBufferSize(4_000).maxFileSize(6_000).blockSize(256);
    }

    /** A database with tables on several levels and unflushed entries in its live log. */
    private static TreeMap<byte[], byte[]> build(MemEnv base) throws IOException {
        TreeMap<byte[], byte[]> model = DbTestSupport.newModel();
        try (DB db = LevelDbFactory.factory.open(DIR.toFile(), options(base))) {
            for (int i = 0; i < 1_500; i++) {
                byte[] key = key(i * 7 % 600);
                if (i % 11 == 5) {
                    db.delete(key);
                    model.remove(key);
                } else {
                    byte[] value = ("value-" + i + "-" + "x".repeat(i % 40)).getBytes(StandardCharsets.US_ASCII);
                    db.put(key, value, new WriteOptions().sync(i % 100 == 0));
                    model.put(key, value);
                }
            }
        }
        return model;
    }

    private static byte[] key(int i) {
        return String.format("key%06d", i).getBytes(StandardCharsets.US_ASCII);
    }

    private static FaultInjectionEnv copyOf(MemEnv from) throws IOException {
        return DbTestSupport.copyOf(from, DIR);
    }

    private static TreeMap<byte[], byte[]> contents(Env env) throws IOException {
        try (DB db = LevelDbFactory.factory.open(DIR.toFile(), options(env).paranoidChecks(true))) {
            return DbTestSupport.contents(db);
        }
    }

    private static void repair(Env env) throws IOException {
        LevelDbFactory.factory.repair(new File(DIR.toString()), options(env));
    }

    /** How many mutating calls an uninterrupted repair of a copy makes. */
    private static long mutationsOfRepair(MemEnv base) throws IOException {
        ScriptedEnv env = new ScriptedEnv(copyOf(base));
        long before = env.mutations();
        repair(env);
        return env.mutations() - before;
    }

    /** Runs a repair that freezes after {@code n} mutating calls, then drops unsynced data. */
    private static ScriptedEnv killedRepair(MemEnv base, long n) throws IOException {
        ScriptedEnv env = new ScriptedEnv(copyOf(base));
        env.freezeAfter(n);
        try {
            repair(env);
        } catch (IOException | RuntimeException e) {
            if (!env.isFrozen()) {
                throw e;
            }
        }
        env.crashAndThaw();
        return env;
    }

    @Test
    void repairKilledAtAnyStepLosesNothingAndFinishesWhenRunAgain() throws IOException {
        MemEnv base = new MemEnv();
        Map<byte[], byte[]> model = build(base);
        assertEqualContents(model, contents(copyOf(base)), "the database before repair");
        long steps = mutationsOfRepair(base);
        assertTrue(steps > 10, "repair made " + steps + " mutating calls");
        for (long n = 0; n <= steps; n++) {
            ScriptedEnv opened = killedRepair(base, n);
            assertEqualContents(model, contents(opened), "open after a repair killed after " + n + " of " + steps + " steps");

            ScriptedEnv repairedAgain = killedRepair(base, n);
            repair(repairedAgain);
            assertEqualContents(model, contents(repairedAgain),
                    "second repair after a repair killed after " + n + " of " + steps + " steps");
        }
    }

    @Test
    void repairOfADamagedDatabaseKilledAtAnyStepEndsLikeAnUninterruptedOne() throws IOException {
        MemEnv base = new MemEnv();
        build(base);
        damageLargestTable(base);
        FaultInjectionEnv clean = copyOf(base);
        repair(clean);
        Map<byte[], byte[]> expected = contents(clean);
        assertTrue(expected.size() > 100, "a clean repair keeps " + expected.size() + " entries");
        long steps = mutationsOfRepair(base);
        for (long n = 0; n <= steps; n++) {
            ScriptedEnv env = killedRepair(base, n);
            repair(env);
            assertEqualContents(expected, contents(env), "repair run again after a kill after " + n + " of " + steps + " steps");
        }
    }

    @Test
    void aSecondRepairKeepsWhatTheFirstMovedAside() throws IOException {
        MemEnv base = new MemEnv();
        Map<byte[], byte[]> model = build(base);
        FaultInjectionEnv env = copyOf(base);
        repair(env);
        List<String> firstLost = env.getChildren(DIR.resolve(Repairer.LOST_DIR));
        assertTrue(firstLost.stream().anyMatch(n -> n.startsWith("MANIFEST-")), firstLost.toString());
        String manifest = DbTestSupport.named(env, DIR, "").stream().filter(n -> n.startsWith("MANIFEST-")).findFirst()
                .orElseThrow();
        byte[] archived = DbTestSupport.read(env, DIR.resolve(Repairer.LOST_DIR).resolve(firstLost.get(0)));
        // A file of the same name as one already in lost/ is moved aside under another name.
        DbTestSupport.write(env, DIR.resolve(firstLost.get(0)), new byte[] {1, 2, 3});
        repair(env);
        List<String> lost = env.getChildren(DIR.resolve(Repairer.LOST_DIR));
        assertArrayEquals(archived, DbTestSupport.read(env, DIR.resolve(Repairer.LOST_DIR).resolve(firstLost.get(0))));
        assertTrue(lost.contains(firstLost.get(0) + ".1"), lost.toString());
        assertTrue(lost.contains(manifest), lost.toString());
        assertEqualContents(model, contents(env), "after two repairs");
    }

    /** Flips a byte in the middle of the largest table, so repair salvages part of it. */
    private static void damageLargestTable(MemEnv env) throws IOException {
        Path largest = null;
        for (String name : DbTestSupport.tables(env, DIR)) {
            if (largest == null || env.getFileSize(DIR.resolve(name)) > env.getFileSize(largest)) {
                largest = DIR.resolve(name);
            }
        }
        if (largest == null) {
            fail("no table to damage");
        }
        DbTestSupport.flipByte(env, largest, (int) env.getFileSize(largest) / 3);
    }

    private static void assertEqualContents(Map<byte[], byte[]> expected, Map<byte[], byte[]> actual, String what) {
        if (DbTestSupport.sameEntries(expected, actual)) {
            return;
        }
        TreeMap<byte[], byte[]> keys = DbTestSupport.newModel();
        keys.putAll(expected);
        keys.putAll(actual);
        for (byte[] k : keys.keySet()) {
            if (!Arrays.equals(expected.get(k), actual.get(k))) {
                fail(what + ": key " + str(k) + " expected " + str(expected.get(k)) + " but found " + str(actual.get(k))
                        + " (" + expected.size() + " entries expected, " + actual.size() + " found)");
            }
        }
    }

    private static String str(byte[] b) {
        return b == null ? "nothing" : "'" + new String(b, StandardCharsets.US_ASCII) + "'";
    }
}
