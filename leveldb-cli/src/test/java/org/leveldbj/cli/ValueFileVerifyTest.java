package org.leveldbj.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.Options;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.leveldbj.db.LevelDbFactory;
import org.leveldbj.env.FileSystemEnv;
import org.leveldbj.vlog.ValueFileScanner;
import org.leveldbj.vlog.ValueReference;

/**
 * {@code verify} on a database with separated values whose value file is damaged by byte
 * surgery: each damage is exactly one problem naming the file and offset, the entries it breaks
 * are named under it, and no other reference is reported.
 */
class ValueFileVerifyTest {
    @TempDir
    Path tmp;
    Path db;
    Path vlog;
    /** Each key's record in the value file, in file order. */
    final Map<String, ValueReference> records = new LinkedHashMap<>();

    private static byte[] big(int i) {
        byte[] v = new byte[500 + i];
        Arrays.fill(v, (byte) ('a' + i % 26));
        return v;
    }

    /** key0..key49 in a table, key50..key54 in the log, every value in one value file. */
    @BeforeEach
    void write() throws IOException {
        db = tmp.resolve("db");
        try (DB d = LevelDbFactory.factory.open(db.toFile(), new Options().valueThreshold(100))) {
            for (int i = 0; i < 50; i++) {
                d.put(TestDb.utf8("key" + i), big(i));
            }
            d.compactRange(null, null);
            for (int i = 50; i < 55; i++) {
                d.put(TestDb.utf8("key" + i), big(i));
            }
            d.put(TestDb.utf8("small"), TestDb.utf8("inline"));
        }
        try (var files = Files.list(db)) {
            vlog = files.filter(f -> f.toString().endsWith(".vlog")).findFirst().orElseThrow();
        }
        long number = Long.parseLong(vlog.getFileName().toString().replace(".vlog", ""));
        try (ValueFileScanner scan = new ValueFileScanner(FileSystemEnv.getDefault().newRandomAccessFile(vlog),
                vlog.toString())) {
            while (scan.next()) {
                byte[] key = new byte[scan.key().remaining()];
                scan.key().get(key);
                records.put(new String(key, StandardCharsets.UTF_8), scan.reference(number));
            }
        }
        assertEquals(55, records.size());
    }

    private void flip(long offset, int mask) throws IOException {
        byte[] content = Files.readAllBytes(vlog);
        content[Math.toIntExact(offset)] ^= (byte) mask;
        Files.write(vlog, content);
    }

    private void truncate(long size) throws IOException {
        try (FileChannel ch = FileChannel.open(vlog, StandardOpenOption.WRITE)) {
            ch.truncate(size);
        }
    }

    private static List<String> starting(Cli.Result r, String prefix) {
        return r.lines().stream().filter(l -> l.startsWith(prefix)).toList();
    }

    /** The notes, the offset of the block or log record holding each entry left out. */
    private static List<String> notes(Cli.Result r) {
        return starting(r, "note: ").stream().map(l -> l.replaceFirst(" at offset [0-9]+: ", " at offset *: ")).toList();
    }

    private String note(Path where, String key, ValueReference ref) {
        int i = Integer.parseInt(key.substring(3));
        return "note: " + where + " at offset *: '" + key + "' @ " + (i + 1) + " refers to " + vlog.getFileName()
                + " offset " + ref.offset() + " (" + ref.recordSize() + " bytes)";
    }

    private void assertSummary(Cli.Result r, String valueFiles, String problems) {
        String last = r.lines().get(r.lines().size() - 1);
        assertEquals("verified " + db + ": 1 table (4 blocks, 50 entries), 1 log (6 records, 6 entries), " + valueFiles
                + "MANIFEST-000001 (4 records): " + problems, last, r.out());
    }

    /** Repair keeps every entry but the named ones, whose values are gone. */
    private void assertRepairDropsExactly(String... lost) throws IOException {
        Cli.Result repair = Cli.run("repair", db);
        assertEquals(0, repair.exit(), repair.toString());
        List<String> gone = Arrays.asList(lost);
        try (DB d = LevelDbFactory.factory.open(db.toFile(), new Options())) {
            for (int i = 0; i < 55; i++) {
                byte[] value = d.get(TestDb.utf8("key" + i));
                if (gone.contains("key" + i)) {
                    assertNull(value, "key" + i);
                } else {
                    assertArrayEquals(big(i), value, "key" + i);
                }
            }
            assertArrayEquals(TestDb.utf8("inline"), d.get(TestDb.utf8("small")));
        }
    }

    @Test
    void aFlippedPayloadByteIsOneProblemNamingTheOneEntryItBreaks() throws IOException {
        ValueReference v = records.get("key7");
        flip(v.end() - 100, 0x01);
        Cli.Result r = Cli.run("verify", db);
        assertEquals(ExitCode.CORRUPTION, r.exit(), r.toString());
        assertEquals(List.of("problem: " + vlog + " at offset " + v.offset() + ": value record checksum mismatch; "
                + v.recordSize() + " bytes up to the next sound record; breaks 1 reference"), starting(r, "problem: "));
        assertEquals(List.of(note(TestDb.firstTable(db), "key7", v)), notes(r));
        assertSummary(r, "1 value file (54 records), ", "1 problem");
        assertRepairDropsExactly("key7");
    }

    @Test
    void aFlippedHeaderByteIsOneProblemNamingTheOneEntryItBreaks() throws IOException {
        // key7's value is 507 bytes, varint 0xfb 0x03: 0x07 makes it 1019, an end past the start
        // of key8's record, which must still be read.
        ValueReference v = records.get("key7");
        assertEquals(507, v.valueLength());
        flip(v.offset() + 6, 0x04);
        Cli.Result r = Cli.run("verify", db);
        assertEquals(ExitCode.CORRUPTION, r.exit(), r.toString());
        assertEquals(List.of("problem: " + vlog + " at offset " + v.offset() + ": value record checksum mismatch; "
                + v.recordSize() + " bytes up to the next sound record; breaks 1 reference"), starting(r, "problem: "));
        assertEquals(List.of(note(TestDb.firstTable(db), "key7", v)), notes(r));
        assertSummary(r, "1 value file (54 records), ", "1 problem");
        assertRepairDropsExactly("key7");
    }

    @Test
    void aValueFileCutInARecordIsOneTornTailNamingTheEntriesItBreaks() throws IOException {
        ValueReference cut = records.get("key52");
        truncate(cut.offset() + 10);
        Cli.Result r = Cli.run("verify", db);
        assertEquals(ExitCode.CORRUPTION, r.exit(), r.toString());
        assertEquals(List.of("problem: " + vlog + " at offset " + cut.offset() + ": torn tail: truncated value record: "
                + cut.recordSize() + " bytes, 10 left in the file; breaks 3 references"), starting(r, "problem: "));
        Path log = TestDb.lastLog(db);
        assertEquals(List.of(note(log, "key52", cut), note(log, "key53", records.get("key53")),
                note(log, "key54", records.get("key54"))), notes(r));
        assertSummary(r, "1 value file (52 records), ", "1 problem");
    }

    @Test
    void aValueFileCutBetweenRecordsIsOneProblemNamingTheEntriesItBreaks() throws IOException {
        long size = records.get("key53").offset();
        truncate(size);
        Cli.Result r = Cli.run("verify", db);
        assertEquals(ExitCode.CORRUPTION, r.exit(), r.toString());
        assertEquals(List.of("problem: " + vlog + " at offset " + size + ": the file ends before records that"
                + " references name; breaks 2 references"), starting(r, "problem: "));
        Path log = TestDb.lastLog(db);
        assertEquals(List.of(note(log, "key53", records.get("key53")), note(log, "key54", records.get("key54"))),
                notes(r));
        assertSummary(r, "1 value file (53 records), ", "1 problem");
    }

    @Test
    void aMissingValueFileIsOneProblemNamingTheEntriesItBreaks() throws IOException {
        Files.delete(vlog);
        Cli.Result r = Cli.run("verify", db);
        assertEquals(ExitCode.CORRUPTION, r.exit(), r.toString());
        assertEquals(List.of("problem: " + vlog + ": missing value file; breaks 55 references"),
                starting(r, "problem: "));
        // The table's entries in key order, then the log's: the first ten are named.
        List<String> expected = new ArrayList<>();
        for (String key : List.of("key0", "key1", "key10", "key11", "key12", "key13", "key14", "key15", "key16",
                "key17")) {
            expected.add(note(TestDb.firstTable(db), key, records.get(key)));
        }
        expected.add("note: and 45 more references");
        assertEquals(expected, notes(r));
        assertSummary(r, "", "1 problem");
    }

    @Test
    void aDumpOfTheValueFileGoesOnPastTheDamage() throws IOException {
        ValueReference v = records.get("key7");
        flip(v.end() - 100, 0x01);
        Cli.Result r = Cli.run("dump", vlog);
        assertEquals(ExitCode.CORRUPTION, r.exit(), r.toString());
        assertEquals(List.of("problem: offset " + v.offset() + ": value record checksum mismatch; " + v.recordSize()
                + " bytes up to the next sound record"), starting(r, "problem: "));
        List<String> shown = starting(r, "record offset=");
        assertEquals(54, shown.size(), r.out());
        assertEquals("record offset=" + records.get("key8").offset() + " size=" + records.get("key8").recordSize()
                + " key='key8' value=508 bytes 'iiiiiiiiiiiiiiiiiiiiiiiiiiiiiiii'...", shown.get(7));
    }
}
