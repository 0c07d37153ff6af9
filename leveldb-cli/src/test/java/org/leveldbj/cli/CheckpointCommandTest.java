package org.leveldbj.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.Options;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.leveldbj.db.LevelDbFactory;
import org.leveldbj.testing.PeerExtension;

/**
 * {@code leveldb checkpoint DB DIR}: the copy opens with the same contents, its tables are links
 * (nothing of them copied), the database's files are unchanged; JSON; bad targets are usage
 * errors; a database written by C++ LevelDB gives a checkpoint C++ LevelDB opens with the same
 * contents.
 */
class CheckpointCommandTest {
    @TempDir
    Path tmp;

    private Path db;

    @BeforeEach
    void database() throws Exception {
        db = tmp.resolve("db");
        TestDb.numbered(db, 300);
        try (DB open = LevelDbFactory.factory.open(db.toFile(), new Options())) {
            open.put(TestDb.utf8("log0"), TestDb.utf8("in the log"));
        }
    }

    @Test
    void aCheckpointLinksTheTablesAndOpensWithTheSameContents() throws Exception {
        DirSnapshot before = DirSnapshot.of(db);
        Path copy = tmp.resolve("copy");
        Cli.Result r = Cli.run("checkpoint", db, copy);
        assertEquals(0, r.exit(), r.toString());
        Matcher m = Pattern.compile("checkpoint of " + Pattern.quote(db.toString()) + " in " + Pattern.quote(copy.toString())
                + ": (\\d+) files \\((.+)\\), (\\d+) files? linked, (\\d+) files copied \\((.+)\\)\n").matcher(r.out());
        assertTrue(m.matches(), r.out());
        long tables = before.files().keySet().stream().filter(n -> n.endsWith(".sst") || n.endsWith(".ldb")).count();
        assertEquals(tables, Long.parseLong(m.group(3)), "every table linked");
        assertEquals(3, Long.parseLong(m.group(4)), "the log, MANIFEST and CURRENT written");
        before.assertUnchanged(db, "checkpoint");
        assertEquals(Cli.run("scan", db).out(), Cli.run("scan", copy).out());
        assertEquals(List.of("in the log"), Cli.run("get", copy, "log0").lines());
        assertFalse(Files.exists(tmp.resolve("copy.checkpoint-tmp")));
    }

    @Test
    void json() {
        Cli.Result r = Cli.run("checkpoint", db, tmp.resolve("copy"), "--format", "json");
        assertEquals(0, r.exit(), r.toString());
        @SuppressWarnings("unchecked")
        Map<String, Object> o = (Map<String, Object>) JsonOutputTest.parse(r.out().trim());
        assertEquals(List.of("database", "checkpoint", "files", "bytes", "linked_files", "copied_files", "copied_bytes"),
                List.copyOf(o.keySet()));
        assertEquals(db.toString(), o.get("database"));
        assertEquals((Long) o.get("files"), (Long) o.get("linked_files") + (Long) o.get("copied_files"));
        assertTrue((Long) o.get("copied_bytes") < (Long) o.get("bytes"), o.toString());
    }

    @Test
    void badTargetsAndDatabases() throws Exception {
        Files.createDirectories(tmp.resolve("full"));
        Files.writeString(tmp.resolve("full").resolve("x"), "x");
        Cli.Result full = Cli.run("checkpoint", db, tmp.resolve("full"));
        assertEquals(ExitCode.USAGE, full.exit(), full.toString());
        assertEquals("leveldb: Invalid argument: " + tmp.resolve("full") + ": not empty (it holds x;"
                + " a checkpoint goes into a new or empty directory)\n", full.err());
        Cli.Result inside = Cli.run("checkpoint", db, db.resolve("inside"));
        assertEquals(ExitCode.USAGE, inside.exit(), inside.toString());
        Cli.Result missing = Cli.run("checkpoint", tmp.resolve("nothing"), tmp.resolve("c"));
        assertEquals(ExitCode.IO, missing.exit(), missing.toString());
        try (DB open = LevelDbFactory.factory.open(db.toFile(), new Options())) {
            open.put(TestDb.utf8("k"), TestDb.utf8("v"));
            Cli.Result locked = Cli.run("checkpoint", db, tmp.resolve("c"));
            assertEquals(ExitCode.IO, locked.exit(), locked.toString());
            assertTrue(locked.err().contains("already held by process"), locked.err());
        }
        assertFalse(Files.exists(tmp.resolve("c")));
    }

    @Test
    @ExtendWith(PeerExtension.class)
    void aCheckpointOfACppDatabaseOpensInCpp() throws Exception {
        Path cpp = tmp.resolve("cpp-db");
        CppPeer.write(cpp, CppPeer.recipe("levels"));
        Path copy = tmp.resolve("cpp-copy");
        Cli.Result r = Cli.run("checkpoint", cpp, copy);
        assertEquals(0, r.exit(), r.toString());
        assertTrue(CppPeer.verify(copy, CppPeer.recipe("levels")).startsWith("verify ok"));
    }
}
