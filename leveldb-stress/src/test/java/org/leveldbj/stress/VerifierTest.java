package org.leveldbj.stress;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.Options;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.leveldbj.db.LevelDbFactory;

/**
 * The verifier against hand-made expected states and small databases that have (or lack) the
 * defects it must report: a lost acknowledged write, writes out of order within a thread and
 * across threads, a torn batch, a damaged value.
 */
class VerifierTest {
    private static final int KEYS = 4;

    @TempDir
    Path dir;

    @Test
    void acceptsEveryAllowedPrefix() throws IOException {
        List<Op> ops = List.of(put(1, 0, true, true), put(2, 1, false, true), put(3, 2, false, false));
        // The in-flight op 3 may be missing (process model) ...
        Verification v = verify(Map.of(0, 1L, 1, 2L), List.of(ops), true);
        assertTrue(v.ok(), v.failures().toString());
        assertEquals(2, v.acknowledged);
        assertEquals(1, v.acknowledgedSynced);
        assertEquals(1, v.recovered().row(0)[0]);
        assertEquals(ExpectedState.ABSENT, v.recovered().row(0)[2]);
        assertEquals(4, v.recovered().nextOp(0));
        // ... or present.
        v = verify(Map.of(0, 1L, 1, 2L, 2, 3L), List.of(ops), true);
        assertTrue(v.ok(), v.failures().toString());
        // Without the unsynced requirement, anything after the last synced write may be missing.
        v = verify(Map.of(0, 1L), List.of(ops), false);
        assertTrue(v.ok(), v.failures().toString());
    }

    @Test
    void reportsALostSyncedWrite() throws IOException {
        List<Op> ops = List.of(put(1, 0, false, true), put(2, 1, true, true), put(3, 2, false, true));
        Verification v = verify(Map.of(0, 1L), List.of(ops), false);
        assertEquals(1, v.lost, v.failures().toString());
        assertTrue(v.failures().get(0).contains("t000/00000001"), v.failures().toString());
        assertTrue(v.failures().get(0).contains("put op 2 (sync, acknowledged)"), v.failures().toString());
    }

    @Test
    void reportsALostUnsyncedWriteAfterAProcessCrash() throws IOException {
        List<Op> ops = List.of(put(1, 0, false, true), put(2, 1, false, true));
        Verification v = verify(Map.of(0, 1L), List.of(ops), true);
        assertEquals(1, v.lost, v.failures().toString());
        assertTrue(verify(Map.of(0, 1L), List.of(ops), false).ok());
    }

    @Test
    void reportsALaterWriteWithoutAnEarlierOne() throws IOException {
        // Nothing is synced, so any prefix would do, but op 2 without op 1 is no prefix.
        List<Op> ops = List.of(put(1, 0, false, true), put(2, 1, false, true), put(3, 2, false, false));
        Verification v = verify(Map.of(1, 2L), List.of(ops), false);
        assertEquals(1, v.orderViolations, v.failures().toString());
        assertEquals(0, v.lost + v.tornBatches + v.badValues);
        assertTrue(v.failures().get(0).contains("missing put op 1"), v.failures().toString());
    }

    @Test
    void reportsAWriteWithoutOneOfAnotherThreadAcknowledgedBeforeItBegan() throws IOException {
        List<Op> first = List.of(new Op(1, Op.Kind.PUT, false, false, new int[] {0}, new boolean[1], 100, 150));
        List<Op> second = List.of(new Op(1, Op.Kind.PUT, false, false, new int[] {0}, new boolean[1], 200, 250));
        Verification v = verify(Map.of(), Map.of(0, 1L), List.of(first, second), false);
        assertEquals(1, v.orderViolations, v.failures().toString());
        assertTrue(v.failures().get(0).contains("acknowledged before it began"), v.failures().toString());
        // The other way round is fine: thread 0's write began before thread 1's was acknowledged.
        v = verify(Map.of(0, 1L), Map.of(), List.of(first, second), false);
        assertTrue(v.ok(), v.failures().toString());
    }

    @Test
    void reportsATornBatch() throws IOException {
        Op batch = new Op(2, Op.Kind.BATCH, false, false, new int[] {1, 2, 3}, new boolean[3], 10, -1);
        List<Op> ops = List.of(put(1, 0, true, true), batch);
        assertTrue(verify(Map.of(0, 1L), List.of(ops), true).ok());
        assertTrue(verify(Map.of(0, 1L, 1, 2L, 2, 2L, 3, 2L),
                List.of(ops), true).ok());
        Verification v = verify(Map.of(0, 1L, 1, 2L, 3, 2L), List.of(ops), true);
        assertEquals(1, v.tornBatches, v.failures().toString());
        assertEquals(0, v.lost + v.orderViolations + v.badValues);
        assertTrue(v.failures().get(0).contains("missing at [t000/00000002=absent]"), v.failures().toString());
    }

    @Test
    void reportsATornTransaction() throws IOException {
        Op txn = new Op(2, Op.Kind.TRANSACTION, false, false, new int[] {1, 2}, new boolean[] {false, true}, 10, -1);
        List<Op> ops = List.of(put(1, 0, true, true), txn);
        assertTrue(verify(Map.of(0, 1L), List.of(ops), true).ok(), "a commit in flight may be missing");
        Verification v = verify(Map.of(0, 1L, 1, 2L), List.of(ops), true);
        assertTrue(v.ok(), "the delete of key 2 makes it absent: the commit is whole " + v.failures());
        List<Op> withKey2 = List.of(put(1, 2, true, true), txn);
        v = verify(Map.of(2, 1L), List.of(withKey2), true);
        assertTrue(v.ok(), v.failures().toString());
        v = verify(Map.of(1, 2L, 2, 1L), List.of(withKey2), true);
        assertEquals(1, v.tornBatches, "key 1 holds the commit's value, key 2 not its delete: " + v.failures());
        assertTrue(v.failures().get(0).contains("transaction op 2"), v.failures().toString());
    }

    @Test
    void writesWithoutTheLogMayBeMissingButOnlyAfterTheLastFlush() throws IOException {
        // Op 2 skipped the log: lost unless a flush took it, and then op 1 with it.
        List<Op> ops = List.of(put(1, 0, false, true), unlogged(2, 1, true), put(3, 2, false, true));
        assertTrue(verify(Map.of(0, 1L, 1, 2L, 2, 3L), List.of(ops), true).ok());
        Verification v = verify(Map.of(0, 1L, 2, 3L), List.of(ops), true);
        assertTrue(v.ok(), v.failures().toString());
        assertEquals(3, v.acknowledged);
        assertEquals(1, v.acknowledgedUnlogged);
        // Op 3 went through the log and was acknowledged: it must be there, whatever became of op 2.
        v = verify(Map.of(0, 1L, 1, 2L), List.of(ops), true);
        assertEquals(1, v.lost, v.failures().toString());
        // Without the unsynced requirement nothing is required; but op 2 present needs op 1.
        assertTrue(verify(Map.of(), List.of(ops), false).ok());
        v = verify(Map.of(1, 2L), List.of(ops), false);
        assertEquals(1, v.orderViolations, v.failures().toString());
        assertEquals(0, v.lost + v.tornBatches + v.badValues);
    }

    @Test
    void anOverwrittenWriteWithoutTheLogIsNotRequired() throws IOException {
        // Key 0: op 1 (logged), op 2 (no log); op 3 logged on key 1. Key 0 may hold op 1 or op 2.
        List<Op> ops = List.of(put(1, 0, false, true), unlogged(2, 0, true), put(3, 1, false, true));
        assertTrue(verify(Map.of(0, 1L, 1, 3L), List.of(ops), true).ok());
        assertTrue(verify(Map.of(0, 2L, 1, 3L), List.of(ops), true).ok());
        Verification v = verify(Map.of(1, 3L), List.of(ops), true);
        assertEquals(1, v.lost, v.failures().toString());
    }

    @Test
    void aMissingWriteWithoutTheLogOfAnotherThreadIsNoOrderViolation() throws IOException {
        Op first = new Op(1, Op.Kind.PUT, false, true, new int[] {0}, new boolean[1], 100, 150);
        Op second = new Op(1, Op.Kind.PUT, false, false, new int[] {0}, new boolean[1], 200, 250);
        Verification v = verify(Map.of(), Map.of(0, 1L), List.of(List.of(first), List.of(second)), false);
        assertTrue(v.ok(), v.failures().toString());
    }

    @Test
    void reportsADamagedValue() throws IOException {
        List<Op> ops = List.of(put(1, 0, true, true));
        ExpectedState base = new ExpectedState(1, KEYS);
        try (DB db = LevelDbFactory.factory.open(dir.resolve("db").toFile(), new Options())) {
            byte[] value = Values.encode(0, 0, 1, 64);
            value[40] ^= 1;
            db.put(Keys.key(0, 0), value);
            Verification v = Verifier.verify(db, base, List.of(ops), true);
            assertEquals(1, v.badValues, v.failures().toString());
            assertTrue(v.failures().get(0).contains("damaged at byte 40"), v.failures().toString());
        }
    }

    @Test
    void opLogReadsUpToATornRecord() throws IOException {
        Path file = OpLog.file(dir, 0);
        Op batch = new Op(7, Op.Kind.BATCH, true, false, new int[] {3, 1}, new boolean[] {false, true}, 5, -1);
        try (OpLog log = new OpLog(file)) {
            log.intent(batch);
            log.ack(7, 9);
            log.intent(put(8, 2, false, false));
        }
        Path other = OpLog.file(dir, 1);
        try (OpLog log = new OpLog(other)) {
            log.intent(unlogged(3, 1, false));
        }
        Op read = OpLog.read(other).get(0);
        assertTrue(read.unlogged() && !read.sync(), read.toString());
        byte[] whole = Files.readAllBytes(file);
        Files.write(file, new byte[] {0, 0, 0, 40, 1, 2}, StandardOpenOption.APPEND);
        List<Op> ops = OpLog.read(file);
        assertEquals(2, ops.size());
        assertEquals(7, ops.get(0).number());
        assertTrue(ops.get(0).acked() && ops.get(0).sync());
        assertArrayEquals(new int[] {3, 1}, ops.get(0).keys());
        assertArrayEquals(new boolean[] {false, true}, ops.get(0).deletes());
        assertFalse(ops.get(1).acked());
        Files.write(file, java.util.Arrays.copyOf(whole, whole.length - 3));
        assertEquals(1, OpLog.read(file).size());
    }

    private static Op put(long number, int key, boolean sync, boolean acked) {
        return new Op(number, Op.Kind.PUT, sync, false, new int[] {key}, new boolean[1], number * 10, acked ? number * 10 + 5 : -1);
    }

    private static Op unlogged(long number, int key, boolean acked) {
        return new Op(number, Op.Kind.PUT, false, true, new int[] {key}, new boolean[1], number * 10,
                acked ? number * 10 + 5 : -1);
    }

    /** Verifies a one-thread database holding the given keys, each mapped to the op of its value. */
    private Verification verify(Map<Integer, Long> keys, List<List<Op>> logs, boolean requireUnsynced)
            throws IOException {
        return verify(keys, Map.of(), logs, requireUnsynced);
    }

    /** Verifies a database holding the given keys of thread 0 and thread 1 (key to op). */
    private Verification verify(Map<Integer, Long> thread0, Map<Integer, Long> thread1,
                                List<List<Op>> logs, boolean requireUnsynced) throws IOException {
        ExpectedState base = new ExpectedState(logs.size(), KEYS);
        Path db = Files.createTempDirectory(dir, "db");
        try (DB d = LevelDbFactory.factory.open(db.toFile(), new Options())) {
            thread0.forEach((k, v) -> d.put(Keys.key(0, k), Values.encode(0, k, v, 20 + k)));
            thread1.forEach((k, v) -> d.put(Keys.key(1, k), Values.encode(1, k, v, 20 + k)));
            return Verifier.verify(d, base, logs, requireUnsynced);
        }
    }
}
