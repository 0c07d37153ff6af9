package org.leveldbj.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.Options;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.leveldbj.db.LevelDbFactory;

/**
 * {@code verify}, {@code dump}, {@code stats} and {@code get} on a database with separated values
 * (damaged value files: {@link ValueFileVerifyTest}).
 */
class SeparatedValuesCliTest {
    @TempDir
    Path tmp;
    Path db;

    private static byte[] big(int i) {
        byte[] v = new byte[500 + i];
        Arrays.fill(v, (byte) ('a' + i % 26));
        return v;
    }

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
    }

    private Path valueFile() throws IOException {
        try (var files = Files.list(db)) {
            return files.filter(f -> f.toString().endsWith(".vlog")).findFirst().orElseThrow();
        }
    }

    @Test
    void verifyReadsEveryValueRecordAndReference() {
        Cli.Result r = Cli.run("verify", db);
        assertEquals(0, r.exit(), r.toString());
        assertTrue(r.out().contains("1 value file (55 records)") && r.out().endsWith(": OK\n"), r.out());
    }

    @Test
    void dumpShowsValueRecordsAndWhereReferencesPoint() throws IOException {
        Cli.Result vlog = Cli.run("dump", valueFile());
        assertEquals(0, vlog.exit(), vlog.toString());
        List<String> records = vlog.lines().stream().filter(l -> l.startsWith("record offset=")).toList();
        assertEquals(55, records.size(), vlog.out());
        assertTrue(records.get(0).startsWith("record offset=8 ") && records.get(0).contains("key='key0' value=500 bytes 'aaaa"),
                records.get(0));
        Cli.Result table = Cli.run("dump", TestDb.firstTable(db));
        assertTrue(table.out().contains(" : value_reference => -> " + valueFile().getFileName() + " offset=8 "),
                table.out());
        Cli.Result log = Cli.run("dump", TestDb.lastLog(db));
        assertTrue(log.out().contains("'key50' @ ") && log.out().contains("value=550 bytes"), log.out());
        assertTrue(log.out().contains("'small' @ ") && log.out().contains("=> 'inline'"), log.out());
    }

    @Test
    void statsAndGetSeeTheValues() {
        Cli.Result stats = Cli.run("stats", db);
        assertEquals(0, stats.exit(), stats.toString());
        assertTrue(stats.out().contains("leveldbj.value-files:") && stats.out().contains(".vlog size="), stats.out());
        Cli.Result get = Cli.run("get", db, "key3");
        assertEquals(0, get.exit(), get.toString());
        assertEquals(new String(big(3), java.nio.charset.StandardCharsets.US_ASCII), get.out().strip());
    }

    @Test
    void rewriteTurnsItIntoPlainLevelDb() throws IOException {
        Cli.Result r = Cli.run("rewrite", db);
        assertEquals(0, r.exit(), r.toString());
        assertTrue(r.out().startsWith("rewrote " + db + " in plain LevelDB format: 1 value file ("), r.out());
        try (var files = Files.list(db)) {
            assertTrue(files.noneMatch(f -> f.toString().endsWith(".vlog")), "value files left");
        }
        Cli.Result stats = Cli.run("stats", db);
        assertTrue(stats.out().contains("comparator: leveldb.BytewiseComparator\n"), stats.out());
        Cli.Result verify = Cli.run("verify", db);
        assertEquals(0, verify.exit(), verify.toString());
        DirSnapshot plain = DirSnapshot.of(db);
        Cli.Result again = Cli.run("rewrite", db);
        assertEquals(0, again.exit(), again.toString());
        assertTrue(again.out().contains(": 0 value files"), again.out());
        assertTrue(DirSnapshot.of(db).files().keySet().stream().filter(n -> n.endsWith(".ldb") || n.endsWith(".sst"))
                .toList().equals(plain.files().keySet().stream().filter(n -> n.endsWith(".ldb") || n.endsWith(".sst"))
                        .toList()), "a plain database is left as it is");
        try (DB d = LevelDbFactory.factory.open(db.toFile(), new Options())) {
            for (int i = 0; i < 55; i++) {
                assertArrayEquals(big(i), d.get(TestDb.utf8("key" + i)));
            }
            assertArrayEquals(TestDb.utf8("inline"), d.get(TestDb.utf8("small")));
        }
    }
}
