package org.leveldbj.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.Options;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.leveldbj.db.LevelDbFactory;
import org.leveldbj.testing.ReverseBytewiseComparator;

/** The exit codes and the one-line error messages, as the top-level help lists them. */
class ExitCodesTest {
    @TempDir
    Path tmp;

    @Test
    void helpAndVersion() {
        Cli.Result help = Cli.run("--help");
        assertEquals(0, help.exit(), help.toString());
        assertTrue(help.out().contains("Exit codes:\n  0  ok\n  1  key not found (get)\n  2  usage error"), help.out());
        assertEquals(1, help.out().split("Exit codes:", -1).length - 1, help.out());
        assertTrue(help.out().endsWith(ExitCode.HELP[ExitCode.HELP.length - 1] + "\n"), help.out());
        for (String command : new String[] {"get", "put", "delete", "scan", "count", "stats", "sstables", "approx-size",
                "compact", "repair", "destroy", "verify", "dump", "export", "import", "bench", "completion"}) {
            assertTrue(help.out().contains("\n  " + command + " "), command);
            Cli.Result sub = Cli.run(command, "--help");
            assertEquals(0, sub.exit(), sub.toString());
            assertTrue(sub.out().startsWith("Usage: leveldb " + command + " ")
                    || sub.out().contains("\nUsage: leveldb " + command + " "), sub.out());
            assertTrue(!sub.out().contains("Exit codes:") && !sub.out().contains(ExitCode.HELP[5]),
                    command + ": " + sub.out());
        }
        assertEquals(Cli.run("help", "scan").out(), Cli.run("scan", "--help").out());
        assertTrue(Cli.run("count", "--help").out().contains("exit.\n\nThe range: "), "a blank line before the footer");
        Cli.Result version = Cli.run("--version");
        assertEquals(0, version.exit());
        assertTrue(version.out().startsWith("leveldb (leveldbj) "), version.out());
        assertEquals(version.out(), Cli.run("get", "--version").out());
    }

    @Test
    void usageErrors() {
        Cli.Result none = Cli.run();
        assertEquals(ExitCode.USAGE, none.exit(), none.toString());
        assertEquals("leveldb: no command given\nTry 'leveldb --help' for more information.\n", none.err());

        Cli.Result unknown = Cli.run("frobnicate");
        assertEquals(ExitCode.USAGE, unknown.exit(), unknown.toString());
        assertTrue(unknown.err().startsWith("leveldb: Unmatched argument at index 0: 'frobnicate'"), unknown.err());

        Cli.Result option = Cli.run("scan", tmp, "--frm", "a");
        assertEquals(ExitCode.USAGE, option.exit(), option.toString());
        assertTrue(option.err().contains("Try 'leveldb scan --help' for more information."), option.err());

        Cli.Result missing = Cli.run("get", tmp);
        assertEquals(ExitCode.USAGE, missing.exit(), missing.toString());
        assertEquals("leveldb: Missing required parameter: 'KEY'\nTry 'leveldb get --help' for more information.\n",
                missing.err());
    }

    @Test
    void ioErrors() throws Exception {
        Cli.Result absent = Cli.run("count", tmp.resolve("absent"));
        assertEquals(ExitCode.IO, absent.exit(), absent.toString());
        Cli.Result notADb = Cli.run("count", tmp);
        assertEquals(ExitCode.IO, notADb.exit(), notADb.toString());
        assertTrue(notADb.err().startsWith("leveldb: " + tmp + " is not a LevelDB database"), notADb.err());

        Path db = tmp.resolve("db");
        TestDb.numbered(db, 5);
        try (DB open = LevelDbFactory.factory.open(db.toFile(), new Options())) {
            open.put(TestDb.utf8("k"), TestDb.utf8("v"));
            Cli.Result locked = Cli.run("get", db, "key001");
            assertEquals(ExitCode.IO, locked.exit(), locked.toString());
            assertEquals("leveldb: IO error: lock " + db.resolve("LOCK") + ": already held by process (another process,"
                    + " or another open database in this JVM, is using the database; close it and retry)\n", locked.err());
            assertEquals(ExitCode.IO, Cli.run("put", db, "a", "b").exit());
        }
    }

    @Test
    void verboseAddsTheStackTrace() {
        Cli.Result quiet = Cli.run("count", tmp.resolve("absent"));
        assertEquals(1, quiet.err().lines().count(), quiet.err());
        Cli.Result verbose = Cli.run("count", tmp.resolve("absent"), "--verbose");
        assertEquals(ExitCode.IO, verbose.exit());
        assertTrue(verbose.err().startsWith(quiet.err()), verbose.err());
        assertTrue(verbose.err().contains("\tat org.leveldbj.cli.Databases.requireDirectory"), verbose.err());
    }

    @Test
    void aDatabaseWithAnotherComparatorIsRefusedClearly() throws Exception {
        Path db = tmp.resolve("reverse");
        try (DB open = LevelDbFactory.factory.open(db.toFile(), new Options().comparator(ReverseBytewiseComparator.INSTANCE))) {
            open.put(TestDb.utf8("a"), TestDb.utf8("1"));
        }
        DirSnapshot before = DirSnapshot.of(db);
        Cli.Result r = Cli.run("get", db, "a");
        assertEquals(ExitCode.OTHER, r.exit(), r.toString());
        assertEquals("leveldb: Invalid argument: leveldbj.ReverseBytewiseComparator does not match existing comparator :"
                + " leveldb.BytewiseComparator (this tool opens only databases ordered by leveldb.BytewiseComparator;"
                + " 'leveldb dump' and 'leveldb verify' read any database)\n", r.err());
        // verify reads it all the same (without the key order check).
        Cli.Result verify = Cli.run("verify", db);
        assertEquals(0, verify.exit(), verify.toString());
        before.assertUnchanged(db, "get and verify");
    }
}
