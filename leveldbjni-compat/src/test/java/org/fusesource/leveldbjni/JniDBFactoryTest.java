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
import org.fusesource.leveldbjni.internal.NativeDB;
import org.iq80.leveldb.CorruptDatabaseException;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.DatabaseNotFoundException;
import org.iq80.leveldb.Options;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
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
        }
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
