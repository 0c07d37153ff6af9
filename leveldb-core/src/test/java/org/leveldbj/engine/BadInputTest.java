package org.leveldbj.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.leveldbj.engine.DbTestSupport.files;
import static org.leveldbj.engine.DbTestSupport.flipByte;
import static org.leveldbj.engine.DbTestSupport.named;
import static org.leveldbj.engine.DbTestSupport.tables;
import static org.leveldbj.engine.DbTestSupport.read;
import static org.leveldbj.engine.DbTestSupport.write;
import static org.leveldbj.db.LevelDbFactory.bytes;

import org.leveldbj.db.LevelDbFactory;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import org.iq80.leveldb.CorruptDatabaseException;
import org.iq80.leveldb.CorruptionException;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.DBComparator;
import org.iq80.leveldb.DBException;
import org.iq80.leveldb.DBIterator;
import org.iq80.leveldb.DatabaseNotFoundException;
import org.iq80.leveldb.InvalidDatabaseArgumentException;
import org.iq80.leveldb.Options;
import org.iq80.leveldb.Range;
import org.iq80.leveldb.ReadOptions;
import org.iq80.leveldb.WriteBatch;
import org.iq80.leveldb.WriteOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;
import org.leveldbj.testing.MemEnv;
import org.leveldbj.testing.ReverseBytewiseComparator;

/**
 * Bad input of every kind: missing or existing databases against the options, a wrong
 * comparator, damaged CURRENT, MANIFEST, log and table files (byte surgery, as in leveldb's
 * corruption_test), use after close, and null arguments.
 *
 * <p>Every failed open must leave the directory as it found it: no CURRENT or MANIFEST
 * rewritten, no log deleted, no table added. Only the info log ({@code LOG}, {@code LOG.old})
 * and the {@code LOCK} file are exempt: like C++ LevelDB, an open rotates the info log and
 * creates the lock before it reads anything, so the failure can be logged.
 *
 * <p>Null arguments: like leveldbjni and this API's option classes, the engine rejects them
 * with an {@link IllegalArgumentException} whose message names the argument
 * ({@code "The key argument cannot be null"}).
 */
class BadInputTest {
    private final MemEnv env = new MemEnv();
    private final File dir = new File("/db");
    private final Path path = dir.toPath();

    private Options options() {
        return new Options().env(env);
    }

    private DB open(Options options) throws IOException {
        return LevelDbFactory.factory.open(dir, options);
    }

    /** The files a failed open must not touch. */
    private Map<String, byte[]> durableFiles() throws IOException {
        TreeMap<String, byte[]> out = files(env, path);
        out.keySet().removeIf(n -> n.equals("LOG") || n.equals("LOG.old") || n.equals("LOCK"));
        return out;
    }

    /** Asserts that an open fails with {@code type} and leaves the files byte for byte alone. */
    private <T extends Throwable> T assertOpenFailsUntouched(Class<T> type, Options options) throws IOException {
        Map<String, byte[]> before = durableFiles();
        T e = assertThrows(type, () -> open(options).close());
        Map<String, byte[]> after = durableFiles();
        assertEquals(before.keySet(), after.keySet(), "the failed open added or removed files: " + e);
        for (String name : before.keySet()) {
            assertArrayEquals(before.get(name), after.get(name), "the failed open changed " + name + ": " + e);
        }
        return e;
    }

    /** A database with tables at several levels and records in its log. */
    private void populate(int keys) throws IOException {
        try (DB db = open(options().writeBufferSize(20_000).compressionType(org.iq80.leveldb.CompressionType.NONE))) {
            for (int i = 0; i < keys; i++) {
                db.put(bytes(String.format("key%05d", i)), bytes("value" + i + "-" + "x".repeat(50)));
            }
            db.compactRange(null, null);
            for (int i = 0; i < 50; i++) {
                db.put(bytes(String.format("log%03d", i)), bytes("in the log " + i));
            }
        }
    }

    private String only(String suffix) throws IOException {
        var names = named(env, path, suffix);
        assertFalse(names.isEmpty(), "no " + suffix + " file");
        return names.get(names.size() - 1);
    }

    private String currentManifest() throws IOException {
        String text = new String(read(env, path.resolve("CURRENT")), StandardCharsets.US_ASCII);
        return text.trim();
    }

    // ---- missing, existing, comparator ----

    @Test
    void missingDirectoryWithoutCreateIfMissingCreatesNothing(@TempDir Path tmp) throws IOException {
        File missing = tmp.resolve("nothing-here").toFile();
        DatabaseNotFoundException e = assertThrows(DatabaseNotFoundException.class,
                () -> LevelDbFactory.factory.open(missing, new Options().createIfMissing(false)));
        // C++ LevelDB's text, which applications match (" does not exist ") to create the store.
        assertEquals("Invalid argument: " + missing.getPath() + ": does not exist (create_if_missing is false)",
                e.getMessage());
        assertFalse(missing.exists(), "the failed open created the directory");
        // The same in memory.
        DatabaseNotFoundException again = assertThrows(DatabaseNotFoundException.class,
                () -> open(options().createIfMissing(false)));
        assertTrue(again.getMessage().contains("does not exist (create_if_missing is false)"), again.getMessage());
        assertFalse(env.fileExists(path));
    }

    @Test
    void emptyDirectoryWithoutCreateIfMissing() throws IOException {
        env.createDir(path);
        DatabaseNotFoundException e = assertOpenFailsUntouched(DatabaseNotFoundException.class,
                options().createIfMissing(false));
        assertTrue(e.getMessage().contains("does not exist (create_if_missing is false)"), e.getMessage());
        assertFalse(env.fileExists(path.resolve("CURRENT")));
    }

    @Test
    void errorIfExists() throws IOException {
        populate(100);
        InvalidDatabaseArgumentException e = assertOpenFailsUntouched(InvalidDatabaseArgumentException.class,
                options().errorIfExists(true));
        assertEquals("Invalid argument: " + path + ": exists (error_if_exists is true)", e.getMessage());
        open(options()).close();
    }

    @Test
    void wrongComparator() throws IOException {
        populate(100);
        DBComparator reverse = ReverseBytewiseComparator.INSTANCE;
        InvalidDatabaseArgumentException e = assertOpenFailsUntouched(InvalidDatabaseArgumentException.class,
                options().comparator(reverse));
        assertEquals("Invalid argument: leveldb.BytewiseComparator does not match existing comparator : "
                + reverse.name(), e.getMessage());
        try (DB db = open(options())) {
            assertArrayEquals(bytes("in the log 7"), db.get(bytes("log007")));
        }
    }

    // ---- CURRENT ----

    @Test
    void currentNamingAMissingManifest() throws IOException {
        populate(100);
        env.deleteFile(path.resolve(currentManifest()));
        CorruptDatabaseException e = assertOpenFailsUntouched(CorruptDatabaseException.class, options());
        assertTrue(e.getMessage().contains("CURRENT points to a non-existent file"), e.getMessage());
    }

    @Test
    void currentWithoutNewline() throws IOException {
        populate(100);
        write(env, path.resolve("CURRENT"), currentManifest().getBytes(StandardCharsets.US_ASCII));
        CorruptDatabaseException e = assertOpenFailsUntouched(CorruptDatabaseException.class, options());
        assertTrue(e.getMessage().contains("CURRENT file does not end with newline"), e.getMessage());
    }

    @Test
    void currentHoldingGarbage() throws IOException {
        populate(100);
        for (String garbage : new String[] {"", "\n", "garbage\n", "MANIFEST-\n", "\u0000\u0001\u00ff\n",
            "000005.log\n", "../MANIFEST-000002\n"}) {
            write(env, path.resolve("CURRENT"), garbage.getBytes(StandardCharsets.ISO_8859_1));
            CorruptDatabaseException e = assertOpenFailsUntouched(CorruptDatabaseException.class, options());
            assertTrue(e.getMessage().contains("CURRENT"), e.getMessage());
        }
    }

    // ---- MANIFEST ----

    @Test
    void manifestWithAFlippedByte() throws IOException {
        populate(300);
        String manifest = currentManifest();
        long size = env.getFileSize(path.resolve(manifest));
        for (int offset : new int[] {3, 10, (int) size / 2, (int) size - 2}) {
            flipByte(env, path.resolve(manifest), offset);
            CorruptDatabaseException e = assertOpenFailsUntouched(CorruptDatabaseException.class, options());
            assertTrue(e.getMessage().contains(manifest), e.getMessage());
            flipByte(env, path.resolve(manifest), offset); // repaired
        }
        try (DB db = open(options())) {
            assertArrayEquals(bytes("in the log 7"), db.get(bytes("log007")));
        }
    }

    @Test
    void truncatedManifest() throws IOException {
        populate(300);
        Path manifest = path.resolve(currentManifest());
        byte[] bytes = read(env, manifest);
        write(env, manifest, Arrays.copyOf(bytes, 5));
        CorruptDatabaseException e = assertOpenFailsUntouched(CorruptDatabaseException.class, options());
        assertTrue(e.getMessage().contains(manifest.getFileName().toString()), e.getMessage());
    }

    // ---- log ----

    /** A log of several 32 KiB blocks, and the keys in write order. */
    private String bigLog() throws IOException {
        try (DB db = open(options().writeBufferSize(4 << 20))) {
            for (int i = 0; i < 1000; i++) {
                db.put(bytes(String.format("log%04d", i)), bytes("v" + i + "-" + "y".repeat(100)));
            }
        }
        String log = null;
        for (String name : named(env, path, ".log")) {
            if (env.getFileSize(path.resolve(name)) > 100_000) {
                log = name;
            }
        }
        assertTrue(log != null, "no log of more than 100 KB: " + env.getChildren(path));
        return log;
    }

    @Test
    void logWithAFlippedByteFailsParanoidOpensAndLeavesTheFilesAlone() throws IOException {
        String log = bigLog();
        // In the second 32 KiB block; the replay of the first block fills the tiny write buffer
        // and writes tables before reaching the damage.
        flipByte(env, path.resolve(log), 40_000);
        CorruptDatabaseException e = assertOpenFailsUntouched(CorruptDatabaseException.class,
                options().paranoidChecks(true).writeBufferSize(4_000));
        assertTrue(e.getMessage().contains(log), e.getMessage());
        // Without paranoid checks the damaged block is dropped, and the rest kept.
        try (DB db = open(options().writeBufferSize(4_000))) {
            assertArrayEquals(bytes("v0-" + "y".repeat(100)), db.get(bytes("log0000")));
            assertArrayEquals(bytes("v999-" + "y".repeat(100)), db.get(bytes("log0999")));
            int present = 0;
            for (int i = 0; i < 1000; i++) {
                byte[] v = db.get(bytes(String.format("log%04d", i)));
                if (v != null) {
                    assertArrayEquals(bytes("v" + i + "-" + "y".repeat(100)), v);
                    present++;
                }
            }
            // About one block of records (~32 KiB / ~120 bytes) is gone, no more.
            assertTrue(present < 1000 && present > 1000 - 400, "present: " + present);
        }
    }

    // ---- tables ----

    private String largestTable() throws IOException {
        String best = null;
        long bestSize = -1;
        for (String name : tables(env, path)) {
            long size = env.getFileSize(path.resolve(name));
            if (size > bestSize) {
                best = name;
                bestSize = size;
            }
        }
        assertTrue(best != null, "no table");
        return best;
    }

    @Test
    void tableWithAFlippedByteInADataBlock() throws IOException {
        populate(2000);
        String table = largestTable();
        // The first key of the table lives in its first data block.
        byte[] first = firstKeyOf(table);
        flipByte(env, path.resolve(table), 20);
        try (DB db = open(options())) {
            ReadOptions verify = new ReadOptions().verifyChecksums(true);
            CorruptionException e = assertThrows(CorruptionException.class, () -> db.get(first, verify));
            assertTrue(e.getMessage().contains("block checksum mismatch"), e.getMessage());
            assertTrue(e.getMessage().contains(table), e.getMessage());
            CorruptionException walk = assertThrows(CorruptionException.class, () -> {
                try (DBIterator it = db.iterator(verify)) {
                    for (it.seekToFirst(); it.hasNext(); ) {
                        it.next();
                    }
                }
            });
            assertTrue(walk.getMessage().contains("block checksum mismatch"), walk.getMessage());
            assertTrue(walk.getMessage().contains(table), walk.getMessage());
            // Other blocks still read.
            assertArrayEquals(bytes("in the log 7"), db.get(bytes("log007"), verify));
        }
    }

    /** The smallest key of a table, from the MANIFEST's view via the sstables property. */
    private byte[] firstKeyOf(String table) throws IOException {
        long number = Long.parseLong(table.substring(0, table.indexOf('.')));
        try (DB db = open(options())) {
            String sstables = db.getProperty("leveldb.sstables");
            for (String line : sstables.split("\n")) {
                if (line.trim().startsWith(number + ":")) {
                    // " 12:3456['key00000' @ 1 : 1 .. 'key00999' @ 1000 : 1]"
                    int quote = line.indexOf('\'');
                    return bytes(line.substring(quote + 1, line.indexOf('\'', quote + 1)));
                }
            }
            throw new AssertionError("table " + number + " not in " + sstables);
        }
    }

    @Test
    void truncatedTable() throws IOException {
        populate(2000);
        String table = largestTable();
        Path file = path.resolve(table);
        byte[] bytes = read(env, file);
        write(env, file, Arrays.copyOf(bytes, bytes.length / 2));
        Map<String, byte[]> before = durableFiles();
        CorruptionException e;
        try {
            DB db = open(options());
            try {
                e = assertThrows(CorruptionException.class, () -> {
                    try (DBIterator it = db.iterator(new ReadOptions().verifyChecksums(true))) {
                        for (it.seekToFirst(); it.hasNext(); ) {
                            it.next();
                        }
                    }
                });
            } finally {
                db.close();
            }
        } catch (CorruptDatabaseException atOpen) {
            e = atOpen.getCause();
            assertEquals(before.keySet(), durableFiles().keySet());
        }
        assertTrue(e.getMessage().contains(table), e.getMessage());
    }

    @Test
    void missingTableFailsTheOpen() throws IOException {
        populate(2000);
        String table = largestTable();
        env.deleteFile(path.resolve(table));
        CorruptDatabaseException e = assertOpenFailsUntouched(CorruptDatabaseException.class, options());
        assertTrue(e.getMessage().contains(table), e.getMessage());
    }

    // ---- use after close ----

    @Test
    void everyMethodOfAClosedDatabaseThrowsDbException() throws Exception {
        DB db = open(options());
        db.put(bytes("a"), bytes("1"));
        WriteBatch batch = db.createWriteBatch();
        batch.put(bytes("b"), bytes("2"));
        db.close();
        db.close();
        Map<String, Executable> calls = new TreeMap<>();
        calls.put("get", () -> db.get(bytes("a")));
        calls.put("get(options)", () -> db.get(bytes("a"), new ReadOptions()));
        calls.put("put", () -> db.put(bytes("a"), bytes("2")));
        calls.put("put(options)", () -> db.put(bytes("a"), bytes("2"), new WriteOptions().sync(true)));
        calls.put("delete", () -> db.delete(bytes("a")));
        calls.put("delete(options)", () -> db.delete(bytes("a"), new WriteOptions()));
        calls.put("write", () -> db.write(batch));
        calls.put("write(options)", () -> db.write(batch, new WriteOptions()));
        calls.put("iterator", db::iterator);
        calls.put("iterator(options)", () -> db.iterator(new ReadOptions()));
        calls.put("getSnapshot", db::getSnapshot);
        calls.put("createWriteBatch", db::createWriteBatch);
        calls.put("getProperty", () -> db.getProperty("leveldb.stats"));
        calls.put("getApproximateSizes", () -> db.getApproximateSizes(new Range(bytes("a"), bytes("z"))));
        calls.put("compactRange", () -> db.compactRange(null, null));
        calls.put("suspendCompactions", db::suspendCompactions);
        calls.put("resumeCompactions", db::resumeCompactions);
        for (Map.Entry<String, Executable> call : calls.entrySet()) {
            DBException e = assertThrows(DBException.class, call.getValue(), call.getKey());
            assertEquals("database is closed", e.getMessage(), call.getKey());
        }
        batch.close();
        // The lock is released: the database opens again and holds the write.
        try (DB again = open(options())) {
            assertArrayEquals(bytes("1"), again.get(bytes("a")));
        }
    }

    /**
     * Iterators and snapshots taken before the database is closed and used after it (on disk,
     * where table files are mapped): each call completes or throws {@link DBException}; never a
     * JVM crash or another exception.
     */
    @Test
    void iteratorsAndSnapshotsUsedAfterTheDatabaseIsClosed(@TempDir Path tmp) throws IOException {
        File onDisk = tmp.resolve("db").toFile();
        DB db = LevelDbFactory.factory.open(onDisk, new Options().writeBufferSize(20_000).maxFileSize(20_000));
        for (int i = 0; i < 5000; i++) {
            db.put(bytes(String.format("key%05d", i)), bytes("value" + i + "-" + "z".repeat(40)));
        }
        db.compactRange(null, null);
        for (int i = 0; i < 100; i++) {
            db.put(bytes(String.format("mem%03d", i)), bytes("in the memtable"));
        }
        DBIterator positioned = db.iterator();
        positioned.seek(bytes("key02500"));
        DBIterator fresh = db.iterator();
        org.iq80.leveldb.Snapshot snapshot = db.getSnapshot();
        db.close();
        for (DBIterator it : new DBIterator[] {positioned, fresh}) {
            Executable[] uses = {
                () -> {
                    while (it.hasNext()) {
                        it.next();
                    }
                },
                it::seekToFirst, it::seekToLast, () -> it.seek(bytes("key04000")), () -> it.seek(bytes("mem050")),
                () -> {
                    for (int i = 0; i < 3000 && it.hasPrev(); i++) {
                        it.prev();
                    }
                },
                it::hasNext, it::hasPrev
            };
            for (Executable use : uses) {
                try {
                    use.execute();
                } catch (DBException expected) {
                    // the database is gone: the one acceptable failure
                } catch (Throwable t) {
                    throw new AssertionError("using an iterator after close threw " + t, t);
                }
            }
            it.close();
            it.close();
        }
        DBException e = assertThrows(DBException.class,
                () -> db.get(bytes("key00001"), new ReadOptions().snapshot(snapshot)));
        assertEquals("database is closed", e.getMessage());
        snapshot.close();
        try (DB again = LevelDbFactory.factory.open(onDisk, new Options())) {
            assertArrayEquals(bytes("in the memtable"), again.get(bytes("mem007")));
        }
    }

    @Test
    void everyMethodOfAClosedIteratorThrowsDbException() throws IOException {
        try (DB db = open(options())) {
            db.put(bytes("a"), bytes("1"));
            DBIterator it = db.iterator();
            it.close();
            it.close();
            Map<String, Executable> calls = new TreeMap<>();
            calls.put("hasNext", it::hasNext);
            calls.put("next", it::next);
            calls.put("peekNext", it::peekNext);
            calls.put("hasPrev", it::hasPrev);
            calls.put("prev", it::prev);
            calls.put("peekPrev", it::peekPrev);
            calls.put("seek", () -> it.seek(bytes("a")));
            calls.put("seekToFirst", it::seekToFirst);
            calls.put("seekToLast", it::seekToLast);
            for (Map.Entry<String, Executable> call : calls.entrySet()) {
                DBException e = assertThrows(DBException.class, call.getValue(), call.getKey());
                assertEquals(CursorIterator.CLOSED_MESSAGE, e.getMessage(), call.getKey());
            }
        }
    }

    // ---- null arguments ----

    /**
     * {@code DBIterator.seek(null)} should be rejected like every other null argument.
     * Currently fails: {@code CursorIterator.seek} (owned by the iterator work) passes the key to
     * {@code ByteBuffer.wrap}, which throws a bare NullPointerException.
     */
    @Test
    void iteratorSeekToNullIsRejectedNamingTheArgument() throws IOException {
        try (DB db = open(options()); DBIterator it = db.iterator()) {
            db.put(bytes("a"), bytes("1"));
            assertNullRejected("key", () -> it.seek(null));
        }
    }

    private static void assertNullRejected(String argument, Executable call) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call, argument);
        assertEquals("The " + argument + " argument cannot be null", e.getMessage());
    }

    @Test
    void nullArgumentsAreRejectedNamingTheArgument() throws IOException {
        try (DB db = open(options())) {
            db.put(bytes("a"), bytes("1"));
            assertNullRejected("key", () -> db.get(null));
            assertNullRejected("key", () -> db.get(null, new ReadOptions()));
            assertNullRejected("options", () -> db.get(bytes("a"), null));
            assertNullRejected("key", () -> db.put(null, bytes("v")));
            assertNullRejected("value", () -> db.put(bytes("k"), null));
            assertNullRejected("key", () -> db.put(null, bytes("v"), new WriteOptions()));
            assertNullRejected("value", () -> db.put(bytes("k"), null, new WriteOptions()));
            assertNullRejected("options", () -> db.put(bytes("k"), bytes("v"), null));
            assertNullRejected("key", () -> db.delete(null));
            assertNullRejected("key", () -> db.delete(null, new WriteOptions()));
            assertNullRejected("options", () -> db.delete(bytes("k"), null));
            assertNullRejected("updates", () -> db.write(null));
            assertNullRejected("updates", () -> db.write(null, new WriteOptions()));
            try (WriteBatch batch = db.createWriteBatch()) {
                assertNullRejected("options", () -> db.write(batch, null));
                assertNullRejected("key", () -> batch.put(null, bytes("v")));
                assertNullRejected("value", () -> batch.put(bytes("k"), null));
                assertNullRejected("key", () -> batch.delete(null));
            }
            assertNullRejected("options", () -> db.iterator(null));
            assertNullRejected("ranges", () -> db.getApproximateSizes((Range[]) null));
            assertNullRejected("ranges", () -> db.getApproximateSizes(new Range(bytes("a"), bytes("b")), null));
            assertNullRejected("name", () -> db.getProperty(null));
            // Nothing was written by the rejected calls.
            assertArrayEquals(bytes("1"), db.get(bytes("a")));
            assertNull(db.get(bytes("k")));
        }
        assertNullRejected("path", () -> LevelDbFactory.factory.open(null, options()));
        assertNullRejected("options", () -> LevelDbFactory.factory.open(dir, null));
    }
}
