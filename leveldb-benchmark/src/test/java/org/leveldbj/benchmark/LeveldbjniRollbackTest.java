package org.leveldbj.benchmark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.DBFactory;
import org.iq80.leveldb.Options;
import org.iq80.leveldb.TableFileSuffix;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.leveldbj.db.LevelDbFactory;
import org.leveldbj.testing.PeerExtension;

/**
 * A database written by the real leveldbjni 1.8, then written and compacted by this library,
 * still opens in leveldbjni with everything in it, whether it held tables or only a log when we
 * opened it: the tables we add are named {@code .sst}, which leveldbjni can read. The control
 * shows why it matters: forced to {@code .ldb}, the same steps leave a database leveldbjni
 * refuses.
 */
@ExtendWith(PeerExtension.class)
class LeveldbjniRollbackTest {
    @TempDir
    Path temp;

    /** leveldbjni unpacks its native library into java.io.tmpdir, which the build names but may not have made yet. */
    @BeforeAll
    static void makeTheTemporaryDirectory() throws IOException {
        Files.createDirectories(Path.of(System.getProperty("java.io.tmpdir")));
    }

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static void put(DB db, String prefix) {
        for (int i = 0; i < 3000; i++) {
            db.put(b(prefix + i), b("value of " + prefix + i));
        }
    }

    private static void check(DB db, String... prefixes) {
        for (String prefix : prefixes) {
            for (int i = 0; i < 3000; i += 7) {
                assertArrayEquals(b("value of " + prefix + i), db.get(b(prefix + i)), prefix + i);
            }
        }
    }

    private static List<String> tables(File dir) {
        String[] names = dir.list((d, n) -> n.endsWith(".sst") || n.endsWith(".ldb"));
        Arrays.sort(names);
        return List.of(names);
    }

    private static void copy(Path from, Path to) throws IOException {
        Files.createDirectories(to);
        try (Stream<Path> files = Files.list(from)) {
            for (Path f : files.toList()) {
                if (!f.getFileName().toString().equals("LOCK")) {
                    Files.copy(f, to.resolve(f.getFileName()), StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }

    /**
     * leveldbjni creates a database and writes a few entries, which stay in its log (iq80
     * leveldb 0.12's NativeInteropTest does this). We add ours, flush and compact; leveldbjni
     * reads everything back.
     */
    @Test
    void leveldbjniOpensItsLogOnlyDatabaseAfterUs() throws IOException {
        DBFactory jni = Peers.loadOrSkip("leveldbjni").factory();
        File dir = temp.resolve("log-only").toFile();
        try (DB db = jni.open(dir, new Options().createIfMissing(true))) {
            put(db, "jni");
        }
        assertEquals(List.of(), tables(dir), "leveldbjni's entries are still in its log");
        Path control = temp.resolve("log-only-control");
        copy(dir.toPath(), control);

        try (DB db = LevelDbFactory.factory.open(dir, new Options())) {
            check(db, "jni");
            put(db, "ours");
            db.compactRange(null, null);
        }
        assertTrue(!tables(dir).isEmpty() && tables(dir).stream().allMatch(n -> n.endsWith(".sst")), tables(dir).toString());
        try (DB db = jni.open(dir, new Options())) {
            check(db, "jni", "ours");
        }

        // The control: what this library did before, .ldb names for a database without tables.
        try (DB db = LevelDbFactory.factory.open(control.toFile(), new Options().tableFileSuffix(TableFileSuffix.LDB))) {
            put(db, "ours");
            db.compactRange(null, null);
        }
        IOException refused = assertThrows(IOException.class, () -> jni.open(control.toFile(), new Options()).close());
        assertTrue(refused.getMessage().contains("missing files"), refused.getMessage());
    }

    @Test
    void leveldbjniOpensWhatWeWroteToItsDatabase() throws IOException {
        DBFactory jni = Peers.loadOrSkip("leveldbjni").factory();
        File dir = temp.resolve("db").toFile();
        try (DB db = jni.open(dir, new Options().createIfMissing(true))) {
            put(db, "jni");
            db.compactRange(null, null); // tables, not only a log
            put(db, "log"); // and a log to replay
        }
        assertTrue(!tables(dir).isEmpty() && tables(dir).stream().allMatch(n -> n.endsWith(".sst")), tables(dir).toString());
        Path control = temp.resolve("control");
        copy(dir.toPath(), control);

        try (DB db = LevelDbFactory.factory.open(dir, new Options())) {
            check(db, "jni", "log");
            put(db, "ours");
            db.compactRange(null, null);
        }
        assertTrue(tables(dir).stream().allMatch(n -> n.endsWith(".sst")), tables(dir).toString());
        try (DB db = jni.open(dir, new Options())) {
            check(db, "jni", "log", "ours");
        }

        // The control: with .ldb names leveldbjni 1.8 cannot find the tables.
        try (DB db = LevelDbFactory.factory.open(control.toFile(), new Options().tableFileSuffix(TableFileSuffix.LDB))) {
            put(db, "ours");
            db.compactRange(null, null);
        }
        IOException refused = assertThrows(IOException.class, () -> jni.open(control.toFile(), new Options()).close());
        assertTrue(refused.getMessage().contains("missing files"), refused.getMessage());
    }
}
