package org.iq80.leveldb.impl;

import static org.iq80.leveldb.impl.Iq80DBFactory.asString;
import static org.iq80.leveldb.impl.Iq80DBFactory.bytes;
import static org.iq80.leveldb.impl.Iq80DBFactory.factory;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.DBIterator;
import org.iq80.leveldb.DatabaseNotFoundException;
import org.iq80.leveldb.InvalidDatabaseArgumentException;
import org.iq80.leveldb.Options;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.leveldbj.testing.ReverseBytewiseComparator;

/**
 * iq80 leveldb 0.12's factory: its constants and helpers, its open failures (exception types and
 * messages as iq80 leveldb 0.12 gives them), and a database that also does what iq80's could not.
 */
class Iq80DBFactoryTest {
    @TempDir
    Path tmp;

    @Test
    void constantsAndHelpers() {
        assertEquals("0.12", Iq80DBFactory.VERSION);
        assertTrue(Iq80DBFactory.CPU_DATA_MODEL == 32 || Iq80DBFactory.CPU_DATA_MODEL == 64);
        assertEquals(Iq80DBFactory.CPU_DATA_MODEL > 32 && !"false".equals(System.getProperty("leveldb.mmap")),
                Iq80DBFactory.USE_MMAP);
        assertEquals("caf\u00e9", asString(bytes("caf\u00e9")));
        assertNull(bytes(null));
        assertNull(asString(null));
        assertTrue(factory.toString().startsWith("iq80 leveldb version 0.12"), factory.toString());
    }

    @Test
    void openFailuresAreIq80s() throws IOException {
        File missing = tmp.resolve("missing").toFile();
        IllegalArgumentException notThere = assertThrows(IllegalArgumentException.class,
                () -> factory.open(missing, new Options().createIfMissing(false)));
        assertEquals("Database '" + missing + "' does not exist and the create if missing option is disabled",
                notThere.getMessage());
        assertInstanceOf(DatabaseNotFoundException.class, notThere.getCause());
        assertFalse(missing.exists());

        File dir = tmp.resolve("db").toFile();
        factory.open(dir, new Options()).close();
        IllegalArgumentException exists = assertThrows(IllegalArgumentException.class,
                () -> factory.open(dir, new Options().errorIfExists(true)));
        assertEquals("Database '" + dir + "' exists and the error if exists option is enabled", exists.getMessage());
        // Other refusals are the engine's IOExceptions.
        assertThrows(InvalidDatabaseArgumentException.class,
                () -> factory.open(dir, new Options().comparator(ReverseBytewiseComparator.INSTANCE)));
    }

    @Test
    void iteratesBackwardsWhichIq80CouldNot() throws IOException {
        File dir = tmp.resolve("db").toFile();
        try (DB db = factory.open(dir, new Options())) {
            for (String k : new String[] {"a", "b", "c"}) {
                db.put(bytes(k), bytes("v" + k));
            }
            List<String> backwards = new ArrayList<>();
            try (DBIterator it = db.iterator()) {
                it.seekToLast();
                backwards.add(asString(it.peekNext().getKey()));
                while (it.hasPrev()) {
                    backwards.add(asString(it.prev().getKey()));
                }
            }
            assertEquals(List.of("c", "b", "a"), backwards);
        }
        factory.destroy(dir, new Options());
        assertFalse(dir.exists());
    }
}
