package org.leveldbj.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import org.iq80.leveldb.CompressionType;
import org.iq80.leveldb.DBComparator;
import org.iq80.leveldb.DBException;
import org.iq80.leveldb.ExtendedDB;
import org.iq80.leveldb.FilterPolicy;
import org.iq80.leveldb.Options;
import org.iq80.leveldb.ReadOptions;
import org.iq80.leveldb.Snapshot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.leveldbj.db.LevelDbFactory;
import org.leveldbj.testing.MemEnv;
import org.leveldbj.testing.Seed;
import org.leveldbj.testing.SeedExtension;

/**
 * {@code ExtendedDB.multiGet} against a model (a TreeMap per snapshot) and against a loop of
 * {@code get}, over random data spread across the memtables and several levels, with
 * deletions, snapshots, duplicate and absent keys, bloom filters, separated values and a
 * comparator that is not byte-wise. A failure reports its seed; rerun it with
 * {@code -Dleveldbj.seed=N}.
 */
@ExtendWith(SeedExtension.class)
class MultiGetTest {
    private final MemEnv env = new MemEnv();
    private final File dir = new File("/db");

    /** Byte-wise order reversed: a multiGet that sorted its keys byte-wise would miss files. */
    private static final class Reversed implements DBComparator {
        @Override
        public String name() {
            return "test.Reversed";
        }

        @Override
        public int compare(byte[] a, byte[] b) {
            return Arrays.compareUnsigned(b, a);
        }

        @Override
        public byte[] findShortestSeparator(byte[] start, byte[] limit) {
            return start;
        }

        @Override
        public byte[] findShortSuccessor(byte[] key) {
            return key;
        }
    }

    private Options options(String variant) {
        Options o = new Options().env(env).writeBufferSize(6_000).maxFileSize(8_000).blockSize(256)
                .compressionType(CompressionType.NONE);
        switch (variant) {
            case "plain" -> { }
            case "bloom" -> o.filterPolicy(FilterPolicy.bloom(10)).compressionType(CompressionType.SNAPPY);
            case "separated" -> o.valueThreshold(40);
            case "reversed" -> o.comparator(new Reversed()).filterPolicy(FilterPolicy.bloom(10));
            default -> throw new AssertionError(variant);
        }
        return o;
    }

    private static byte[] key(Random r) {
        return String.format("k%05d", r.nextInt(3000)).getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] value(Random r) {
        byte[] v = new byte[r.nextInt(80)];
        r.nextBytes(v);
        return v;
    }

    private record Frozen(Snapshot snapshot, TreeMap<byte[], byte[]> model) {
    }

    @ParameterizedTest
    @ValueSource(strings = {"plain", "bloom", "separated", "reversed"})
    void matchesTheModelAndALoopOfGet(String variant, @Seed long seed) throws IOException {
        Random r = new Random(seed);
        Options options = options(variant);
        Comparator<byte[]> order = variant.equals("reversed") ? (a, b) -> Arrays.compareUnsigned(b, a)
                : Arrays::compareUnsigned;
        TreeMap<byte[], byte[]> model = new TreeMap<>(order);
        List<Frozen> snapshots = new ArrayList<>();
        int checks = 0;
        int mostLevels = 0;
        ExtendedDB db = LevelDbFactory.factory.open(dir, options);
        try {
            for (int step = 0; step < 20_000; step++) {
                int op = r.nextInt(1000);
                if (op < 600) {
                    byte[] k = key(r);
                    byte[] v = value(r);
                    db.put(k, v);
                    model.put(k, v);
                } else if (op < 800) {
                    byte[] k = key(r);
                    db.delete(k);
                    model.remove(k);
                } else if (op < 990) {
                    check(db, model, null, r, "seed " + seed + " step " + step);
                    if (checks++ % 50 == 0) {
                        mostLevels = Math.max(mostLevels, levelsWithFiles(db));
                    }
                } else if (op < 993) {
                    if (snapshots.size() < 4) {
                        snapshots.add(new Frozen(db.getSnapshot(), new TreeMap<>(model)));
                    } else {
                        snapshots.remove(r.nextInt(snapshots.size())).snapshot().close();
                    }
                } else if (op < 998) {
                    if (!snapshots.isEmpty()) {
                        Frozen f = snapshots.get(r.nextInt(snapshots.size()));
                        check(db, f.model(), f.snapshot(), r, "seed " + seed + " step " + step + " at a snapshot");
                    }
                } else if (op < 999) {
                    db.compactRange(r.nextBoolean() ? null : key(r), null);
                } else {
                    db.close();
                    for (Frozen f : snapshots) {
                        f.snapshot().close();
                    }
                    snapshots.clear();
                    db = LevelDbFactory.factory.open(dir, options);
                }
            }
            // The checks above ran with data in the tables of at least two levels (three in most runs).
            assertTrue(mostLevels >= 2, "most levels with files: " + mostLevels);
            assertTrue(checks > 3000, "checks " + checks);
            for (Frozen f : snapshots) {
                check(db, f.model(), f.snapshot(), r, "seed " + seed + " at the end, at a snapshot");
            }
            check(db, model, null, r, "seed " + seed + " at the end");
        } finally {
            for (Frozen f : snapshots) {
                f.snapshot().close();
            }
            db.close();
        }
    }

    private static int levelsWithFiles(ExtendedDB db) {
        int levels = 0;
        for (int level = 0; level < 7; level++) {
            levels += db.getProperty("leveldb.num-files-at-level" + level).equals("0") ? 0 : 1;
        }
        return levels;
    }

    /** One multiGet of random keys (some repeated, some absent) against the model and gets. */
    private static void check(ExtendedDB db, TreeMap<byte[], byte[]> model, Snapshot snapshot, Random r,
                              String context) {
        List<byte[]> keys = new ArrayList<>();
        int n = r.nextInt(4) == 0 ? r.nextInt(3) : r.nextInt(120);
        for (int i = 0; i < n; i++) {
            keys.add(!keys.isEmpty() && r.nextInt(10) == 0 ? keys.get(r.nextInt(keys.size())) : key(r));
        }
        ReadOptions ro = new ReadOptions().snapshot(snapshot);
        List<byte[]> values = snapshot == null && r.nextBoolean() ? db.multiGet(keys) : db.multiGet(keys, ro);
        assertEquals(keys.size(), values.size(), context);
        for (int i = 0; i < keys.size(); i++) {
            String what = context + " key " + new String(keys.get(i), StandardCharsets.US_ASCII);
            assertArrayEquals(model.get(keys.get(i)), values.get(i), what);
            assertArrayEquals(db.get(keys.get(i), ro), values.get(i), what + " (get)");
        }
    }

    @Test
    void aKeyGivenTwiceGetsTwoArrays() throws IOException {
        try (ExtendedDB db = LevelDbFactory.factory.open(dir, options("plain"))) {
            byte[] a = bytes("a");
            db.put(a, bytes("1"));
            db.flushMemTable();
            List<byte[]> values = db.multiGet(List.of(a, bytes("b"), bytes("a")));
            assertArrayEquals(bytes("1"), values.get(0));
            assertNull(values.get(1));
            assertArrayEquals(bytes("1"), values.get(2));
            assertNotSame(values.get(0), values.get(2));
            assertEquals(0, db.multiGet(List.of()).size());
        }
    }

    @Test
    void badArgumentsAreRefusedClearly() throws IOException {
        ExtendedDB db = LevelDbFactory.factory.open(dir, options("plain"));
        List<byte[]> withNull = Arrays.asList(bytes("a"), null);
        assertEquals("The keys argument cannot be null",
                assertThrows(IllegalArgumentException.class, () -> db.multiGet(null)).getMessage());
        assertEquals("The keys argument cannot hold null (at index 1)",
                assertThrows(IllegalArgumentException.class, () -> db.multiGet(withNull)).getMessage());
        assertEquals("The options argument cannot be null",
                assertThrows(IllegalArgumentException.class, () -> db.multiGet(List.of(), null)).getMessage());
        Snapshot snapshot = db.getSnapshot();
        snapshot.close();
        ReadOptions closedSnapshot = new ReadOptions().snapshot(snapshot);
        assertTrue(assertThrows(DBException.class, () -> db.multiGet(List.of(bytes("a")), closedSnapshot))
                .getMessage().contains("snapshot is closed"));
        try (ExtendedDB other = LevelDbFactory.factory.open(new File("/other"), options("plain"))) {
            Snapshot foreign = other.getSnapshot();
            ReadOptions foreignSnapshot = new ReadOptions().snapshot(foreign);
            assertThrows(IllegalArgumentException.class, () -> db.multiGet(List.of(bytes("a")), foreignSnapshot));
            foreign.close();
        }
        db.close();
        assertEquals("database is closed",
                assertThrows(DBException.class, () -> db.multiGet(List.of(bytes("a")))).getMessage());
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
