package org.leveldbj.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.iq80.leveldb.CompressionType;
import org.iq80.leveldb.ExtendedDB;
import org.iq80.leveldb.FilterPolicy;
import org.iq80.leveldb.Options;
import org.iq80.leveldb.PrefixExtractor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.leveldbj.db.LevelDbFactory;
import org.leveldbj.testing.PeerExtension;

/**
 * A database written with a prefix extractor, whose tables hold a prefix filter block under
 * the metaindex name {@code leveldbj.prefix.<extractor>.<policy>} beside the whole-key filter
 * {@code filter.leveldb.BuiltinBloomFilter2}, verifies exactly in C++ LevelDB 1.23 (paranoid,
 * checksums, counting reads: C++ still uses the whole-key filter of those tables) and in
 * goleveldb (StrictAll): both ignore the metaindex entry they do not know.
 */
@ExtendWith(PeerExtension.class)
class PrefixFilterInteropTest {
    private static final String PREFIX_BLOCK_NAME = "leveldbj.prefix.leveldbj.DelimitedPrefix.58.leveldb.BuiltinBloomFilter2";

    private static byte[] key(int prefix, int i) {
        return String.format(Locale.ROOT, "p%05d:%03d", prefix, i).getBytes(StandardCharsets.US_ASCII);
    }

    @Test
    void aDatabaseWithPrefixFiltersVerifiesInThePeers(@TempDir Path tmp) throws Exception {
        Peers peers = Peers.get();
        Path dir = tmp.resolve("prefixed");
        // Uncompressed blocks, so that the test can see the metaindex name in the files.
        Options options = new Options().writeBufferSize(64 << 10).maxFileSize(64 << 10)
                .compressionType(CompressionType.NONE).filterPolicy(FilterPolicy.bloom(10))
                .prefixExtractor(PrefixExtractor.upToDelimiter(':'));
        TreeMap<String, byte[]> expected = new TreeMap<>();
        try (ExtendedDB db = LevelDbFactory.factory.open(dir.toFile(), options)) {
            for (int p = 0; p < 2000; p++) {
                for (int i = 0; i < 10; i++) {
                    byte[] k = key(p, i);
                    byte[] v = ("v" + p + "." + i).getBytes(StandardCharsets.US_ASCII);
                    db.put(k, v);
                    expected.put(new String(k, StandardCharsets.US_ASCII), v);
                }
                // Keys outside the extractor's domain too.
                byte[] plain = String.format(Locale.ROOT, "q%05d", p).getBytes(StandardCharsets.US_ASCII);
                db.put(plain, plain);
                expected.put(new String(plain, StandardCharsets.US_ASCII), plain);
            }
            db.compactRange(null, null);
            for (int p = 0; p < 2000; p += 7) {
                byte[] k = key(p, 5);
                db.put(k, "newer".getBytes(StandardCharsets.US_ASCII));
                expected.put(new String(k, StandardCharsets.US_ASCII), "newer".getBytes(StandardCharsets.US_ASCII));
            }
            db.flushMemTable();
        }
        int withPrefixBlock = 0;
        int tables = 0;
        try (var files = Files.list(dir)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                String name = f.getFileName().toString();
                if (name.endsWith(".ldb") || name.endsWith(".sst")) {
                    tables++;
                    String text = new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1);
                    if (text.contains(PREFIX_BLOCK_NAME) && text.contains("filter.leveldb.BuiltinBloomFilter2")) {
                        withPrefixBlock++;
                    }
                }
            }
        }
        assertTrue(tables > 1, "tables: " + tables);
        assertEquals(tables, withPrefixBlock, "every table holds both filters");

        StringBuilder recipe = new StringBuilder("option write_buffer_size=65536\noption bloom_bits=10\n");
        HexFormat hex = HexFormat.of();
        for (Map.Entry<String, byte[]> e : expected.entrySet()) {
            recipe.append("put ").append(hex.formatHex(e.getKey().getBytes(StandardCharsets.US_ASCII))).append(' ')
                    .append(hex.formatHex(e.getValue())).append('\n');
        }
        Path recipeFile = tmp.resolve("prefixed.recipe");
        Files.writeString(recipeFile, recipe, StandardCharsets.ISO_8859_1);
        Peers.Result cpp = peers.cpp("verify", "--count-reads", InteropTest.copy(dir, "cpp").toString(),
                recipeFile.toString()).expectOk();
        System.out.println("interop: prefix filters: C++ " + cpp.stdout().trim().replace("\n", "; "));
        double perMiss = cpp.decimal("reads_per_probe");
        assertTrue(perMiss < 0.1, "C++ did not use the whole-key filters of tables with prefix filters: "
                + perMiss + " reads per missing key");
        System.out.println("interop: prefix filters: Go " + peers.go("verify", "--strict-all",
                InteropTest.copy(dir, "go").toString(), recipeFile.toString()).expectOk().output().trim());
    }
}
