package org.leveldbj.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.TreeMap;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.Options;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.leveldbj.db.LevelDbFactory;

/** {@code verify} on a clean database, a table with a flipped byte, and a torn log. */
class VerifyTest {
    @TempDir
    Path tmp;
    Path db;

    @BeforeEach
    void write() throws IOException {
        db = tmp.resolve("db");
        TreeMap<byte[], byte[]> tables = TestDb.model();
        for (int i = 0; i < 2000; i++) {
            tables.put(TestDb.utf8(String.format("key%05d", i)), TestDb.utf8("value-" + i + "-" + "v".repeat(i % 40)));
        }
        TreeMap<byte[], byte[]> log = TestDb.model();
        for (int i = 0; i < 10; i++) {
            log.put(TestDb.utf8("log" + i), TestDb.utf8("logged value " + i));
        }
        TestDb.write(db, tables, log);
    }

    @Test
    void aCleanDatabaseVerifies() {
        DirSnapshot before = DirSnapshot.of(db);
        Cli.Result r = Cli.run("verify", db);
        assertEquals(0, r.exit(), r.toString());
        assertEquals(List.of("verified " + db + ": 1 table (" + blocks() + " blocks, 2000 entries), 1 log (10 records,"
                + " 10 entries), " + manifest() + " (3 records): OK"), r.lines());
        assertEquals("", r.err());
        before.assertUnchanged(db, "verify");
    }

    /** The number of blocks of the table: data blocks plus index, metaindex (no filter). */
    private long blocks() {
        Cli.Result dump = Cli.run("dump", firstTable());
        return dump.lines().stream().filter(l -> l.matches("\\w+ block offset=.*")).count();
    }

    private String manifest() {
        return DirSnapshot.of(db).files().keySet().stream().filter(n -> n.startsWith("MANIFEST-")).findFirst().orElseThrow();
    }

    private Path firstTable() {
        try {
            return TestDb.firstTable(db);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void aFlippedByteInATableIsReportedWithFileAndOffset() throws IOException {
        Path table = TestDb.firstTable(db);
        // The second data block: its offset is where the dump says it starts.
        String second = Cli.run("dump", table).lines().stream().filter(l -> l.startsWith("data block offset="))
                .skip(1).findFirst().orElseThrow();
        long offset = Long.parseLong(second.substring("data block offset=".length(), second.indexOf(' ', 18)));
        flip(table, offset + 20);

        Cli.Result r = Cli.run("verify", db);
        assertEquals(ExitCode.CORRUPTION, r.exit(), r.toString());
        assertTrue(r.lines().contains("problem: " + table + " at offset " + offset + ": block checksum mismatch"), r.out());
        assertTrue(r.lines().get(r.lines().size() - 1).endsWith(manifest() + " (3 records): 1 problem"), r.out());
        assertEquals("leveldb: 1 problem in " + db + "; the first: corruption in " + table + " at offset " + offset
                + ": block checksum mismatch (run 'leveldb repair " + db.toAbsolutePath() + "')\n", r.err());

        // Reading through the damaged block fails the same way, with the corruption exit code.
        Cli.Result scan = Cli.run("scan", db);
        assertEquals(ExitCode.CORRUPTION, scan.exit(), scan.toString());
        assertTrue(scan.err().startsWith("leveldb: corruption in " + table + " at offset " + offset
                + ": block checksum mismatch"), scan.err());
        // dump reports the damaged block, shows the others, and exits with the corruption code.
        Cli.Result dump = Cli.run("dump", table);
        assertEquals(ExitCode.CORRUPTION, dump.exit(), dump.toString());
        assertTrue(dump.lines().contains("problem: offset " + offset + ": block checksum mismatch"), dump.out());
    }

    @Test
    void aTornLogIsReportedAtTheEndOfItsLastIntactRecord() throws IOException {
        Path log = TestDb.lastLog(db);
        List<String> records = Cli.run("dump", log).lines().stream().filter(l -> l.startsWith("record ")).toList();
        assertEquals(10, records.size());
        String last = records.get(9);
        long lastOffset = Long.parseLong(last.substring("record offset=".length(), last.indexOf(' ', 14)));
        long size = Files.size(log);
        try (FileChannel ch = FileChannel.open(log, StandardOpenOption.WRITE)) {
            ch.truncate(lastOffset + 10);
        }

        Cli.Result r = Cli.run("verify", db);
        assertEquals(ExitCode.CORRUPTION, r.exit(), r.toString());
        assertTrue(r.lines().contains("problem: " + log + " at offset " + lastOffset + ": torn write: the last 10 bytes"
                + " hold an incomplete record (a crash during a write leaves this; opening the database ignores them)"),
                r.out());
        assertTrue(r.out().contains("1 log (9 records, 9 entries)"), r.out());
        assertTrue(size > lastOffset + 10);
    }

    @Test
    void aFlippedByteInALogRecordIsAChecksumMismatch() throws IOException {
        Path log = TestDb.lastLog(db);
        flip(log, 12);
        Cli.Result r = Cli.run("verify", db);
        assertEquals(ExitCode.CORRUPTION, r.exit(), r.toString());
        assertTrue(r.out().contains("problem: " + log + " at offset 0: checksum mismatch ("), r.out());
    }

    @Test
    void aMissingTableIsReported() throws IOException {
        Path table = TestDb.firstTable(db);
        Files.delete(table);
        Cli.Result r = Cli.run("verify", db);
        assertEquals(ExitCode.CORRUPTION, r.exit(), r.toString());
        assertTrue(r.out().contains("problem: " + table + ": missing table file, named by the MANIFEST at level "), r.out());
    }

    @Test
    void verifyWaitsForNoOneButRefusesADatabaseInUse() throws IOException {
        try (DB open = LevelDbFactory.factory.open(db.toFile(), new Options())) {
            open.put(TestDb.utf8("k"), TestDb.utf8("v"));
            Cli.Result r = Cli.run("verify", db);
            assertEquals(ExitCode.IO, r.exit(), r.toString());
            assertEquals("leveldb: lock " + db.resolve("LOCK") + ": already held by process (another process, or another"
                    + " open database in this one, is using the database; close it and retry)\n", r.err());
        }
    }

    private static void flip(Path file, long offset) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(1);
            ch.read(b, offset);
            b.put(0, (byte) (b.get(0) ^ 0x40));
            b.rewind();
            ch.write(b, offset);
        }
    }
}
