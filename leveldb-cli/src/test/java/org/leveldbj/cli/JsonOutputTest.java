package org.leveldbj.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.Options;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.leveldbj.db.LevelDbFactory;

/**
 * {@code --format json} of every command that prints data, parsed by a strict JSON parser of
 * its own (objects, arrays, strings, numbers, booleans, null) and checked against the database
 * and against the text output.
 */
class JsonOutputTest {
    private static final int ENTRIES = 300;
    private static final int IN_LOG = 5;

    @TempDir
    Path tmp;

    private Path db;

    /** {@code key000 .. key299} in a table, and five more keys left in the log. */
    @BeforeEach
    void database() throws Exception {
        db = tmp.resolve("db");
        TestDb.numbered(db, ENTRIES);
        try (DB open = LevelDbFactory.factory.open(db.toFile(), new Options())) {
            for (int i = 0; i < IN_LOG; i++) {
                open.put(TestDb.utf8("log" + i), TestDb.utf8("v" + i));
            }
        }
    }

    @Test
    void countAndApproxSize() {
        assertEquals(Map.of("count", (long) ENTRIES + IN_LOG), object(ok("count", db, "--format", "json")));
        assertEquals(Map.of("count", 10L), object(ok("count", db, "--prefix", "key00", "--format", "json")));

        Map<String, Object> size = object(ok("approx-size", db, "key", "kez", "--format", "json"));
        assertEquals(List.of("from", "to", "bytes"), new ArrayList<>(size.keySet()));
        assertEquals("key", base64(size.get("from")));
        assertEquals("kez", base64(size.get("to")));
        long bytes = (Long) size.get("bytes");
        assertTrue(bytes > 1000, size.toString());
        assertEquals(List.of(Long.toString(bytes)), ok("approx-size", db, "key", "kez").lines());
    }

    @Test
    void stats() throws Exception {
        List<Map<String, Object>> lines = objects(ok("stats", db, "--format", "json"));
        Map<String, List<Map<String, Object>>> byKind = lines.stream()
                .collect(Collectors.groupingBy(o -> (String) o.get("kind"), LinkedHashMap::new, Collectors.toList()));
        assertEquals(List.of("database", "files", "level", "approximate_size", "statistics", "compression", "property"),
                new ArrayList<>(byKind.keySet()));
        Map<String, Object> statistics = byKind.get("statistics").get(0);
        long tablesInLevels = 0;
        for (Map<String, Object> level : byKind.get("level")) {
            int l = ((Long) level.get("level")).intValue();
            assertEquals(level.get("files"), ((List<?>) statistics.get("level.files")).get(l), "level " + l);
            assertEquals(level.get("bytes"), ((List<?>) statistics.get("level.bytes")).get(l), "level " + l);
            tablesInLevels += (Long) level.get("files");
        }
        assertTrue(tablesInLevels > 0);
        assertEquals(0L, statistics.get("pending.compaction.bytes"));
        assertEquals(0L, statistics.get("value.files"));
        assertTrue(statistics.containsKey("memtable.bytes"), statistics.toString());
        assertFalse(statistics.containsKey("open.iterators"), "about the process, not the database");

        Map<String, Object> database = byKind.get("database").get(0);
        assertEquals(db.toString(), database.get("database"));
        assertEquals("leveldb.BytewiseComparator", database.get("comparator"));
        assertTrue(((String) database.get("manifest")).startsWith("MANIFEST-"), database.toString());
        List<?> liveLogs = (List<?>) database.get("live_logs");
        assertEquals(1, liveLogs.size(), database.toString());
        assertTrue(Files.exists(db.resolve(String.format("%06d.log", (Long) liveLogs.get(0)))), database.toString());

        Map<String, Object> tables = byKind.get("files").stream().filter(o -> o.get("type").equals("table"))
                .findFirst().orElseThrow();
        assertEquals(tableFiles().size(), (long) (Long) tables.get("files"));
        long tableBytes = 0;
        for (Path t : tableFiles()) {
            tableBytes += Files.size(t);
        }
        assertEquals(tableBytes, tables.get("bytes"));
        assertEquals(7, byKind.get("level").size());
        assertEquals(tableFiles().size(), byKind.get("level").stream().mapToLong(o -> (Long) o.get("files")).sum());
        assertEquals(tableBytes, byKind.get("level").stream().mapToLong(o -> (Long) o.get("bytes")).sum());

        long approximate = (Long) byKind.get("approximate_size").get(0).get("bytes");
        assertTrue(ok("stats", db).lines().contains("approximate size of all keys: " + approximate + " bytes"));
        assertTrue(byKind.get("compression").stream().anyMatch(o -> o.get("compression").equals("snappy")
                && (Long) o.get("blocks") > 0), byKind.get("compression").toString());
        Set<String> properties = byKind.get("property").stream().map(o -> (String) o.get("name"))
                .collect(Collectors.toSet());
        assertTrue(properties.containsAll(List.of("leveldb.num-files-at-level0", "leveldb.stats", "leveldb.sstables",
                "leveldb.approximate-memory-usage")), properties.toString());
        String sstables = byKind.get("property").stream().filter(o -> o.get("name").equals("leveldb.sstables"))
                .map(o -> (String) o.get("value")).findFirst().orElseThrow();
        assertEquals(ok("sstables", db).out(), sstables);
    }

    @Test
    void sstables() throws Exception {
        List<Map<String, Object>> tables = objects(ok("sstables", db, "--format", "json"));
        assertEquals(tableFiles().size(), tables.size());
        Map<String, Object> t = tables.get(0);
        assertEquals(List.of("level", "number", "size", "smallest_key", "smallest_sequence", "smallest_type",
                "largest_key", "largest_sequence", "largest_type"), new ArrayList<>(t.keySet()));
        Path file = db.resolve(String.format("%06d.ldb", (Long) t.get("number")));
        if (!Files.exists(file)) {
            file = db.resolve(String.format("%06d.sst", (Long) t.get("number")));
        }
        assertEquals(Files.size(file), t.get("size"));
        assertEquals("key000", base64(t.get("smallest_key")));
        assertEquals("key299", base64(t.get("largest_key")));
        assertEquals("value", t.get("largest_type"));
        assertTrue(ok("sstables", db).out().contains(" " + t.get("number") + ":" + t.get("size") + "["),
                ok("sstables", db).out());
    }

    @Test
    void verifySoundAndDamaged() throws Exception {
        List<Map<String, Object>> sound = objects(ok("verify", db, "--format", "json"));
        assertEquals(1, sound.size(), sound.toString());
        Map<String, Object> summary = sound.get(0);
        assertEquals("summary", summary.get("kind"));
        assertEquals(true, summary.get("ok"));
        assertEquals(0L, summary.get("problems"));
        assertEquals((long) ENTRIES, summary.get("entries"));
        assertEquals((long) IN_LOG, summary.get("log_entries"));
        assertEquals((long) tableFiles().size(), summary.get("tables"));
        assertEquals(0L, summary.get("value_files"));
        String text = ok("verify", db).out();
        assertTrue(text.contains(summary.get("manifest") + " (" + summary.get("manifest_records") + " records)"), text);

        Path table = tableFiles().get(0);
        try (FileChannel ch = FileChannel.open(table, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(1);
            ch.read(b, 20);
            b.put(0, (byte) (b.get(0) ^ 0x55)).rewind();
            ch.write(b, 20);
        }
        Cli.Result damaged = Cli.run("verify", db, "--format", "json");
        assertEquals(ExitCode.CORRUPTION, damaged.exit(), damaged.toString());
        List<Map<String, Object>> lines = objects(damaged);
        Map<String, Object> problem = lines.get(0);
        assertEquals("problem", problem.get("kind"), lines.toString());
        assertEquals(table.toString(), problem.get("file"));
        assertEquals(0L, problem.get("offset"));
        assertInstanceOf(String.class, problem.get("reason"));
        Map<String, Object> last = lines.get(lines.size() - 1);
        assertEquals("summary", last.get("kind"));
        assertEquals(false, last.get("ok"));
        assertEquals(lines.stream().filter(o -> o.get("kind").equals("problem")).count(), last.get("problems"));
        assertTrue(damaged.err().startsWith("leveldb: "), damaged.err());
    }

    @Test
    void commandsThatChangeTheDatabase() throws Exception {
        Path export = tmp.resolve("export.jsonl");
        ok("export", db, export, "--quiet");
        Path copy = tmp.resolve("copy");
        Map<String, Object> imported = object(ok("import", copy, export, "--format", "json"));
        assertEquals(Map.of("database", copy.toString(), "entries", (long) ENTRIES + IN_LOG), imported);

        Map<String, Object> compacted = object(ok("compact", copy, "--format", "json"));
        assertEquals(List.of("database", "tables_before", "bytes_before", "tables_after", "bytes_after"),
                new ArrayList<>(compacted.keySet()));
        assertEquals(0L, compacted.get("tables_before"));
        assertEquals((long) tableFiles(copy).size(), compacted.get("tables_after"));

        Map<String, Object> rewritten = object(ok("rewrite", copy, "--format", "json"));
        assertEquals(0L, rewritten.get("value_files_before"));
        assertEquals(0L, rewritten.get("value_files_after"));

        Files.delete(copy.resolve("CURRENT"));
        Map<String, Object> repaired = object(ok("repair", copy, "--format", "json"));
        assertEquals(copy.toString(), repaired.get("database"));
        assertEquals((long) tableFiles(copy).size(), repaired.get("tables"));
        List<?> log = (List<?>) repaired.get("log");
        assertFalse(log.isEmpty(), repaired.toString());
        assertTrue(log.stream().allMatch(String.class::isInstance), repaired.toString());
        assertEquals(List.of(Long.toString(ENTRIES + IN_LOG)), ok("count", copy).lines());

        assertEquals(Map.of("destroyed", copy.toString()), object(ok("destroy", copy, "--yes", "--format", "json")));
    }

    @Test
    void everyCommandThatPrintsDataTakesJson() {
        for (String command : List.of("get", "scan", "count", "stats", "sstables", "approx-size", "verify", "dump",
                "compact", "repair", "rewrite", "import", "destroy")) {
            Cli.Result help = ok(command, "--help");
            assertTrue(help.out().contains("--format=FORMAT"), command + ":\n" + help.out());
            assertTrue(help.out().contains("json"), command + ":\n" + help.out());
        }
        Cli.Result hex = Cli.run("count", db, "--format", "hex");
        assertEquals(ExitCode.USAGE, hex.exit(), hex.toString());
        assertTrue(hex.err().contains("--format") && hex.err().toLowerCase(Locale.ROOT).contains("[text, json]"), hex.err());
    }

    @Test
    void theParserIsStrict() {
        assertThrows(IllegalArgumentException.class, () -> parse("{\"a\":1} x"));
        assertThrows(IllegalArgumentException.class, () -> parse("{\"a\":1,}"));
        assertThrows(IllegalArgumentException.class, () -> parse("{'a':1}"));
        assertThrows(IllegalArgumentException.class, () -> parse("[1 2]"));
        assertEquals(List.of(1L, "x\n", true, Map.of()), parse("[1,\"x\\n\",true,{}]"));
    }

    private Cli.Result ok(Object... args) {
        Cli.Result r = Cli.run(args);
        assertEquals(0, r.exit(), r.toString());
        return r;
    }

    private List<Path> tableFiles() throws Exception {
        return tableFiles(db);
    }

    private static List<Path> tableFiles(Path dir) throws Exception {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.toString().endsWith(".ldb") || p.toString().endsWith(".sst")).sorted()
                    .collect(Collectors.toList());
        }
    }

    private static String base64(Object value) {
        return new String(Base64.getDecoder().decode((String) value), StandardCharsets.UTF_8);
    }

    /** Standard output as exactly one JSON object on one line. */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> object(Cli.Result r) {
        List<String> lines = r.lines();
        assertEquals(1, lines.size(), r.toString());
        return (Map<String, Object>) parse(lines.get(0));
    }

    /** Standard output as JSON lines, one object each. */
    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> objects(Cli.Result r) {
        List<Map<String, Object>> objects = new ArrayList<>();
        for (String line : r.lines()) {
            Object value = parse(line);
            assertInstanceOf(Map.class, value, line);
            objects.add((Map<String, Object>) value);
        }
        return objects;
    }

    /**
     * Parses one JSON value that fills the whole text: objects (as ordered maps, duplicate names
     * refused), arrays, strings, integers (as Long), other numbers (as Double), booleans, null.
     */
    static Object parse(String text) {
        Parser p = new Parser(text);
        Object value = p.value();
        p.space();
        if (p.pos != text.length()) {
            throw p.error("text after the value");
        }
        return value;
    }

    private static final class Parser {
        private final String s;
        private int pos;

        Parser(String s) {
            this.s = s;
        }

        IllegalArgumentException error(String what) {
            return new IllegalArgumentException(what + " at " + pos + " in " + s);
        }

        void space() {
            while (pos < s.length() && " \t\r\n".indexOf(s.charAt(pos)) >= 0) {
                pos++;
            }
        }

        char peek() {
            if (pos >= s.length()) {
                throw error("end of text");
            }
            return s.charAt(pos);
        }

        void expect(char c) {
            if (peek() != c) {
                throw error("expected " + c);
            }
            pos++;
        }

        Object value() {
            space();
            char c = peek();
            if (c == '{') {
                pos++;
                Map<String, Object> map = new LinkedHashMap<>();
                space();
                if (peek() == '}') {
                    pos++;
                    return map;
                }
                while (true) {
                    space();
                    String name = string();
                    space();
                    expect(':');
                    if (map.containsKey(name)) {
                        throw error("duplicate member " + name);
                    }
                    map.put(name, value());
                    space();
                    if (peek() == '}') {
                        pos++;
                        return map;
                    }
                    expect(',');
                }
            }
            if (c == '[') {
                pos++;
                List<Object> list = new ArrayList<>();
                space();
                if (peek() == ']') {
                    pos++;
                    return list;
                }
                while (true) {
                    list.add(value());
                    space();
                    if (peek() == ']') {
                        pos++;
                        return list;
                    }
                    expect(',');
                }
            }
            if (c == '"') {
                return string();
            }
            for (String word : new String[] {"true", "false", "null"}) {
                if (s.startsWith(word, pos)) {
                    pos += word.length();
                    return word.equals("null") ? null : Boolean.valueOf(word);
                }
            }
            int start = pos;
            if (peek() == '-') {
                pos++;
            }
            while (pos < s.length() && "0123456789.eE+-".indexOf(s.charAt(pos)) >= 0) {
                pos++;
            }
            String number = s.substring(start, pos);
            if (number.matches("-?(0|[1-9]\\d*)")) {
                return Long.parseLong(number);
            }
            if (number.matches("-?(0|[1-9]\\d*)(\\.\\d+)?([eE][+-]?\\d+)?")) {
                return Double.parseDouble(number);
            }
            pos = start;
            throw error("expected a value");
        }

        String string() {
            expect('"');
            StringBuilder sb = new StringBuilder();
            while (true) {
                char c = peek();
                pos++;
                if (c == '"') {
                    return sb.toString();
                }
                if (c < 0x20) {
                    throw error("control character in a string");
                }
                if (c != '\\') {
                    sb.append(c);
                    continue;
                }
                char e = peek();
                pos++;
                switch (e) {
                    case 'n' -> sb.append('\n');
                    case 't' -> sb.append('\t');
                    case 'r' -> sb.append('\r');
                    case 'b' -> sb.append('\b');
                    case 'f' -> sb.append('\f');
                    case '"', '\\', '/' -> sb.append(e);
                    case 'u' -> {
                        sb.append((char) Integer.parseInt(s.substring(pos, pos + 4), 16));
                        pos += 4;
                    }
                    default -> throw error("bad escape");
                }
            }
        }
    }
}
