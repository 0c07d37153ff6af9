package org.leveldbj.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.leveldbj.testing.PeerExtension;

/**
 * The read-only commands on a database written by C++ LevelDB 1.23 (interop/recipes/levels: three
 * levels, overlapping level-0 tables, bloom filters and a tail of writes left in the log): each
 * works, and afterwards every file is byte for byte what C++ wrote.
 */
@ExtendWith(PeerExtension.class)
class CppDatabaseTest {
    @TempDir
    static Path tmp;
    static Path db;
    static long liveKeys;

    @BeforeAll
    static void writeWithCpp() throws Exception {
        db = tmp.resolve("cpp-db");
        String report = CppPeer.write(db, CppPeer.recipe("levels"));
        Matcher m = Pattern.compile("(\\d+) live keys").matcher(report);
        assertTrue(m.find(), report);
        liveKeys = Long.parseLong(m.group(1));
        assertTrue(Files.list(db).anyMatch(p -> p.toString().endsWith(".log")), "C++ left a log");
    }

    private static Cli.Result ok(Object... args) {
        Cli.Result r = Cli.run(args);
        assertEquals(0, r.exit(), r.toString());
        return r;
    }

    @Test
    void readOnlyCommandsChangeNoFileOfACppDatabase() throws Exception {
        DirSnapshot before = DirSnapshot.of(db);
        List<String> tables = new ArrayList<>();
        List<String> logs = new ArrayList<>();
        String manifest = null;
        for (String name : before.files().keySet()) {
            if (name.endsWith(".ldb")) {
                tables.add(name);
            } else if (name.endsWith(".log")) {
                logs.add(name);
            } else if (name.startsWith("MANIFEST-")) {
                manifest = name;
            }
        }
        assertTrue(tables.size() >= 3, tables.toString());

        Cli.Result count = ok("count", db);
        assertEquals(List.of(Long.toString(liveKeys)), count.lines());
        before.assertUnchanged(db, "count");

        Cli.Result scan = ok("scan", db, "--format", "hex");
        assertEquals(liveKeys, scan.lines().size());
        before.assertUnchanged(db, "scan");
        Cli.Result reverse = ok("scan", db, "--format", "hex", "--reverse", "--limit", "5");
        List<String> lastFive = new ArrayList<>(scan.lines().subList(scan.lines().size() - 5, scan.lines().size()));
        java.util.Collections.reverse(lastFive);
        assertEquals(lastFive, reverse.lines());

        // A key whose newest value is in the log only (the recipe's tail): get agrees with scan.
        String[] entry = scan.lines().get(scan.lines().size() / 2).split("\t", -1);
        Cli.Result get = ok("get", db, "0x" + entry[0], "--format", "hex");
        assertEquals(List.of(entry[1]), get.lines());
        before.assertUnchanged(db, "get");

        Cli.Result stats = ok("stats", db);
        assertTrue(stats.out().contains("comparator: leveldb.BytewiseComparator"), stats.out());
        assertTrue(stats.out().contains("leveldb.num-files-at-level0: "), stats.out());
        assertTrue(stats.out().contains("leveldb.sstables:"), stats.out());
        assertTrue(stats.out().contains("compression of the blocks of the live tables:"), stats.out());
        assertTrue(Pattern.compile("table +" + tables.size() + " files").matcher(stats.out()).find(), stats.out());
        before.assertUnchanged(db, "stats");

        Cli.Result sstables = ok("sstables", db);
        assertTrue(sstables.out().startsWith("--- level 0 ---"), sstables.out());
        before.assertUnchanged(db, "sstables");

        Cli.Result size = ok("approx-size", db, "0x00", "0xff");
        assertTrue(Long.parseLong(size.out().trim()) > 100_000, size.out());
        before.assertUnchanged(db, "approx-size");

        Cli.Result verify = ok("verify", db);
        assertTrue(verify.out().contains(": " + tables.size() + " tables ("), verify.out());
        assertTrue(verify.out().endsWith(": OK\n"), verify.out());
        before.assertUnchanged(db, "verify");

        for (String table : tables) {
            Cli.Result dump = ok("dump", db.resolve(table));
            assertTrue(dump.out().contains("filter block "), dump.out());
            assertTrue(dump.out().contains("data block offset=0 "), dump.out());
        }
        Cli.Result logDump = ok("dump", db.resolve(logs.get(0)));
        assertTrue(logDump.out().contains("  batch sequence="), logDump.out());
        Cli.Result manifestDump = ok("dump", db.resolve(manifest), "--format", "json");
        assertTrue(manifestDump.out().contains("\"comparator\":\"leveldb.BytewiseComparator\""), manifestDump.out());
        ok("dump", db.resolve("CURRENT"));
        before.assertUnchanged(db, "dump");

        Path exported = tmp.resolve("export.jsonl");
        ok("export", db, exported);
        assertEquals(liveKeys, Files.readAllLines(exported, StandardCharsets.UTF_8).size());
        Cli.Result toStdout = ok("export", db, "-", "--prefix", "0001");
        assertEquals(ok("count", db, "--prefix", "0001").out().trim(), Integer.toString(toStdout.lines().size()));
        before.assertUnchanged(db, "export");
    }
}
