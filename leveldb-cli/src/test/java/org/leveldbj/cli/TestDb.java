package org.leveldbj.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.Options;
import org.leveldbj.db.LevelDbFactory;

/** Databases written by leveldbj for the tests, and the model of what they hold. */
final class TestDb {
    private TestDb() {
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** An empty model ordered as the database orders keys. */
    static TreeMap<byte[], byte[]> model() {
        return new TreeMap<>(Arrays::compareUnsigned);
    }

    /**
     * Writes entries into a new database, compacts them into tables, and then writes
     * {@code inLog} on top, left in the log (closing does not flush).
     */
    static void write(Path dir, Map<byte[], byte[]> tables, Map<byte[], byte[]> inLog) throws IOException {
        try (DB db = LevelDbFactory.factory.open(dir.toFile(), new Options().createIfMissing(true))) {
            tables.forEach(db::put);
            db.compactRange(null, null);
            inLog.forEach(db::put);
        }
    }

    /** {@code key000 .. key<n-1>} to {@code value<i>}, in tables. */
    static TreeMap<byte[], byte[]> numbered(Path dir, int n) throws IOException {
        TreeMap<byte[], byte[]> model = model();
        for (int i = 0; i < n; i++) {
            model.put(utf8(String.format("key%03d", i)), utf8("value" + i));
        }
        write(dir, model, Map.of());
        return model;
    }

    /** The first table file of a directory. */
    static Path firstTable(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.toString().endsWith(".sst") || p.toString().endsWith(".ldb")).sorted().findFirst()
                    .orElseThrow();
        }
    }

    /** The newest log file of a directory. */
    static Path lastLog(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.toString().endsWith(".log")).sorted().reduce((a, b) -> b).orElseThrow();
        }
    }
}
