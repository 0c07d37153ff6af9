package org.leveldbj.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ScanCountTest {
    @TempDir
    static Path tmp;
    static Path db;

    @BeforeAll
    static void write() throws Exception {
        db = tmp.resolve("db");
        TreeMap<byte[], byte[]> tables = TestDb.model();
        for (String k : new String[] {"apple", "apricot", "banana", "blueberry", "cherry"}) {
            tables.put(TestDb.utf8(k), TestDb.utf8(k.toUpperCase()));
        }
        tables.put(new byte[] {(byte) 0xff, (byte) 0xff}, new byte[] {0});
        // In the log: a key with a tab, a newline, a backslash and a non-ASCII byte; an overwrite.
        TreeMap<byte[], byte[]> log = TestDb.model();
        log.put(TestDb.utf8("b\ta\nc\\k"), new byte[] {(byte) 0xe9, 'x'});
        log.put(TestDb.utf8("cherry"), TestDb.utf8("red"));
        TestDb.write(db, tables, log);
    }

    private static List<String> scan(Object... options) {
        Object[] args = new Object[options.length + 2];
        args[0] = "scan";
        args[1] = db;
        System.arraycopy(options, 0, args, 2, options.length);
        Cli.Result r = Cli.run(args);
        assertEquals(0, r.exit(), r.toString());
        return r.lines();
    }

    @Test
    void everyEntryEscapedInTextForm() {
        assertEquals(List.of(
                "apple\tAPPLE",
                "apricot\tAPRICOT",
                "b\\x09a\\x0ac\\x5ck\t\\xe9x",
                "banana\tBANANA",
                "blueberry\tBLUEBERRY",
                "cherry\tred",
                "\\xff\\xff\t\\x00"), scan());
    }

    @Test
    void rangesPrefixesReverseAndLimits() {
        assertEquals(List.of("apricot", "b\\x09a\\x0ac\\x5ck", "banana"),
                scan("--from", "apricot", "--to", "blueberry", "--keys-only"));
        assertEquals(List.of("apple", "apricot"), scan("--prefix", "ap", "--keys-only"));
        assertEquals(List.of("apricot"), scan("--prefix", "ap", "--from", "apq", "--keys-only"));
        assertEquals(List.of("\\xff\\xff"), scan("--prefix", "0xff", "--keys-only"));
        assertEquals(List.of("\\xff\\xff", "cherry", "blueberry"), scan("--reverse", "--limit", "3", "--keys-only"));
        assertEquals(List.of("banana", "b\\x09a\\x0ac\\x5ck", "apricot"),
                scan("--reverse", "--from", "apricot", "--to", "blueberry", "--keys-only"));
        assertEquals(List.of("blueberry", "banana"), scan("--reverse", "--prefix", "b", "--limit", "2", "--keys-only"));
        assertEquals(List.of(), scan("--from", "0xffff00"));
        assertEquals(List.of("\\xff\\xff"), scan("--from", "zzz", "--keys-only"));
        assertEquals(List.of(), scan("--reverse", "--to", "a"));
        assertEquals(List.of("apple"), scan("--limit", "1", "--keys-only"));
    }

    @Test
    void otherFormats() {
        assertEquals(List.of("6170706c65\t4150504c45"), scan("--limit", "1", "--format", "hex"));
        assertEquals(List.of("YXBwbGU=\tQVBQTEU="), scan("--limit", "1", "--format", "base64"));
        assertEquals(List.of("{\"key\":\"YXBwbGU=\",\"value\":\"QVBQTEU=\"}"), scan("--limit", "1", "--format", "json"));
        assertEquals(List.of("{\"key\":\"YXBwbGU=\"}"), scan("--limit", "1", "--format", "JSON", "--keys-only"));
        Cli.Result bad = Cli.run("scan", db, "--format", "xml");
        assertEquals(ExitCode.USAGE, bad.exit(), bad.toString());
    }

    @Test
    void countsRanges() {
        assertEquals(List.of("7"), Cli.run("count", db).lines());
        assertEquals(List.of("3"), Cli.run("count", db, "--prefix", "b").lines());
        assertEquals(List.of("2"), Cli.run("count", db, "--from", "b", "--to", "blueberry").lines());
    }

    @Test
    void keyRangesCombineTheirBounds() {
        KeyRange r = KeyRange.of(TestDb.utf8("b"), TestDb.utf8("d"), TestDb.utf8("c"));
        assertEquals(Map.of("lower", "c", "upper", "d"), Map.of("lower", new String(r.lower()), "upper", new String(r.upper())));
        assertEquals(null, KeyRange.successor(new byte[] {(byte) 0xff}));
        assertEquals("b", new String(KeyRange.successor(new byte[] {'a', (byte) 0xff})));
    }
}
