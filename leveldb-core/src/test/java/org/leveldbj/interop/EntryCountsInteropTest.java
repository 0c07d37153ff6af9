package org.leveldbj.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.iq80.leveldb.CompressionType;
import org.iq80.leveldb.ExtendedDB;
import org.iq80.leveldb.Options;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.leveldbj.db.LevelDbFactory;
import org.leveldbj.table.StatsBlocks;
import org.leveldbj.testing.PeerExtension;

/**
 * The tables' stats blocks ({@code leveldbj.stats} in the metaindex) and the entry estimate
 * across implementations: a database whose every table carries the block verifies exactly in
 * C++ LevelDB 1.23 (paranoid, checksums) and goleveldb (StrictAll), which ignore the entry;
 * and a database C++ LevelDB or goleveldb wrote, whose tables carry no block, gets an estimate
 * here from one sampled data block per table, close to the true count.
 */
@ExtendWith(PeerExtension.class)
class EntryCountsInteropTest {
    private static final String PROPERTY = "leveldb.approximate-num-entries";

    private static byte[] key(int i) {
        return String.format(Locale.ROOT, "key%08d", i).getBytes(StandardCharsets.US_ASCII);
    }

    private static List<Path> tables(Path dir) throws IOException {
        try (var files = Files.list(dir)) {
            return files.filter(f -> f.toString().endsWith(".ldb") || f.toString().endsWith(".sst")).sorted().toList();
        }
    }

    @Test
    void aDatabaseWithStatsBlocksVerifiesInThePeers(@TempDir Path tmp) throws Exception {
        Peers peers = Peers.get();
        Path dir = tmp.resolve("counted");
        Options options = new Options().writeBufferSize(64 << 10).maxFileSize(64 << 10)
                .compressionType(CompressionType.NONE);
        TreeMap<String, byte[]> expected = new TreeMap<>();
        long estimate;
        try (ExtendedDB db = LevelDbFactory.factory.open(dir.toFile(), options)) {
            for (int i = 0; i < 20_000; i++) {
                byte[] v = ("v" + i).getBytes(StandardCharsets.US_ASCII);
                db.put(key(i), v);
                expected.put(new String(key(i), StandardCharsets.US_ASCII), v);
            }
            db.compactRange(null, null);
            for (int i = 0; i < 20_000; i += 3) {
                db.delete(key(i)); // deletions in the tables, and settled ones after the compaction below
                expected.remove(new String(key(i), StandardCharsets.US_ASCII));
            }
            db.flushMemTable();
            db.compactRange(key(0), key(5000));
            for (int i = 0; i < 20_000; i += 7) {
                byte[] v = "newer".getBytes(StandardCharsets.US_ASCII);
                db.put(key(i), v);
                expected.put(new String(key(i), StandardCharsets.US_ASCII), v);
            }
            db.flushMemTable();
            estimate = db.approximateNumEntries();
        }
        List<Path> tables = tables(dir);
        assertTrue(tables.size() > 2, "tables: " + tables);
        for (Path t : tables) {
            assertTrue(StatsBlocks.find(Files.readAllBytes(t)) != null, t + " has no stats block");
        }
        int live = expected.size();
        assertTrue(estimate >= live / 2 && estimate <= 2L * live, "estimate " + estimate + ", live " + live);

        StringBuilder recipe = new StringBuilder("option write_buffer_size=65536\noption compression=none\n");
        HexFormat hex = HexFormat.of();
        for (Map.Entry<String, byte[]> e : expected.entrySet()) {
            recipe.append("put ").append(hex.formatHex(e.getKey().getBytes(StandardCharsets.US_ASCII))).append(' ')
                    .append(hex.formatHex(e.getValue())).append('\n');
        }
        Path recipeFile = tmp.resolve("counted.recipe");
        Files.writeString(recipeFile, recipe, StandardCharsets.ISO_8859_1);
        System.out.println("interop: stats blocks in " + tables.size() + " tables; estimate " + estimate + " of "
                + live + "; C++ " + peers.cpp("verify", InteropTest.copy(dir, "cpp").toString(),
                        recipeFile.toString()).expectOk().stdout().trim());
        System.out.println("interop: stats blocks: Go " + peers.go("verify", "--strict-all",
                InteropTest.copy(dir, "go").toString(), recipeFile.toString()).expectOk().output().trim());
    }

    @Test
    void cppWrittenTablesAreEstimatedFromASample(@TempDir Path tmp) throws Exception {
        peerWrittenTablesAreEstimatedFromASample("cpp", tmp);
    }

    @Test
    void goWrittenTablesAreEstimatedFromASample(@TempDir Path tmp) throws Exception {
        peerWrittenTablesAreEstimatedFromASample("go", tmp);
    }

    private void peerWrittenTablesAreEstimatedFromASample(String writer, Path tmp) throws Exception {
        Peers peers = Peers.get();
        String text = """
                option write_buffer_size=65536
                option max_file_size=1048576
                gen seq 1 30000 vmin=20 vmax=120
                flush
                compact
                gen seq 2 3000 start=0 step=10 vmin=0 vmax=40
                flush
                """;
        StringBuilder deletes = new StringBuilder();
        for (int i = 5; i < 30000; i += 10) { // a tenth of the keys deleted, in a table of their own
            deletes.append("delete ").append(HexFormat.of().formatHex(
                    String.format(Locale.ROOT, "%012d", i).getBytes(StandardCharsets.US_ASCII))).append('\n');
        }
        text += deletes + "flush\n";
        Path recipeFile = tmp.resolve("sampled.recipe");
        Files.writeString(recipeFile, text, StandardCharsets.ISO_8859_1);
        Recipe r = Recipe.parse("sampled", text);
        TreeMap<byte[], byte[]> model = new TreeMap<>(r.order());
        for (Recipe.Op op : r.steps()) {
            if (op.kind() == Recipe.Kind.PUT) {
                model.put(op.key(), op.value());
            } else if (op.kind() == Recipe.Kind.DELETE) {
                model.remove(op.key());
            }
        }
        Path dir = tmp.resolve("db");
        (writer.equals("cpp") ? peers.cpp("write", dir.toString(), recipeFile.toString())
                : peers.go("write", dir.toString(), recipeFile.toString())).expectOk();
        List<Path> tables = tables(dir);
        assertTrue(tables.size() >= 2, "tables: " + tables);
        for (Path t : tables) {
            assertNull(StatsBlocks.find(Files.readAllBytes(t)), t + ": a peer wrote a stats block?");
        }
        try (ExtendedDB db = LevelDbFactory.factory.open(dir.toFile(), new Options().createIfMissing(false))) {
            long estimate = db.approximateNumEntries();
            assertEquals(Long.toString(estimate), db.getProperty(PROPERTY));
            int live = model.size();
            System.out.printf("interop: %s-written, %d tables without stats blocks: estimate %d, live %d%n", writer,
                    tables.size(), estimate, live);
            assertTrue(estimate >= live / 2 && estimate <= 2L * live, "estimate " + estimate + ", live " + live);
        }
    }
}
