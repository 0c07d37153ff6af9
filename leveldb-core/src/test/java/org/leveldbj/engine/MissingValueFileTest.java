package org.leveldbj.engine;

import org.leveldbj.db.LevelDbFactory;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.leveldbj.engine.DbTestSupport.named;
import static org.leveldbj.engine.DbTestSupport.tables;
import static org.leveldbj.engine.DbTestSupport.randomBytes;
import static org.leveldbj.engine.DbTestSupport.utf8;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.iq80.leveldb.CorruptDatabaseException;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.Options;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.leveldbj.testing.MemEnv;
import org.leveldbj.testing.Seed;
import org.leveldbj.testing.SeedExtension;

/**
 * A value file that tables refer to and that is gone: every open refuses the database, as for a
 * missing table ("N missing files; e.g."), and repair turns it into one that opens without the
 * entries whose values are gone.
 */
@ExtendWith(SeedExtension.class)
class MissingValueFileTest {
    private static final int THRESHOLD = 1000;
    private final MemEnv env = new MemEnv();
    private final File dir = new File("/db");
    private final Path path = dir.toPath();

    private Options options() {
        return new Options().env(env).valueThreshold(THRESHOLD);
    }

    /**
     * Writes {@code old0..old9} and then, reopened (a reopened database starts a new value file),
     * {@code new0..new9}, all large, and {@code small} inline, compacted into tables.
     *
     * @return the values written, by key
     */
    private Map<String, byte[]> writeTwoValueFiles(Random r) throws IOException {
        Map<String, byte[]> written = new TreeMap<>();
        try (DB db = LevelDbFactory.factory.open(dir, options())) {
            for (int i = 0; i < 10; i++) {
                written.put("old" + i, randomBytes(r, 2000 + i));
                db.put(utf8("old" + i), written.get("old" + i));
            }
        }
        try (DB db = LevelDbFactory.factory.open(dir, options())) {
            for (int i = 0; i < 10; i++) {
                written.put("new" + i, randomBytes(r, 3000 + i));
                db.put(utf8("new" + i), written.get("new" + i));
            }
            written.put("small", utf8("inline"));
            db.put(utf8("small"), utf8("inline"));
            db.compactRange(null, null);
        }
        assertEquals(2, named(env, path, ".vlog").size(), "one value file per open");
        return written;
    }

    /** The database's files but the info log and the LOCK file, which every open touches. */
    private Map<String, byte[]> durableFiles() throws IOException {
        TreeMap<String, byte[]> out = DbTestSupport.files(env, path);
        out.keySet().removeIf(n -> n.equals("LOG") || n.equals("LOG.old") || n.equals("LOCK"));
        return out;
    }

    /** Asserts that an open is refused as corrupt and changes no file; returns the message. */
    private String assertOpenRefused(Options options) throws IOException {
        Map<String, byte[]> before = durableFiles();
        CorruptDatabaseException e = assertThrows(CorruptDatabaseException.class,
                () -> LevelDbFactory.factory.open(dir, options).close());
        Map<String, byte[]> after = durableFiles();
        assertEquals(before.keySet(), after.keySet(), "the refused open added or removed files");
        for (String name : before.keySet()) {
            assertArrayEquals(before.get(name), after.get(name), "the refused open changed " + name);
        }
        return e.getMessage();
    }

    @Test
    void everyOpenRefusesADatabaseWhoseTablesReferToAMissingValueFile(@Seed Random r) throws IOException {
        writeTwoValueFiles(r);
        String first = named(env, path, ".vlog").get(0);
        env.deleteFile(path.resolve(first));
        String expected = "Corruption: 1 missing files; e.g.: " + path.resolve(first);
        assertEquals(expected, assertOpenRefused(options()));
        assertEquals(expected, assertOpenRefused(options().paranoidChecks(true)));
        assertEquals(expected, assertOpenRefused(new Options().env(env).readOnly(true)));
        assertEquals(expected, assertOpenRefused(new Options().env(env)), "without a threshold too");
    }

    @Test
    void missingTablesAndValueFilesAreCountedTogether(@Seed Random r) throws IOException {
        writeTwoValueFiles(r);
        List<String> valueFiles = named(env, path, ".vlog");
        List<String> tables = tables(env, path);
        env.deleteFile(path.resolve(valueFiles.get(1)));
        env.deleteFile(path.resolve(tables.get(0)));
        // The value file was started before the compaction wrote the table: its number is smaller.
        assertEquals("Corruption: 2 missing files; e.g.: " + path.resolve(valueFiles.get(1)),
                assertOpenRefused(options()));
    }

    @Test
    void repairDropsExactlyTheEntriesWhoseValuesAreGoneAndSaysSoInTheLog(@Seed Random r) throws IOException {
        Map<String, byte[]> written = writeTwoValueFiles(r);
        String first = named(env, path, ".vlog").get(0);
        env.deleteFile(path.resolve(first));
        LevelDbFactory.factory.repair(dir, new Options().env(env));
        String log = new String(DbTestSupport.read(env, path.resolve("LOG")), StandardCharsets.UTF_8);
        for (int i = 0; i < 10; i++) {
            assertEquals(1, count(log, "'old" + i + "' @ " + (i + 1) + " : value_reference: dropped, its value cannot be"
                    + " read: IO error: " + path.resolve(first) + ": cannot open value file"), log);
        }
        assertEquals(10, count(log, ": dropped, its value cannot be read: "), log);
        assertEquals(1, count(log, ", 10 entries dropped: their separated values could not be read"), log);
        for (Options options : List.of(options(), options().paranoidChecks(true), new Options().env(env).readOnly(true))) {
            try (DB db = LevelDbFactory.factory.open(dir, options)) {
                for (Map.Entry<String, byte[]> e : written.entrySet()) {
                    if (e.getKey().startsWith("old")) {
                        assertNull(db.get(utf8(e.getKey())), e.getKey());
                    } else {
                        assertArrayEquals(e.getValue(), db.get(utf8(e.getKey())), e.getKey());
                    }
                }
                assertEquals(11, DbTestSupport.contents(db).size());
            }
        }
    }

    private static int count(String text, String part) {
        int n = 0;
        for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + 1)) {
            n++;
        }
        return n;
    }
}
