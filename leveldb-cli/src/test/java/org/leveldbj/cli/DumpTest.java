package org.leveldbj.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code dump} of small files written the same way every time, line for line. */
class DumpTest {
    @TempDir
    Path tmp;

    private static List<String> dump(Object... args) {
        Object[] all = new Object[args.length + 1];
        all[0] = "dump";
        System.arraycopy(args, 0, all, 1, args.length);
        Cli.Result r = Cli.run(all);
        assertEquals(0, r.exit(), r.toString());
        return r.lines();
    }

    @Test
    void table() throws Exception {
        Path t = DumpFiles.table(tmp.resolve("000005.ldb"));
        assertEquals(List.of(
                "table " + t + ": 141 bytes",
                "footer: metaindex offset=53 size=8, index offset=66 size=22",
                "index block offset=66 size=22 compression=none entries=1",
                "  'd' @ 72057594037927935 : value -> data block offset=0 size=48",
                "metaindex block offset=53 size=8 compression=none entries=0",
                "data block offset=0 size=48 compression=none entries=3",
                "  'a' @ 3 : value => 'x'",
                "  'b' @ 2 : deletion => ''",
                "  'c\\x09' @ 1 : value => '\\x00\\xff'"), dump(t));
        assertEquals(List.of(
                "{\"kind\":\"table\",\"file\":\"" + t + "\",\"size\":141}",
                "{\"kind\":\"footer\",\"metaindex_offset\":53,\"metaindex_size\":8,\"index_offset\":66,\"index_size\":22}",
                "{\"kind\":\"block\",\"block\":\"index\",\"offset\":66,\"size\":22,\"compression\":\"none\",\"entries\":1}",
                "{\"kind\":\"index_entry\",\"key\":\"ZA==\",\"sequence\":72057594037927935,\"type\":\"value\","
                        + "\"block_offset\":0,\"block_size\":48}",
                "{\"kind\":\"block\",\"block\":\"metaindex\",\"offset\":53,\"size\":8,\"compression\":\"none\",\"entries\":0}",
                "{\"kind\":\"block\",\"block\":\"data\",\"offset\":0,\"size\":48,\"compression\":\"none\",\"entries\":3}",
                "{\"kind\":\"entry\",\"key\":\"YQ==\",\"sequence\":3,\"type\":\"value\",\"value\":\"eA==\"}",
                "{\"kind\":\"entry\",\"key\":\"Yg==\",\"sequence\":2,\"type\":\"deletion\",\"value\":\"\"}",
                "{\"kind\":\"entry\",\"key\":\"Ywk=\",\"sequence\":1,\"type\":\"value\",\"value\":\"AP8=\"}"),
                dump(t, "--format", "json"));
    }

    @Test
    void log() throws Exception {
        Path l = DumpFiles.log(tmp.resolve("000003.log"));
        assertEquals(List.of(
                "log " + l + ": 51 bytes",
                "record offset=0 end=27 length=20 fragments=FULL",
                "  batch sequence=5 count=2",
                "  'a' @ 5 : value => '1'",
                "  'b' @ 6 : deletion",
                "record offset=27 end=51 length=17 fragments=FULL",
                "  batch sequence=7 count=1",
                "  'c' @ 7 : value => '\\x00'"), dump(l));
        assertEquals(List.of(
                "{\"kind\":\"log\",\"file\":\"" + l + "\",\"size\":51}",
                "{\"kind\":\"record\",\"offset\":0,\"end\":27,\"length\":20,\"fragments\":1}",
                "{\"kind\":\"batch\",\"sequence\":5,\"count\":2}",
                "{\"kind\":\"put\",\"key\":\"YQ==\",\"sequence\":5,\"type\":\"value\",\"value\":\"MQ==\"}",
                "{\"kind\":\"delete\",\"key\":\"Yg==\",\"sequence\":6,\"type\":\"deletion\"}",
                "{\"kind\":\"record\",\"offset\":27,\"end\":51,\"length\":17,\"fragments\":1}",
                "{\"kind\":\"batch\",\"sequence\":7,\"count\":1}",
                "{\"kind\":\"put\",\"key\":\"Yw==\",\"sequence\":7,\"type\":\"value\",\"value\":\"AA==\"}"),
                dump(l, "--format", "json"));
    }

    @Test
    void manifestAndCurrent() throws Exception {
        Path m = DumpFiles.manifest(tmp.resolve("MANIFEST-000004"));
        assertEquals(List.of(
                "manifest " + m + ": 90 bytes",
                "record offset=0 end=35 length=28 fragments=FULL",
                "  comparator leveldb.BytewiseComparator",
                "record offset=35 end=90 length=48 fragments=FULL",
                "  log number 3",
                "  previous log number 0",
                "  next file number 6",
                "  last sequence 7",
                "  compact pointer level=1 'b' @ 2 : deletion",
                "  deleted file level=1 number=2",
                "  new file level=0 number=5 size=123 smallest='a' @ 3 : value largest='c\\x09' @ 1 : value"), dump(m));
        List<String> json = dump(m, "--format", "json");
        assertEquals("{\"kind\":\"edit\",\"log_number\":3,\"prev_log_number\":0,\"next_file_number\":6,\"last_sequence\":7}",
                json.get(4));
        assertEquals("{\"kind\":\"new_file\",\"level\":0,\"number\":5,\"size\":123,\"smallest_key\":\"YQ==\","
                + "\"smallest_sequence\":3,\"smallest_type\":\"value\",\"largest_key\":\"Ywk=\",\"largest_sequence\":1,"
                + "\"largest_type\":\"value\"}", json.get(7));

        Path c = DumpFiles.current(tmp.resolve("CURRENT"));
        assertEquals(List.of("current " + c + ": MANIFEST-000004"), dump(c));
        assertEquals(List.of("{\"kind\":\"current\",\"file\":\"" + c + "\",\"manifest\":\"MANIFEST-000004\"}"),
                dump(c, "--format", "json"));
    }

    @Test
    void filesWithOtherNamesAreRecognisedByContent() throws Exception {
        Path table = DumpFiles.table(tmp.resolve("copy-of-a-table"));
        Path log = DumpFiles.log(tmp.resolve("journal"));
        Path manifest = DumpFiles.manifest(tmp.resolve("descriptor"));
        assertEquals("table " + table + ": 141 bytes", dump(table).get(0));
        assertEquals("log " + log + ": 51 bytes", dump(log).get(0));
        assertEquals("manifest " + manifest + ": 90 bytes", dump(manifest).get(0));
        // --type overrides what the name says.
        Path named = Files.copy(manifest, tmp.resolve("000009.log"));
        assertEquals("manifest " + named + ": 90 bytes", dump(named, "--type", "manifest").get(0));

        Path text = Files.writeString(tmp.resolve("notes.txt"), "not a database file\n");
        Cli.Result r = Cli.run("dump", text);
        assertEquals(ExitCode.OTHER, r.exit(), r.toString());
        assertTrue(r.err().startsWith("leveldb: cannot tell what kind of file " + text + " is"), r.err());
    }

    @Test
    void badArguments() throws Exception {
        Cli.Result missing = Cli.run("dump", tmp.resolve("nothing.ldb"));
        assertEquals(ExitCode.IO, missing.exit(), missing.toString());
        assertEquals("leveldb: " + tmp.resolve("nothing.ldb") + " does not exist (give one file of a database,"
                + " e.g. DB/000005.ldb)\n", missing.err());
        Path log = DumpFiles.current(tmp.resolve("LOG"));
        Cli.Result info = Cli.run("dump", log);
        assertEquals(ExitCode.USAGE, info.exit(), info.toString());
        assertEquals("leveldb: " + log + " is the database's info log (plain text; read it with a pager); dump reads"
                + " tables, logs, MANIFEST and CURRENT\n", info.err());
        Cli.Result hex = Cli.run("dump", tmp, "--format", "hex");
        assertEquals(ExitCode.USAGE, hex.exit(), hex.toString());
        assertTrue(hex.err().toLowerCase(java.util.Locale.ROOT)
                .startsWith("leveldb: invalid value for option '--format': expected one of [text, json]"), hex.err());
    }

    @Test
    void aShortTableIsReportedAsDamaged() throws Exception {
        Path t = Files.write(tmp.resolve("000007.ldb"), new byte[10]);
        Cli.Result r = Cli.run("dump", t);
        assertEquals(ExitCode.CORRUPTION, r.exit(), r.toString());
        assertEquals(List.of("table " + t + ": 10 bytes", "problem: offset 0: file is too short to be an sstable (10 bytes)"),
                r.lines());
    }

    @Test
    void fragmentNames() {
        assertEquals("FULL", LogDump.fragments(1));
        assertEquals("FIRST,LAST", LogDump.fragments(2));
        assertEquals("FIRST,MIDDLE,MIDDLE,LAST", LogDump.fragments(4));
        assertEquals("FIRST,MIDDLE*5,LAST", LogDump.fragments(7));
    }
}
