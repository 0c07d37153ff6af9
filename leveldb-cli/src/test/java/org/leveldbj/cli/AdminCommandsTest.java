package org.leveldbj.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.ExtendedDB;
import org.iq80.leveldb.Options;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.leveldbj.db.LevelDbFactory;

/** compact, repair, destroy, stats, sstables and approx-size on databases written by leveldbj. */
class AdminCommandsTest {
    @TempDir
    Path tmp;

    private static long tables(Path dir) throws Exception {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.toString().endsWith(".sst") || p.toString().endsWith(".ldb")).count();
        }
    }

    @Test
    void compactMergesTablesAndKeepsTheData() throws Exception {
        Path db = tmp.resolve("db");
        // Three overlapping tables of overwrites, one flushed per round.
        for (int round = 0; round < 3; round++) {
            try (ExtendedDB d = LevelDbFactory.factory.open(db.toFile(), new Options())) {
                for (int i = 0; i < 500; i++) {
                    d.put(TestDb.utf8(String.format("key%04d", i)), TestDb.utf8("round" + round));
                }
                d.flushMemTable();
            }
        }
        Cli.Result before = Cli.run("scan", db, "--keys-only");
        long tablesBefore = tables(db);
        assertTrue(tablesBefore >= 2, "tables " + tablesBefore);

        Cli.Result r = Cli.run("compact", db);
        assertEquals(0, r.exit(), r.toString());
        Matcher m = Pattern.compile("compacted " + Pattern.quote(db.toString())
                + ": (\\d+) tables? \\(.+\\) before, (\\d+) tables? \\(.+\\) after").matcher(r.out().trim());
        assertTrue(m.matches(), r.out());
        assertEquals(tablesBefore, Long.parseLong(m.group(1)));
        assertEquals(tables(db), Long.parseLong(m.group(2)));
        assertTrue(tables(db) < tablesBefore, r.out());
        assertEquals(before.out(), Cli.run("scan", db, "--keys-only").out());
        assertEquals(List.of("round2"), Cli.run("get", db, "key0042").lines());
        assertEquals(0, Cli.run("compact", db, "--from", "key0100", "--to", "key0200").exit());
    }

    @Test
    void repairRebuildsALostManifest() throws Exception {
        Path db = tmp.resolve("db");
        TestDb.numbered(db, 300);
        try (Stream<Path> files = Files.list(db)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                String name = p.getFileName().toString();
                if (name.startsWith("MANIFEST-") || name.equals("CURRENT")) {
                    Files.delete(p);
                }
            }
        }
        Cli.Result lost = Cli.run("get", db, "key007");
        assertEquals(ExitCode.IO, lost.exit(), lost.toString());
        assertEquals("leveldb: " + db + " is not a LevelDB database (it has no CURRENT file; 'leveldb repair' can"
                + " rebuild one from the tables and logs)\n", lost.err());

        Cli.Result r = Cli.run("repair", db);
        assertEquals(0, r.exit(), r.toString());
        assertTrue(r.out().contains("repair done: 1 table at level 1"), r.out());
        assertTrue(r.out().endsWith("repaired " + db + ": 1 table (" + Progress.bytes(Files.size(TestDb.firstTable(db)))
                + ")\n"), r.out());
        assertEquals(List.of("value7"), Cli.run("get", db, "key007").lines());
        assertEquals(List.of("300"), Cli.run("count", db).lines());

        Path empty = Files.createDirectory(tmp.resolve("empty"));
        Cli.Result nothing = Cli.run("repair", empty);
        assertEquals(ExitCode.IO, nothing.exit(), nothing.toString());
        assertEquals(List.of(), List.of(empty.toFile().list()));
    }

    @Test
    void destroyNeedsConfirmation() throws Exception {
        Path db = tmp.resolve("db");
        TestDb.numbered(db, 10);
        Cli.Result refused = Cli.run("destroy", db);
        assertEquals(ExitCode.USAGE, refused.exit(), refused.toString());
        assertEquals("leveldb: destroy deletes the database in " + db + " and cannot be undone; add --yes to confirm\n",
                refused.err());
        assertTrue(Files.isRegularFile(db.resolve("CURRENT")));

        Cli.Result r = Cli.run("destroy", db, "--yes");
        assertEquals(0, r.exit(), r.toString());
        assertEquals(List.of("destroyed " + db), r.lines());
        assertFalse(Files.exists(db));
    }

    @Test
    void statsSstablesAndApproximateSizes() throws Exception {
        Path db = tmp.resolve("db");
        TestDb.numbered(db, 2000);
        DirSnapshot before = DirSnapshot.of(db);
        Cli.Result stats = Cli.run("stats", db);
        assertEquals(0, stats.exit(), stats.toString());
        List<String> lines = stats.lines();
        assertEquals("database: " + db, lines.get(0));
        assertEquals("comparator: leveldb.BytewiseComparator", lines.get(1));
        assertTrue(lines.contains("files by type:"), stats.out());
        assertTrue(lines.stream().anyMatch(l -> l.matches("  table +1 file +\\d+ bytes")), stats.out());
        assertTrue(lines.stream().anyMatch(l -> l.matches("  level \\d +1 file +\\d+ bytes")), stats.out());
        assertTrue(lines.stream().anyMatch(l -> l.matches("approximate size of all keys: [1-9]\\d* bytes")), stats.out());
        assertTrue(lines.stream().anyMatch(l -> l.matches("  snappy +\\d+ blocks")), stats.out());
        for (int level = 0; level < 7; level++) {
            assertTrue(lines.stream().anyMatch(l -> l.startsWith("  leveldb.num-files-at-level")), stats.out());
        }
        assertTrue(stats.out().contains("  leveldb.approximate-memory-usage: "), stats.out());
        assertTrue(lines.contains("statistics:"), stats.out());
        assertTrue(lines.stream().anyMatch(l -> l.matches("  level\\.files +\\[(\\d, ){6}\\d\\] \\(1 in all\\)")), stats.out());
        assertTrue(lines.stream().anyMatch(l -> l.matches("  pending\\.compaction\\.bytes +0")), stats.out());
        assertTrue(lines.stream().anyMatch(l -> l.matches("  value\\.files +0")), stats.out());

        Cli.Result sstables = Cli.run("sstables", db);
        assertEquals(0, sstables.exit(), sstables.toString());
        assertTrue(sstables.out().startsWith("--- level 0 ---\n"), sstables.out());
        assertTrue(sstables.out().contains("['key000' @ 1 : value .. 'key999' @ 2000 : value]"), sstables.out());

        long all = Long.parseLong(Cli.run("approx-size", db, "key", "kez").out().trim());
        long half = Long.parseLong(Cli.run("approx-size", db, "key000", "key5").out().trim());
        assertTrue(all > 10_000, "all " + all);
        assertTrue(half > 0 && half < all, "half " + half + " of " + all);
        assertEquals(List.of("0"), Cli.run("approx-size", db, "x", "y").lines());
        before.assertUnchanged(db, "stats, sstables, approx-size");
    }
}
