package org.leveldbj.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.leveldbj.db.LevelDbFactory.bytes;
import static org.leveldbj.db.LevelDbFactory.factory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.iq80.leveldb.DBOpenException;
import org.iq80.leveldb.DatabaseLockedException;
import org.iq80.leveldb.DatabasePathNotDirectoryException;
import org.iq80.leveldb.Env;
import org.iq80.leveldb.ExtendedDB;
import org.iq80.leveldb.Options;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.leveldbj.testing.MemEnv;

/**
 * The two mistakes users make most when opening a database give typed failures that say what
 * to do, from open, read-only open, repair and destroy alike, on the file system and in memory.
 */
class OpenErrorsTest {
    @TempDir
    Path tmp;

    @Test
    void aRegularFileIsNotADatabaseAndIsLeftAlone() throws IOException {
        Path file = tmp.resolve("plain-file");
        Files.writeString(file, "not a database");
        for (Options options : List.of(new Options(), new Options().readOnly(true), new Options().createIfMissing(false))) {
            DatabasePathNotDirectoryException e = assertThrows(DatabasePathNotDirectoryException.class,
                    () -> factory.open(file.toFile(), options).close());
            assertEquals("Invalid argument: " + file + ": not a directory (give the directory of a database)",
                    e.getMessage());
            assertEquals(file.toString(), e.path());
        }
        assertThrows(DatabasePathNotDirectoryException.class, () -> factory.repair(file.toFile(), new Options()));
        assertThrows(DatabasePathNotDirectoryException.class, () -> factory.destroy(file.toFile(), new Options()));
        assertEquals("not a database", Files.readString(file));
        assertEquals(List.of(file), listing(tmp));
    }

    @Test
    void aDatabaseOpenElsewhereIsLockedWithAHint() throws IOException {
        Path dir = tmp.resolve("db");
        Path lock = dir.resolve("LOCK");
        try (ExtendedDB db = factory.open(dir.toFile(), new Options())) {
            db.put(bytes("k"), bytes("v"));
            for (Options options : List.of(new Options(), new Options().readOnly(true))) {
                DatabaseLockedException e = assertThrows(DatabaseLockedException.class,
                        () -> factory.open(dir.toFile(), options).close());
                assertEquals("IO error: lock " + lock + ": already held by process (another process, or another"
                        + " open database in this JVM, is using the database; close it and retry)", e.getMessage());
                assertEquals(lock.toString(), e.lockFile());
                assertTrue(e instanceof DBOpenException);
            }
            assertThrows(DatabaseLockedException.class, () -> factory.repair(dir.toFile(), new Options()));
            assertThrows(DatabaseLockedException.class, () -> factory.destroy(dir.toFile(), new Options()));
            assertEquals("v", LevelDbFactory.asString(db.get(bytes("k"))));
        }
        try (ExtendedDB db = factory.open(dir.toFile(), new Options().createIfMissing(false))) {
            assertEquals("v", LevelDbFactory.asString(db.get(bytes("k"))));
        }
    }

    @Test
    void inMemoryEnvironmentsGiveTheSameTypes() throws IOException {
        Env env = new MemEnv();
        Path dir = Path.of("/mem/db");
        Options options = new Options().env(env);
        try (ExtendedDB db = factory.open(dir.toFile(), options)) {
            db.put(bytes("k"), bytes("v"));
            assertThrows(DatabaseLockedException.class, () -> factory.open(dir.toFile(), options).close());
        }
        Path file = dir.resolve("LOG");
        assertTrue(env.fileExists(file));
        assertFalse(env.isDirectory(file));
        assertTrue(env.isDirectory(dir));
        assertThrows(DatabasePathNotDirectoryException.class, () -> factory.open(file.toFile(), options).close());
    }

    @Test
    void aMissingPathIsNotADirectoryProblem() {
        Path missing = tmp.resolve("missing");
        DBOpenException e = assertThrows(DBOpenException.class,
                () -> factory.open(missing.toFile(), new Options().createIfMissing(false)).close());
        assertFalse(e instanceof DatabasePathNotDirectoryException, e.toString());
        assertFalse(Files.exists(missing));
    }

    private static List<Path> listing(Path dir) throws IOException {
        try (var files = Files.list(dir)) {
            return files.toList();
        }
    }
}
