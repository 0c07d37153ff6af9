package org.leveldbj.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.iq80.leveldb.ExtendedDB;
import org.iq80.leveldb.Options;
import org.iq80.leveldb.TableWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.leveldbj.db.LevelDbFactory;
import org.leveldbj.testing.PeerExtension;

/**
 * A database that took files by ingestion, both ways (a file taken as it is, with sequence 0 at
 * the last level, and files rewritten with a new sequence number above older data, one with
 * deletions), then had writes after them, reads exactly in C++ LevelDB 1.23 (paranoid checks)
 * and goleveldb (strictest level): every live key with its newest value, nothing more. A file
 * the table writer made is also dumped as a table by C++ LevelDB.
 */
@ExtendWith(PeerExtension.class)
class IngestInteropTest {

    private static String key(int i) {
        return String.format(Locale.ROOT, "key%06d", i);
    }

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    @Test
    void bothIngestionPathsReadExactlyInThePeers(@TempDir Path tmp) throws Exception {
        Peers peers = Peers.get();
        Path dir = tmp.resolve("db");
        Options options = new Options().writeBufferSize(64 << 10);
        TreeMap<String, String> model = new TreeMap<>();
        Path madeByWriter = tmp.resolve("000077.sst"); // a table name: C++ DumpFile knows the type by it
        try (ExtendedDB db = LevelDbFactory.factory.open(dir.toFile(), options)) {
            for (int i = 0; i < 3000; i += 2) {
                db.put(b(key(i)), b("old" + i));
                model.put(key(i), "old" + i);
            }
            db.flushMemTable();
            for (int i = 1000; i < 1200; i++) {
                db.put(b(key(i)), b("mem" + i));
                model.put(key(i), "mem" + i);
            }
            // Overlaps tables and memtable: rewritten with a new sequence number.
            File overlapping = tmp.resolve("overlapping.sst").toFile();
            try (TableWriter w = db.newTableWriter(overlapping)) {
                for (int i = 900; i < 1300; i++) {
                    if (i % 10 == 0) {
                        w.delete(b(key(i)));
                        model.remove(key(i));
                    } else {
                        w.put(b(key(i)), b("ingested" + i));
                        model.put(key(i), "ingested" + i);
                    }
                }
                w.finish();
            }
            db.ingest(overlapping);
            // Overlaps nothing, no snapshot: taken as it is (sequence 0) at the last level.
            try (TableWriter w = db.newTableWriter(madeByWriter.toFile())) {
                for (int i = 5000; i < 9000; i++) {
                    w.put(b(key(i)), b("bulk" + i));
                    model.put(key(i), "bulk" + i);
                }
                w.finish();
            }
            db.ingest(madeByWriter.toFile());
            assertEquals("1", db.getProperty("leveldb.num-files-at-level6"));
            for (int i = 8000; i < 8100; i++) {
                db.put(b(key(i)), b("after" + i));
                model.put(key(i), "after" + i);
            }
            db.delete(b(key(5000)));
            model.remove(key(5000));
        }
        StringBuilder recipe = new StringBuilder("option write_buffer_size=65536\n");
        HexFormat hex = HexFormat.of();
        for (Map.Entry<String, String> e : model.entrySet()) {
            recipe.append("put ").append(hex.formatHex(b(e.getKey()))).append(' ')
                    .append(hex.formatHex(b(e.getValue()))).append('\n');
        }
        Path recipeFile = tmp.resolve("ingested.recipe");
        Files.writeString(recipeFile, recipe, StandardCharsets.ISO_8859_1);
        String cpp = peers.cpp("verify", InteropTest.copy(dir, "cpp").toString(), recipeFile.toString())
                .expectOk().stdout().trim();
        String go = peers.go("verify", "--strict-all", InteropTest.copy(dir, "go").toString(), recipeFile.toString())
                .expectOk().output().trim();
        System.out.println("interop: ingested database: C++ " + cpp + "; Go " + go);
        String dump = peers.cpp("dump", madeByWriter.toString()).expectOk().stdout();
        assertTrue(dump.contains("'key005000' @ 0 : val => 'bulk5000'"), dump.lines().limit(3).toList().toString());
        assertTrue(dump.contains("'key008999' @ 0 : val => 'bulk8999'"));
    }
}
