package org.leveldbj.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.leveldbj.db.LevelDbFactory.bytes;

import org.leveldbj.db.LevelDbFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.iq80.leveldb.CorruptDatabaseException;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.DatabaseLockedException;
import org.iq80.leveldb.DBException;
import org.iq80.leveldb.DBIterator;
import org.iq80.leveldb.DatabaseNotFoundException;
import org.iq80.leveldb.InvalidArgumentException;
import org.iq80.leveldb.Options;
import org.iq80.leveldb.Range;
import org.iq80.leveldb.ReadOptions;
import org.iq80.leveldb.Snapshot;
import org.iq80.leveldb.WriteBatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/**
 * The read-only open mode on the real file system: it changes no file, sees every log's data,
 * refuses writes and locks like any open.
 */
class ReadOnlyTest {
    @TempDir
    Path tmp;

    private static DB open(Path dir, Options options) throws IOException {
        return LevelDbFactory.factory.open(dir.toFile(), options);
    }

    private static Options readOnly() {
        return new Options().readOnly(true);
    }

    private static byte[] key(int i) {
        return bytes(String.format("key%06d", i));
    }

    private static byte[] value(int i, int version) {
        return bytes("value" + i + "." + version + "-" + "x".repeat(i % 50));
    }

    /** Every file of a directory: name to contents (sizes follow). */
    private static Map<String, byte[]> files(Path dir) throws IOException {
        Map<String, byte[]> out = new TreeMap<>();
        try (Stream<Path> list = Files.list(dir)) {
            for (Path p : (Iterable<Path>) list::iterator) {
                out.put(p.getFileName().toString(), Files.isDirectory(p) ? new byte[0] : Files.readAllBytes(p));
            }
        }
        return out;
    }

    private static Map<String, String> text(Map<byte[], byte[]> entries) {
        Map<String, String> out = new TreeMap<>();
        entries.forEach((k, v) -> out.put(LevelDbFactory.asString(k), LevelDbFactory.asString(v)));
        return out;
    }

    private static void assertSameFiles(Map<String, byte[]> before, Map<String, byte[]> after) {
        assertEquals(before.keySet(), after.keySet(), "file names");
        for (String name : before.keySet()) {
            assertEquals(before.get(name).length, after.get(name).length, "size of " + name);
            assertArrayEquals(before.get(name), after.get(name), "contents of " + name);
        }
    }

    /**
     * Writes a database with at least five level-0 tables (a compaction is due) and an unflushed log
     * whose records overwrite and delete entries of the tables; returns the expected content.
     */
    private static TreeMap<byte[], byte[]> writeDatabase(Path dir) throws Exception {
        TreeMap<byte[], byte[]> model = DbTestSupport.newModel();
        Options options = new Options().writeBufferSize(64 * 1024);
        try (DB db = open(dir, options)) {
            db.suspendCompactions();
            int version = 0;
            while (Integer.parseInt(db.getProperty("leveldb.num-files-at-level0")) < 5) {
                version++;
                for (int i = 0; i < 1000; i++) {
                    db.put(key(i), value(i, version));
                    model.put(key(i), value(i, version));
                }
            }
            // The log's part: overwrites and deletes that only a replay of the log can show.
            for (int i = 0; i < 1000; i += 7) {
                db.put(key(i), value(i, -1));
                model.put(key(i), value(i, -1));
            }
            for (int i = 3; i < 1000; i += 11) {
                db.delete(key(i));
                model.remove(key(i));
            }
            db.put(key(5000), value(5000, -1));
            model.put(key(5000), value(5000, -1));
        }
        return model;
    }

    @Test
    void openingReadOnlyChangesNoFileAndSeesTheLog() throws Exception {
        Path dir = tmp.resolve("db");
        TreeMap<byte[], byte[]> model = writeDatabase(dir);
        Map<String, byte[]> before = files(dir);
        assertTrue(before.keySet().stream().anyMatch(n -> n.endsWith(".log") && before.get(n).length > 0),
                "the writer left records in a log: " + before.keySet());
        long tables = before.keySet().stream().filter(n -> n.endsWith(".sst") || n.endsWith(".ldb")).count();
        assertTrue(tables >= 5, before.keySet().toString());

        List<String> messages = new ArrayList<>();
        try (DB db = open(dir, readOnly().logger(messages::add))) {
            assertEquals(text(model), text(DbTestSupport.contents(db)));
            for (int round = 0; round < 20; round++) {
                // Enough point reads through five overlapping level-0 tables to use up their
                // seek budgets: a writable database would schedule a compaction now.
                for (int i = 0; i < 1000; i++) {
                    assertArrayEquals(model.get(key(i)), db.get(key(i)));
                }
            }
            assertArrayEquals(value(5000, -1), db.get(key(5000)));
            assertNull(db.get(key(3)));
            try (DBIterator it = db.iterator()) {
                it.seekToLast();
                assertArrayEquals(key(5000), it.peekNext().getKey());
            }
            Snapshot snapshot = db.getSnapshot();
            assertArrayEquals(value(7, -1), db.get(key(7), new ReadOptions().snapshot(snapshot)));
            snapshot.close();
            long files = 0;
            for (int level = 0; level < 7; level++) {
                files += Long.parseLong(db.getProperty("leveldb.num-files-at-level" + level));
            }
            // A flush cut short by the writer's close can leave a table no version names.
            assertTrue(files <= tables && files >= 5, files + " live tables, " + tables + " files");
            assertTrue(Long.parseLong(db.getProperty("leveldb.num-files-at-level0")) >= 5);
            assertTrue(db.getProperty("leveldb.stats").contains("Level"));
            assertTrue(db.getProperty("leveldb.sstables").contains("--- level 0 ---"));
            assertTrue(Long.parseLong(db.getProperty("leveldb.approximate-memory-usage")) > 0);
            assertTrue(db.getApproximateSizes(new Range(key(0), key(999)))[0] > 0);
            // Level 0 holds more files than trigger a compaction, yet none was scheduled.
            assertEquals(0, ((DbImpl) db).backgroundStepsScheduled(), "a read-only database scheduled background work");
        }
        assertSameFiles(before, files(dir));
        assertTrue(messages.stream().anyMatch(m -> m.startsWith("Recovering log #")), messages.toString());
    }

    @Test
    void aDatabaseWhoseOnlyDataIsInTheLogOpensReadOnly() throws IOException {
        Path dir = tmp.resolve("db");
        try (DB db = open(dir, new Options())) {
            db.put(bytes("a"), bytes("1"));
            db.put(bytes("b"), bytes("2"));
            db.delete(bytes("a"));
        }
        Map<String, byte[]> before = files(dir);
        try (DB db = open(dir, readOnly())) {
            assertNull(db.get(bytes("a")));
            assertArrayEquals(bytes("2"), db.get(bytes("b")));
            assertEquals("0", db.getProperty("leveldb.num-files-at-level0"));
        }
        // Twice: the first read-only open left nothing that changes the second.
        try (DB db = open(dir, readOnly())) {
            assertArrayEquals(bytes("2"), db.get(bytes("b")));
        }
        assertSameFiles(before, files(dir));
    }

    @Test
    void writesAndCompactionControlAreRefused() throws Exception {
        Path dir = tmp.resolve("db");
        try (DB db = open(dir, new Options())) {
            db.put(bytes("a"), bytes("1"));
        }
        Map<String, byte[]> before = files(dir);
        try (DB db = open(dir, readOnly())) {
            WriteBatch batch = db.createWriteBatch().put(bytes("b"), bytes("2"));
            Map<String, Executable> calls = new TreeMap<>();
            calls.put("put", () -> db.put(bytes("a"), bytes("2")));
            calls.put("delete", () -> db.delete(bytes("a")));
            calls.put("write", () -> db.write(batch));
            calls.put("compactRange", () -> db.compactRange(null, null));
            calls.put("suspendCompactions", db::suspendCompactions);
            calls.put("resumeCompactions", db::resumeCompactions);
            for (Map.Entry<String, Executable> call : calls.entrySet()) {
                DBException e = assertThrows(InvalidArgumentException.class, call.getValue(), call.getKey());
                assertTrue(e.getMessage().startsWith("database " + dir + " is open read-only: "),
                        call.getKey() + ": " + e.getMessage());
            }
            batch.close();
            assertArrayEquals(bytes("1"), db.get(bytes("a")));
            assertNull(db.get(bytes("b")));
        }
        assertSameFiles(before, files(dir));
    }

    @Test
    void aMissingDatabaseIsNotCreated() throws IOException {
        Path missing = tmp.resolve("missing");
        DatabaseNotFoundException e = assertThrows(DatabaseNotFoundException.class, () -> open(missing, readOnly()));
        assertEquals("Invalid argument: " + missing + ": does not exist (opened read-only)", e.getMessage());
        assertFalse(Files.exists(missing));

        Path empty = Files.createDirectory(tmp.resolve("empty"));
        e = assertThrows(DatabaseNotFoundException.class, () -> open(empty, readOnly().createIfMissing(true)));
        assertEquals("Invalid argument: " + empty + ": does not exist (opened read-only)", e.getMessage());
        assertEquals(Map.of(), files(empty));
    }

    @Test
    void readOnlyOpensLockLikeAnyOpen() throws IOException {
        Path dir = tmp.resolve("db");
        String held = "lock " + dir.resolve("LOCK") + ": already held by process";
        try (DB writer = open(dir, new Options())) {
            writer.put(bytes("a"), bytes("1"));
            IOException e = assertThrows(DatabaseLockedException.class, () -> open(dir, readOnly()));
            assertEquals(held, e.getCause().getMessage());
        }
        try (DB reader = open(dir, readOnly())) {
            assertEquals(held, assertThrows(DatabaseLockedException.class, () -> open(dir, readOnly())).getCause().getMessage());
            assertEquals(held, assertThrows(DatabaseLockedException.class, () -> open(dir, new Options())).getCause().getMessage());
            assertArrayEquals(bytes("1"), reader.get(bytes("a")));
        }
        // Closed: the lock is free again for either kind of open.
        try (DB writer = open(dir, new Options())) {
            assertArrayEquals(bytes("1"), writer.get(bytes("a")));
        }
    }

    @Test
    void withoutALockFileTheDatabaseOpensUnlockedAndCreatesNone() throws IOException {
        Path dir = tmp.resolve("db");
        try (DB db = open(dir, new Options())) {
            db.put(bytes("a"), bytes("1"));
        }
        Files.delete(dir.resolve("LOCK"));
        Map<String, byte[]> before = files(dir);
        try (DB db = open(dir, readOnly())) {
            assertArrayEquals(bytes("1"), db.get(bytes("a")));
        }
        assertSameFiles(before, files(dir));
        assertFalse(Files.exists(dir.resolve("LOCK")));
    }

    @Test
    void aDamagedManifestFailsTheOpenAndReleasesTheLock() throws IOException {
        Path dir = tmp.resolve("db");
        try (DB db = open(dir, new Options())) {
            db.put(bytes("a"), bytes("1"));
        }
        Files.writeString(dir.resolve("CURRENT"), "MANIFEST-999999\n");
        Map<String, byte[]> before = files(dir);
        CorruptDatabaseException e = assertThrows(CorruptDatabaseException.class, () -> open(dir, readOnly()));
        assertTrue(e.getMessage().contains("CURRENT points to a non-existent file"), e.getMessage());
        assertSameFiles(before, files(dir));
        // The failed open released the lock: a writable open gets it (and then fails the same way).
        e = assertThrows(CorruptDatabaseException.class, () -> open(dir, new Options()));
        assertTrue(e.getMessage().contains("CURRENT points to a non-existent file"), e.getMessage());
    }
}
