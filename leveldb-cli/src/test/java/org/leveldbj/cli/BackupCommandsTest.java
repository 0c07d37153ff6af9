package org.leveldbj.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.Options;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.leveldbj.db.LevelDbFactory;
import org.leveldbj.testing.PeerExtension;

/**
 * {@code leveldb backup create|list|verify|restore|purge}: text and JSON output, what each
 * leaves on disk, the exit codes of bad arguments, damaged backups and foreign directories,
 * progress on a terminal, and a backup of a C++ database restored and opened by C++ LevelDB.
 */
class BackupCommandsTest {
    @TempDir
    Path tmp;

    private Path db;
    private Path backups;

    @BeforeEach
    void database() throws Exception {
        db = tmp.resolve("db");
        backups = tmp.resolve("backups");
        TestDb.numbered(db, 300);
    }

    private static Cli.Result ok(Object... args) {
        Cli.Result r = Cli.run(args);
        assertEquals(0, r.exit(), r.toString());
        return r;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> object(String line) {
        return (Map<String, Object>) JsonOutputTest.parse(line);
    }

    private void put(String key, String value) throws Exception {
        try (DB open = LevelDbFactory.factory.open(db.toFile(), new Options())) {
            open.put(TestDb.utf8(key), TestDb.utf8(value));
        }
    }

    @Test
    void createListVerifyRestorePurge() throws Exception {
        Cli.Result first = ok("backup", "create", db, backups);
        assertTrue(first.out().matches("backup 1 of " + db + " in " + backups
                + ": sequence 300, (\\d+) files \\(.+\\), \\1 files new \\(.+\\)\n"), first.out());
        String scanFirst = Cli.run("scan", db).out();
        put("added", "later");
        Cli.Result second = ok("backup", "create", db, backups);
        assertTrue(second.out().matches("backup 2 of .*: sequence 301, \\d+ files \\(.+\\), [2-5] files new \\(.+\\)\n"),
                "only what changed, and its own files: " + second.out());

        List<String> list = ok("backup", "list", backups).lines();
        assertEquals(3, list.size(), list.toString());
        assertTrue(list.get(0).matches("id\\s+time \\(UTC\\)\\s+sequence\\s+files\\s+size\\s+new"), list.get(0));
        assertTrue(list.get(1).matches("1\\s+\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ\\s+300\\s+\\d+\\s+.+"), list.get(1));
        assertTrue(list.get(2).startsWith("2 "), list.get(2));

        assertEquals(List.of("verified backup 2 in " + backups + ": " + list.get(2).split("\\s+")[3] + " files ("
                + list.get(2).split("\\s+")[4] + " " + list.get(2).split("\\s+")[5] + "): OK"),
                ok("backup", "verify", backups, "2").lines());
        Cli.Result restored = ok("backup", "restore", backups, "1", tmp.resolve("r1"));
        assertTrue(restored.out().startsWith("restored backup 1 of " + backups + " to " + tmp.resolve("r1")
                + ": sequence 300, "), restored.out());
        assertEquals(scanFirst, Cli.run("scan", tmp.resolve("r1")).out());
        ok("backup", "restore", backups, "latest", tmp.resolve("r2"));
        assertEquals(Cli.run("scan", db).out(), Cli.run("scan", tmp.resolve("r2")).out());

        Cli.Result purged = ok("backup", "purge", backups, "--keep", "1");
        assertTrue(purged.out().matches("purged " + backups + ": 1 backup deleted \\(1\\), \\d+ files \\(.+\\) freed;"
                + " kept 2\n"), purged.out());
        assertEquals(2, ok("backup", "list", backups).lines().size());
        Cli.Result none = ok("backup", "purge", backups, "--keep", "0");
        assertTrue(none.out().endsWith("kept none\n"), none.out());
        Cli.Result empty = ok("backup", "list", backups);
        assertEquals("", empty.out());
        assertEquals("no backups in " + backups + "\n", empty.err());
    }

    @Test
    void jsonShapes() throws Exception {
        Map<String, Object> made = object(ok("backup", "create", db, backups, "--format", "json").out().trim());
        List<String> infoKeys = List.of("id", "time", "sequence", "files", "bytes", "new_files", "new_bytes", "database",
                "library", "format");
        assertEquals(Stream.concat(infoKeys.stream(), Stream.of("backup_dir")).toList(), List.copyOf(made.keySet()));
        assertEquals(1L, made.get("id"));
        assertEquals(300L, made.get("sequence"));
        assertEquals(db.toAbsolutePath().toString(), made.get("database"));
        assertEquals(1L, made.get("format"));
        assertTrue(((String) made.get("time")).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ"), made.toString());
        assertEquals(made.get("bytes"), made.get("new_bytes"));
        ok("backup", "create", db, backups, "--quiet");

        List<String> lines = ok("backup", "list", backups, "--format", "json").lines();
        assertEquals(2, lines.size());
        Map<String, Object> one = object(lines.get(0));
        assertEquals(infoKeys, List.copyOf(one.keySet()));
        made.remove("backup_dir");
        assertEquals(made, one);
        assertEquals(2L, object(lines.get(1)).get("id"));

        Map<String, Object> verified = object(ok("backup", "verify", backups, "1", "--format", "json").out().trim());
        assertEquals(Map.of("kind", "summary", "id", 1L, "files", one.get("files"), "bytes", one.get("bytes"),
                "problems", 0L, "ok", true), verified);
        assertEquals(List.of("kind", "id", "files", "bytes", "problems", "ok"), List.copyOf(verified.keySet()));

        Map<String, Object> restored = object(ok("backup", "restore", backups, "1", tmp.resolve("r"), "--format", "json")
                .out().trim());
        assertEquals(List.of("id", "target", "sequence", "files", "bytes"), List.copyOf(restored.keySet()));
        assertEquals(tmp.resolve("r").toString(), restored.get("target"));

        Map<String, Object> purged = object(ok("backup", "purge", backups, "--keep", "1", "--format", "json").out().trim());
        assertEquals(List.of("deleted", "kept", "files_deleted", "bytes_freed"), List.copyOf(purged.keySet()));
        assertEquals(List.of(1L), purged.get("deleted"));
        assertEquals(List.of(2L), purged.get("kept"));
    }

    @Test
    void aDamagedBackupIsReportedWithExitCode3() throws Exception {
        ok("backup", "create", db, backups);
        Path shared;
        try (Stream<Path> files = Files.list(backups.resolve("shared"))) {
            shared = files.sorted().findFirst().orElseThrow();
        }
        byte[] bytes = Files.readAllBytes(shared);
        bytes[bytes.length / 2] ^= 1;
        Files.write(shared, bytes);
        Cli.Result text = Cli.run("backup", "verify", backups, "1");
        assertEquals(ExitCode.CORRUPTION, text.exit(), text.toString());
        assertTrue(text.lines().get(0).matches(Pattern.quote(shared.toString()) + ": backup 1: checksum mismatch \\(its"
                + " meta file says crc32c [0-9a-f]{8}, the bytes give [0-9a-f]{8}\\)"), text.out());
        assertTrue(text.lines().get(1).endsWith(": 1 problem"), text.out());
        assertTrue(text.err().startsWith("leveldb: 1 problem in backup 1 of " + backups + "; the first: corruption in "
                + shared + ": backup 1: checksum mismatch"), text.err());
        assertFalse(text.err().contains("repair"), "no database repair hint: " + text.err());

        Cli.Result json = Cli.run("backup", "verify", backups, "1", "--format", "json");
        assertEquals(ExitCode.CORRUPTION, json.exit());
        Map<String, Object> problem = object(json.lines().get(0));
        assertEquals(List.of("kind", "file", "reason"), List.copyOf(problem.keySet()));
        assertEquals(shared.toString(), problem.get("file"));
        assertEquals(false, object(json.lines().get(1)).get("ok"));

        Cli.Result restore = Cli.run("backup", "restore", backups, "1", tmp.resolve("r"));
        assertEquals(ExitCode.CORRUPTION, restore.exit(), restore.toString());
        assertTrue(restore.err().startsWith("leveldb: corruption in " + shared + ": backup 1: checksum mismatch"),
                restore.err());
        assertFalse(Files.exists(tmp.resolve("r")));
    }

    @Test
    void badArgumentsAndDirectories() throws Exception {
        ok("backup", "create", db, backups);
        Cli.Result unknown = Cli.run("backup", "verify", backups, "7");
        assertEquals(ExitCode.USAGE, unknown.exit(), unknown.toString());
        assertEquals("leveldb: Invalid argument: no backup 7 in " + backups + " (its backups: 1)\n", unknown.err());
        Cli.Result bad = Cli.run("backup", "restore", backups, "first", tmp.resolve("r"));
        assertEquals(ExitCode.USAGE, bad.exit(), bad.toString());
        assertEquals("leveldb: bad backup id 'first' (a number from 1, or 'latest')\n", bad.err());
        Files.createDirectories(tmp.resolve("full"));
        Files.writeString(tmp.resolve("full").resolve("x"), "x");
        Cli.Result full = Cli.run("backup", "restore", backups, "1", tmp.resolve("full"));
        assertEquals(ExitCode.USAGE, full.exit(), full.toString());
        assertTrue(full.err().contains(": not empty (it holds x;"), full.err());
        Cli.Result keep = Cli.run("backup", "purge", backups);
        assertEquals(ExitCode.USAGE, keep.exit(), keep.toString());
        assertTrue(keep.err().startsWith("leveldb: Missing required option: '--keep=N'"), keep.err());
        Cli.Result negative = Cli.run("backup", "purge", backups, "--keep", "-1");
        assertEquals(ExitCode.USAGE, negative.exit(), negative.toString());
        Cli.Result nothing = Cli.run("backup");
        assertEquals(ExitCode.USAGE, nothing.exit(), nothing.toString());
        assertTrue(nothing.err().startsWith("leveldb: no backup command given"), nothing.err());

        Cli.Result database = Cli.run("backup", "list", db);
        assertEquals(ExitCode.IO, database.exit(), database.toString());
        assertTrue(database.err().startsWith("leveldb: Invalid argument: " + db + ": not a backup directory"),
                database.err());
        assertTrue(database.err().contains("it looks like a database"), database.err());
        Cli.Result intoDatabase = Cli.run("backup", "create", db, db);
        assertEquals(ExitCode.IO, intoDatabase.exit(), intoDatabase.toString());
        Cli.Result missing = Cli.run("backup", "list", tmp.resolve("missing"));
        assertEquals(ExitCode.IO, missing.exit(), missing.toString());
        assertEquals("leveldb: " + tmp.resolve("missing") + " does not exist (give a backup directory; 'leveldb backup"
                + " create' makes one)\n", missing.err());
        assertFalse(Files.exists(tmp.resolve("missing")));
        Cli.Result noDatabase = Cli.run("backup", "create", tmp.resolve("nodb"), tmp.resolve("b2"));
        assertEquals(ExitCode.IO, noDatabase.exit(), noDatabase.toString());
        assertFalse(Files.exists(tmp.resolve("b2")), "no backup directory made for nothing");
    }

    @Test
    void helpListsTheSubcommands() {
        Cli.Result help = ok("backup", "--help");
        for (String sub : new String[] {"create", "list", "verify", "restore", "purge"}) {
            assertTrue(help.out().contains("\n  " + sub + " "), help.out());
            Cli.Result subHelp = ok("backup", sub, "--help");
            assertTrue(subHelp.out().startsWith("Usage: leveldb backup " + sub + " ")
                    || subHelp.out().contains("\nUsage: leveldb backup " + sub + " "), subHelp.out());
        }
        Cli.Result top = ok("--help");
        assertTrue(top.out().contains("\n  backup ") && top.out().contains("\n  checkpoint "), top.out());
    }

    @Test
    void progressIsDrawnOnATerminal() throws Exception {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
             PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            Io terminal = new Io(o, e, new ByteArrayInputStream(new byte[0]), true);
            assertEquals(0, Main.run(new String[] {"backup", "create", db.toString(), backups.toString()}, terminal));
            assertEquals(0, Main.run(new String[] {"backup", "verify", backups.toString(), "1"}, terminal));
        }
        String drawn = err.toString(StandardCharsets.UTF_8);
        assertTrue(drawn.contains("\rbacking up " + db + " ["), drawn);
        assertTrue(drawn.contains("\rverifying backup 1 ["), drawn);
    }

    @Test
    @ExtendWith(PeerExtension.class)
    void aBackupOfACppDatabaseRestoresAndOpensInCpp() throws Exception {
        Path cpp = tmp.resolve("cpp-db");
        CppPeer.write(cpp, CppPeer.recipe("levels"));
        ok("backup", "create", cpp, backups);
        ok("backup", "restore", backups, "latest", tmp.resolve("restored"));
        assertTrue(CppPeer.verify(tmp.resolve("restored"), CppPeer.recipe("levels")).startsWith("verify ok"));
    }
}
