package org.leveldbj.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.leveldbj.db.LevelDbFactory.bytes;

import org.leveldbj.db.LevelDbFactory;
import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.Options;
import org.iq80.leveldb.TableFileSuffix;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The tables a database writes are named {@code .sst}, the name every LevelDB reader opens,
 * unless the directory already holds an {@code .ldb} table (then {@code .ldb}, as C++ LevelDB
 * 1.23 writes), and either when forced. So a database that leveldbjni 1.8 could open, with or
 * without tables, stays one it can open.
 */
class TableFileSuffixTest {
    @TempDir
    Path tmp;

    private static List<String> tables(File dir) {
        String[] names = dir.list((d, n) -> n.endsWith(".sst") || n.endsWith(".ldb"));
        Arrays.sort(names);
        return List.of(names);
    }

    /** Writes keys and compacts, so the database flushes and rewrites its tables. */
    private static void writeAndCompact(File dir, Options options, String prefix) throws IOException {
        try (DB db = LevelDbFactory.factory.open(dir, options)) {
            for (int i = 0; i < 2000; i++) {
                db.put(bytes(prefix + i), bytes("value " + prefix + i));
            }
            db.compactRange(null, null);
        }
    }

    private static void assertReads(File dir, String... prefixes) throws IOException {
        try (DB db = LevelDbFactory.factory.open(dir, new Options())) {
            for (String prefix : prefixes) {
                for (int i = 0; i < 2000; i += 97) {
                    assertArrayEquals(bytes("value " + prefix + i), db.get(bytes(prefix + i)), prefix + i);
                }
            }
        }
    }

    private static boolean all(List<String> names, String suffix) {
        return !names.isEmpty() && names.stream().allMatch(n -> n.endsWith(suffix));
    }

    @Test
    void aNewDatabaseWritesSst() throws IOException {
        File dir = tmp.resolve("new").toFile();
        writeAndCompact(dir, new Options(), "a");
        assertTrue(all(tables(dir), ".sst"), tables(dir).toString());
        assertReads(dir, "a");
    }

    /** leveldbjni 1.8 creates a database and writes a few entries: they are still in its log. */
    @Test
    void aDatabaseWithOnlyALogWritesSst() throws IOException {
        File dir = tmp.resolve("log-only").toFile();
        try (DB db = LevelDbFactory.factory.open(dir, new Options().tableFileSuffix(TableFileSuffix.LDB))) {
            db.put(bytes("a0"), bytes("value a0"));
        }
        assertEquals(List.of(), tables(dir), "the entry is still in the log");
        writeAndCompact(dir, new Options(), "a");
        assertTrue(all(tables(dir), ".sst"), tables(dir).toString());
        assertReads(dir, "a");
    }

    @Test
    void aDatabaseOfLdbTablesKeepsWritingLdb() throws IOException {
        File dir = tmp.resolve("ldb").toFile();
        writeAndCompact(dir, new Options().tableFileSuffix(TableFileSuffix.LDB), "a");
        List<String> before = tables(dir);
        assertTrue(all(before, ".ldb"), before.toString());
        writeAndCompact(dir, new Options(), "b");
        List<String> added = added(before, tables(dir));
        assertTrue(all(added, ".ldb"), added.toString());
        assertReads(dir, "a", "b");
    }

    @Test
    void aDatabaseOfSstTablesKeepsWritingSst() throws IOException {
        File dir = tmp.resolve("sst").toFile();
        writeAndCompact(dir, new Options().tableFileSuffix(TableFileSuffix.SST), "a");
        List<String> before = tables(dir);
        assertTrue(all(before, ".sst"), before.toString());
        // Opened with the default rule: new flushes and compaction outputs are .sst too.
        writeAndCompact(dir, new Options(), "b");
        List<String> after = tables(dir);
        assertTrue(all(after, ".sst"), after.toString());
        assertFalse(before.equals(after), "the compaction rewrote no table");
        assertReads(dir, "a", "b");
        // And so does repair.
        LevelDbFactory.factory.repair(dir, new Options());
        assertTrue(all(tables(dir), ".sst"), tables(dir).toString());
        assertReads(dir, "a", "b");
    }

    /** The tables in {@code after} that were not in {@code before}. */
    private static List<String> added(List<String> before, List<String> after) {
        return after.stream().filter(n -> !before.contains(n)).toList();
    }

    @Test
    void aDatabaseWithAnLdbTableWritesLdb() throws IOException {
        File dir = tmp.resolve("mixed").toFile();
        writeAndCompact(dir, new Options().tableFileSuffix(TableFileSuffix.SST), "a");
        writeAndCompact(dir, new Options().tableFileSuffix(TableFileSuffix.LDB), "b");
        List<String> mixed = tables(dir);
        assertTrue(mixed.stream().anyMatch(n -> n.endsWith(".ldb")) && mixed.stream().anyMatch(n -> n.endsWith(".sst")),
                mixed.toString());
        writeAndCompact(dir, new Options(), "a"); // rewrites the .sst table's keys
        List<String> added = added(mixed, tables(dir));
        assertTrue(all(added, ".ldb"), added.toString());
        assertReads(dir, "a", "b");
    }

    @Test
    void forcedSuffixesWin() throws IOException {
        File dir = tmp.resolve("forced").toFile();
        writeAndCompact(dir, new Options().tableFileSuffix(TableFileSuffix.SST), "a");
        List<String> before = tables(dir);
        writeAndCompact(dir, new Options().tableFileSuffix(TableFileSuffix.LDB), "a");
        List<String> added = added(before, tables(dir));
        assertTrue(all(added, ".ldb"), added.toString());
        before = tables(dir);
        writeAndCompact(dir, new Options().tableFileSuffix(TableFileSuffix.SST), "a");
        added = added(before, tables(dir));
        assertTrue(all(added, ".sst"), added.toString());
        assertReads(dir, "a");
    }
}
