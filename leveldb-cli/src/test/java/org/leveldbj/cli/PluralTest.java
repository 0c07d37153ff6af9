package org.leveldbj.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One of a thing is singular in every command's output: "1 file", "1 table", "1 entry", "1 byte". */
class PluralTest {
    /** A count of one before a plural noun, also across the columns of the stats tables. */
    private static final Pattern ONE_PLURAL = Pattern.compile(
            "(?<![\\d.,])1 +(files|tables|entries|bytes|records|blocks|logs|problems|value files|references)\\b");

    @TempDir
    Path tmp;

    @Test
    void nouns() {
        assertEquals("1 table", Plural.count(1, "table"));
        assertEquals("0 tables", Plural.count(0, "table"));
        assertEquals("2 entries", Plural.count(2, "entry"));
        assertEquals("1 entry", Plural.count(1, "entry"));
        assertEquals("3 keys", Plural.count(3, "key"));
        assertEquals("2 value files", Plural.count(2, "value file"));
        assertEquals("2 batches", Plural.count(2, "batch"));
        assertEquals("1,234,567 entries", Plural.grouped(1_234_567, "entry"));
        assertEquals("byte", Plural.noun(1, "byte"));
        assertEquals("bytes", Plural.noun(-1, "byte"));
    }

    /** A database of one table holding one entry and one log holding one record of one entry. */
    @Test
    void oneOfAnythingIsSingular() throws Exception {
        Path db = tmp.resolve("db");
        TestDb.write(db, Map.of(TestDb.utf8("a"), TestDb.utf8("1")), Map.of(TestDb.utf8("b"), TestDb.utf8("2")));

        Cli.Result stats = Cli.run("stats", db);
        assertSingular(stats);
        assertTrue(stats.lines().stream().anyMatch(l -> l.matches("  table +1 file +\\d+ bytes")), stats.out());
        assertTrue(stats.lines().stream().anyMatch(l -> l.matches("  log +1 file +\\d+ bytes")), stats.out());

        Cli.Result verify = Cli.run("verify", db);
        assertSingular(verify);
        assertTrue(verify.out().matches("(?s).*: 1 table \\(\\d+ blocks, 1 entry\\), 1 log \\(1 record, 1 entry\\), .*"), verify.out());

        assertSingular(Cli.run("dump", TestDb.firstTable(db)));
        assertSingular(Cli.run("dump", TestDb.lastLog(db)));

        Path export = tmp.resolve("one.jsonl");
        Cli.Result exported = Cli.run("export", db, export, "--prefix", "a");
        assertSingular(exported);
        assertTrue(exported.err().startsWith("exported 1 entry from "), exported.err());
        Cli.Result imported = Cli.run("import", tmp.resolve("other"), export);
        assertSingular(imported);
        assertEquals("imported 1 entry into " + tmp.resolve("other") + "\n", imported.out());

        Cli.Result compact = Cli.run("compact", tmp.resolve("other"));
        assertSingular(compact);
        assertTrue(compact.out().matches("compacted .*: 0 tables \\(0 B\\) before, 1 table \\(.*\\) after\n"),
                compact.out());

        Path oneByte = Files.write(tmp.resolve("short.sst"), new byte[1]);
        Cli.Result tooShort = Cli.run("dump", oneByte, "--type", "table");
        assertSingular(tooShort);
        assertTrue(tooShort.out().contains("file is too short to be an sstable (1 byte)"), tooShort.out());
    }

    private static void assertSingular(Cli.Result r) {
        for (String text : new String[] {r.out(), r.err()}) {
            Matcher m = ONE_PLURAL.matcher(text);
            assertFalse(m.find(), () -> "'" + m.group() + "' in\n" + r);
        }
    }
}
