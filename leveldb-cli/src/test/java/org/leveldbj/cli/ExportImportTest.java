package org.leveldbj.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.DBIterator;
import org.iq80.leveldb.Options;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.leveldbj.db.LevelDbFactory;

/** export then import, through files and through standard output and input, binary-safe. */
class ExportImportTest {
    @TempDir
    Path tmp;

    /** Random binary keys and values, every byte value included, some empty. */
    private static TreeMap<byte[], byte[]> binaryModel() {
        Random random = new Random(42);
        TreeMap<byte[], byte[]> model = TestDb.model();
        model.put(new byte[0], new byte[0]);
        for (int i = 0; i < 3000; i++) {
            byte[] key = new byte[1 + random.nextInt(20)];
            byte[] value = new byte[random.nextInt(300)];
            random.nextBytes(key);
            random.nextBytes(value);
            model.put(key, value);
        }
        byte[] all = new byte[256];
        for (int b = 0; b < 256; b++) {
            all[b] = (byte) b;
        }
        model.put(all, all);
        return model;
    }

    private static TreeMap<byte[], byte[]> contents(Path dir) throws Exception {
        TreeMap<byte[], byte[]> out = TestDb.model();
        try (DB db = LevelDbFactory.factory.open(dir.toFile(), new Options().readOnly(true));
                DBIterator it = db.iterator()) {
            for (it.seekToFirst(); it.hasNext(); ) {
                Map.Entry<byte[], byte[]> e = it.next();
                out.put(e.getKey(), e.getValue());
            }
        }
        return out;
    }

    private static void assertSameEntries(TreeMap<byte[], byte[]> expected, TreeMap<byte[], byte[]> actual) {
        assertEquals(expected.size(), actual.size());
        List<byte[]> keys = new ArrayList<>(actual.keySet());
        int i = 0;
        for (Map.Entry<byte[], byte[]> e : expected.entrySet()) {
            assertArrayEquals(e.getKey(), keys.get(i++));
            assertArrayEquals(e.getValue(), actual.get(e.getKey()));
        }
    }

    @Test
    void roundTripThroughAFileWithSmallBatches() throws Exception {
        TreeMap<byte[], byte[]> model = binaryModel();
        Path source = tmp.resolve("source");
        TreeMap<byte[], byte[]> half = TestDb.model();
        TreeMap<byte[], byte[]> rest = TestDb.model();
        model.forEach((k, v) -> (half.size() < model.size() / 2 ? half : rest).put(k, v));
        TestDb.write(source, half, rest);

        Path file = tmp.resolve("entries.jsonl");
        Cli.Result export = Cli.run("export", source, file);
        assertEquals(0, export.exit(), export.toString());
        assertEquals("exported " + model.size() + " entries from " + source + " to " + file + "\n", export.err());
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        assertEquals(model.size(), lines.size());
        assertEquals("{\"key\":\"\",\"value\":\"\"}", lines.get(0));

        Path target = tmp.resolve("target");
        Cli.Result imported = Cli.run("import", target, file, "--batch-bytes", "4096");
        assertEquals(0, imported.exit(), imported.toString());
        assertEquals(List.of("imported " + model.size() + " entries into " + target), imported.lines());
        assertSameEntries(model, contents(target));
    }

    @Test
    void roundTripThroughStandardOutputAndInput() throws Exception {
        TreeMap<byte[], byte[]> model = binaryModel();
        Path source = tmp.resolve("source");
        TestDb.write(source, model, Map.of());
        Cli.Result export = Cli.run("export", source, "-", "--quiet");
        assertEquals(0, export.exit(), export.toString());
        assertEquals("", export.err());

        Path target = tmp.resolve("target");
        Cli.Result imported = Cli.runWithInput(export.rawOut(), "import", target, "-");
        assertEquals(0, imported.exit(), imported.toString());
        assertSameEntries(model, contents(target));
        // The exported lines are scan's JSON lines.
        assertEquals(export.out(), Cli.run("scan", source, "--format", "json").out());
    }

    @Test
    void aBadLineStopsTheImportAfterTheLinesBeforeIt() throws Exception {
        String input = "{\"key\":\"YQ==\",\"value\":\"MQ==\"}\n"
                + "\n"
                + "{\"key\":\"Yg==\",\"value\":\"Mg==\",\"note\":\"other members are ignored\"}\n"
                + "{\"key\":\"Yw==\"}\n"
                + "{\"key\":\"ZA==\",\"value\":\"NA==\"}\n";
        Path target = tmp.resolve("target");
        Cli.Result r = Cli.runWithInput(input.getBytes(StandardCharsets.UTF_8), "import", target, "-");
        assertEquals(ExitCode.OTHER, r.exit(), r.toString());
        assertEquals("leveldb: standard input:4: no \"value\" string (expected {\"key\":\"<base64>\",\"value\":\"<base64>\"});"
                + " the 2 entries before it are imported\n", r.err());
        TreeMap<byte[], byte[]> expected = TestDb.model();
        expected.put(TestDb.utf8("a"), TestDb.utf8("1"));
        expected.put(TestDb.utf8("b"), TestDb.utf8("2"));
        assertSameEntries(expected, contents(target));

        Path file = Files.writeString(tmp.resolve("bad.jsonl"), "{\"key\":\"!!\",\"value\":\"\"}\n");
        r = Cli.run("import", target, file);
        assertEquals(ExitCode.OTHER, r.exit(), r.toString());
        assertTrue(r.err().startsWith("leveldb: " + file + ":1: \"key\" is not base64: "), r.err());
        r = Cli.run("import", target, tmp.resolve("absent.jsonl"));
        assertEquals(ExitCode.IO, r.exit(), r.toString());
    }

    @Test
    void exportOfARangeAndJsonParsing() throws Exception {
        Path source = tmp.resolve("source");
        TestDb.numbered(source, 50);
        Cli.Result r = Cli.run("export", source, "-", "--from", "key010", "--to", "key013");
        assertEquals(3, r.lines().size(), r.toString());
        Map<String, Object> first = Json.parseObject(r.lines().get(0));
        assertEquals("key010", new String(java.util.Base64.getDecoder().decode((String) first.get("key")), StandardCharsets.UTF_8));

        Map<String, Object> parsed = Json.parseObject(" {\"s\":\"a\\\"\\\\\\/\\n\\u00e9\", \"n\":-12, \"f\":1.5, \"t\":true, \"z\":null} ");
        assertEquals("a\"\\/\n\u00e9", parsed.get("s"));
        assertEquals(-12L, parsed.get("n"));
        assertEquals(1.5, parsed.get("f"));
        assertEquals(Boolean.TRUE, parsed.get("t"));
        assertTrue(parsed.containsKey("z"));
        assertEquals("nested objects and arrays are not supported at column 6",
                org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                        () -> Json.parseObject("{\"a\":[1]}")).getMessage());
        assertEquals("{\"q\":\"\\\"\\\\\\n\\u0001\"}", Json.object().add("q", "\"\\\n\u0001").toString());
    }
}
