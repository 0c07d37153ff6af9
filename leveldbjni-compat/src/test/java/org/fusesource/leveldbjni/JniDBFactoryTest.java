package org.fusesource.leveldbjni;

import static org.fusesource.leveldbjni.JniDBFactory.asString;
import static org.fusesource.leveldbjni.JniDBFactory.bytes;
import static org.fusesource.leveldbjni.JniDBFactory.factory;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.fusesource.leveldbjni.internal.NativeDB;
import org.iq80.leveldb.CompressionType;
import org.iq80.leveldb.CorruptDatabaseException;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.DBException;
import org.iq80.leveldb.DatabaseNotFoundException;
import org.iq80.leveldb.Options;
import org.iq80.leveldb.ReadOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.leveldbj.db.LevelDbFactory;
import org.leveldbj.testing.ReverseBytewiseComparator;

/**
 * leveldbjni 1.8's factory behaves as leveldbjni does where applications look: the exception
 * type, {@code isNotFound()} and the message text of each open failure (as measured on
 * leveldbjni 1.8 itself), the static helpers, and the open-or-create idiom of Spark and Hadoop.
 */
class JniDBFactoryTest {
    @TempDir
    Path tmp;

    private NativeDB.DBException openFails(File dir, Options options) {
        return assertThrows(NativeDB.DBException.class, () -> factory.open(dir, options).close());
    }

    @Test
    void aMissingDatabaseFailsAsInLeveldbjni() {
        File dir = tmp.resolve("missing").toFile();
        NativeDB.DBException e = openFails(dir, new Options().createIfMissing(false));
        assertEquals("Invalid argument: " + dir + ": does not exist (create_if_missing is false)", e.getMessage());
        assertFalse(e.isNotFound(), "leveldbjni 1.8 reports a missing database as invalid argument");
        assertInstanceOf(DatabaseNotFoundException.class, e.getCause());
        assertFalse(dir.exists(), "a failed open creates nothing");
    }

    /** Spark's LevelDBProvider and Hadoop's state stores, as they are written. */
    @Test
    void theOpenOrCreateIdiomOfSparkAndHadoopCreatesTheStore() throws IOException {
        File dbFile = tmp.resolve("state").toFile();
        Options options = new Options();
        options.createIfMissing(false);
        DB db;
        try {
            db = factory.open(dbFile, options);
        } catch (NativeDB.DBException e) {
            if (e.isNotFound() || e.getMessage().contains(" does not exist ")) {
                options.createIfMissing(true);
                db = factory.open(dbFile, options);
            } else {
                throw e;
            }
        }
        try (DB created = db) {
            created.put(bytes("k"), bytes("v"));
        }
        try (DB reopened = factory.open(dbFile, new Options().createIfMissing(false))) {
            assertEquals("v", asString(reopened.get(bytes("k"))));
        }
    }

    @Test
    void existingDatabaseAgainstTheOptions() throws IOException {
        File dir = tmp.resolve("db").toFile();
        factory.open(dir, new Options()).close();
        NativeDB.DBException exists = openFails(dir, new Options().errorIfExists(true));
        assertEquals("Invalid argument: " + dir + ": exists (error_if_exists is true)", exists.getMessage());
        assertFalse(exists.isNotFound());
        NativeDB.DBException comparator = openFails(dir, new Options().comparator(ReverseBytewiseComparator.INSTANCE));
        assertEquals("Invalid argument: leveldb.BytewiseComparator does not match existing comparator : leveldbj.ReverseBytewiseComparator",
                comparator.getMessage());
    }

    @Test
    void aLockedDatabaseIsAnIoError() throws IOException {
        File dir = tmp.resolve("db").toFile();
        try (DB held = factory.open(dir, new Options())) {
            held.put(bytes("a"), bytes("1"));
            NativeDB.DBException e = openFails(dir, new Options());
            assertEquals("IO error: lock " + new File(dir, "LOCK") + ": already held by process", e.getMessage());
            assertFalse(e.isNotFound());
            assertInstanceOf(org.iq80.leveldb.DatabaseLockedException.class, e.getCause());
        }
    }

    @Test
    void aRegularFileIsTheIoErrorCppLevelDbGives() throws IOException {
        File file = tmp.resolve("plain-file").toFile();
        Files.write(file.toPath(), "x".getBytes(StandardCharsets.US_ASCII));
        NativeDB.DBException e = openFails(file, new Options());
        assertEquals("IO error: " + new File(file, "LOCK") + ": Not a directory", e.getMessage());
        assertFalse(e.isNotFound());
        assertInstanceOf(org.iq80.leveldb.DatabasePathNotDirectoryException.class, e.getCause());
    }

    @Test
    void aDamagedDatabaseIsACorruption() throws IOException {
        File dir = tmp.resolve("db").toFile();
        factory.open(dir, new Options()).close();
        Files.write(dir.toPath().resolve("CURRENT"), "garbage".getBytes(StandardCharsets.US_ASCII));
        NativeDB.DBException e = openFails(dir, new Options());
        assertTrue(e.getMessage().startsWith("Corruption: ") && e.getMessage().contains("CURRENT"), e.getMessage());
        assertInstanceOf(CorruptDatabaseException.class, e.getCause());
        // Code that catches IOException (the documented contract of DBFactory.open) sees it too.
        IOException asIo = assertThrows(IOException.class, () -> factory.open(dir, new Options()));
        assertInstanceOf(NativeDB.DBException.class, asIo);
        factory.repair(dir, new Options());
        factory.open(dir, new Options()).close();
    }

    /**
     * leveldbjni ignores {@code Options.verifyChecksums} (true by default in the API): a block
     * whose checksum no longer matches is read as it is unless the read asks for the check.
     */
    @Test
    void blockChecksumsAreCheckedWhenTheReadAsksAsInLeveldbjni() throws IOException {
        File dir = tmp.resolve("checksums").toFile();
        Options options = new Options().compressionType(CompressionType.NONE);
        try (DB db = LevelDbFactory.factory.open(dir, options)) {
            db.put(bytes("key"), bytes("value-value"));
            db.compactRange(null, null);
        }
        Path table;
        try (var files = Files.list(dir.toPath())) {
            table = files.filter(f -> f.toString().endsWith(".ldb") || f.toString().endsWith(".sst"))
                    .findFirst().orElseThrow();
        }
        byte[] content = Files.readAllBytes(table);
        int at = indexOf(content, bytes("value-value"));
        assertTrue(at >= 0, "the value is stored uncompressed in " + table);
        content[at] = 'V';
        Files.write(table, content);

        try (DB db = factory.open(dir, new Options())) {
            assertEquals("Value-value", asString(db.get(bytes("key"))));
            DBException e = assertThrows(DBException.class,
                    () -> db.get(bytes("key"), new ReadOptions().verifyChecksums(true)));
            assertTrue(e.getMessage().contains("block checksum mismatch"), e.getMessage());
        }
        try (DB db = factory.open(dir, new Options().paranoidChecks(true))) {
            assertThrows(DBException.class, () -> db.get(bytes("key")));
        }
        try (DB db = LevelDbFactory.factory.open(dir, new Options())) {
            assertThrows(DBException.class, () -> db.get(bytes("key")),
                    "the engine's own factory keeps the API's default, checking every block");
        }
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            if (Arrays.equals(haystack, i, i + needle.length, needle, 0, needle.length)) {
                return i;
            }
        }
        return -1;
    }

    @Test
    void destroyRemovesTheDatabase() throws IOException {
        File dir = tmp.resolve("db").toFile();
        try (DB db = factory.open(dir, new Options())) {
            db.put(bytes("a"), bytes("1"));
        }
        factory.destroy(dir, new Options());
        assertFalse(dir.exists());
    }

    @Test
    void staticHelpersAndVersion() {
        assertEquals("1.8", JniDBFactory.VERSION);
        assertEquals("h\u00e9", asString(bytes("h\u00e9")));
        assertEquals(3, bytes("h\u00e9").length);
        assertNull(bytes(null));
        assertNull(asString(null));
        JniDBFactory.pushMemoryPool(1024 * 512);
        JniDBFactory.popMemoryPool();
        assertTrue(factory.toString().startsWith("leveldbjni version 1.8"), factory.toString());
    }
}
