package org.leveldbj.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.leveldbj.db.LevelDbFactory.asString;
import static org.leveldbj.db.LevelDbFactory.bytes;
import static org.leveldbj.db.LevelDbFactory.factory;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.iq80.leveldb.CorruptionException;
import org.iq80.leveldb.DBIterator;
import org.iq80.leveldb.ExtendedDB;
import org.iq80.leveldb.IngestOptions;
import org.iq80.leveldb.InvalidArgumentException;
import org.iq80.leveldb.Options;
import org.iq80.leveldb.ReadOptions;
import org.iq80.leveldb.Snapshot;
import org.iq80.leveldb.TableWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ingestion: files that overlap nothing go in as they are at the last level; files that overlap
 * are rewritten newer than every earlier write, above the data they hide; snapshots taken before
 * see none of it; damaged or overlapping input changes nothing; and a randomized run against a
 * TreeMap model (seed printed, {@code -Dingest.seed=} to replay) agrees after every step and
 * after reopening.
 */
class IngestTest {
    @TempDir
    Path tmp;

    private final java.util.concurrent.atomic.AtomicInteger fileCount = new java.util.concurrent.atomic.AtomicInteger();

    private static byte[] key(int i) {
        return bytes(String.format("key%07d", i));
    }

    /** Writes a table of the given entries (null value = deletion), in key order. */
    private File table(ExtendedDB db, TreeMap<Integer, String> entries) {
        File file = tmp.resolve("in-" + fileCount.getAndIncrement() + ".sst").toFile();
        try (TableWriter w = db.newTableWriter(file)) {
            entries.forEach((k, v) -> {
                if (v == null) {
                    w.delete(key(k));
                } else {
                    w.put(key(k), bytes(v));
                }
            });
            w.finish();
        }
        return file;
    }

    private static TreeMap<Integer, String> range(int from, int to, String value) {
        TreeMap<Integer, String> m = new TreeMap<>();
        for (int i = from; i < to; i++) {
            m.put(i, value + i);
        }
        return m;
    }

    private static int filesAt(ExtendedDB db, int level) {
        return Integer.parseInt(db.getProperty("leveldb.num-files-at-level" + level));
    }

    private static List<Path> tables(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.toString().endsWith(".ldb") || p.toString().endsWith(".sst")).sorted().toList();
        }
    }

    @Test
    void aFileOverlappingNothingGoesInAsItIsAtTheLastLevel() throws Exception {
        Path dir = tmp.resolve("db");
        try (ExtendedDB db = factory.open(dir.toFile(), new Options())) {
            db.put(key(5000), bytes("old"));
            File in = table(db, range(0, 1000, "v"));
            byte[] original = Files.readAllBytes(in.toPath());
            db.ingest(in);
            assertTrue(in.exists(), "copied, not moved");
            assertEquals(1, filesAt(db, 6));
            assertEquals("v7", asString(db.get(key(7))));
            assertEquals("old", asString(db.get(key(5000))));
            // taken as it is: the table in the database is the same bytes
            Path inside = tables(dir).get(0);
            assertArrayEquals(original, Files.readAllBytes(inside));
            db.put(key(7), bytes("newer"));
            assertEquals("newer", asString(db.get(key(7))));
        }
        try (ExtendedDB db = factory.open(dir.toFile(), new Options())) {
            assertEquals("newer", asString(db.get(key(7))));
            assertEquals("v999", asString(db.get(key(999))));
            db.compactRange(null, null);
            assertEquals("newer", asString(db.get(key(7))));
            assertEquals("v8", asString(db.get(key(8))));
        }
    }

    @Test
    void anOverlappingFileIsNewerThanEveryEarlierWriteAndHiddenFromEarlierSnapshots() throws Exception {
        Path dir = tmp.resolve("db");
        try (ExtendedDB db = factory.open(dir.toFile(), new Options())) {
            for (int i = 0; i < 100; i++) {
                db.put(key(i), bytes("table" + i));
            }
            db.flushMemTable();
            db.put(key(10), bytes("mem10"));
            db.put(key(50), bytes("mem50"));
            Snapshot before = db.getSnapshot();
            TreeMap<Integer, String> entries = range(40, 60, "ingested");
            entries.put(45, null);
            entries.put(10, "ingested10");
            db.ingest(table(db, entries));
            assertEquals("ingested10", asString(db.get(key(10))));
            assertEquals("ingested50", asString(db.get(key(50))));
            assertNull(db.get(key(45)));
            assertEquals("table5", asString(db.get(key(5))));
            ReadOptions old = new ReadOptions().snapshot(before);
            assertEquals("mem10", asString(db.get(key(10), old)));
            assertEquals("mem50", asString(db.get(key(50), old)));
            assertEquals("table45", asString(db.get(key(45), old)));
            try (DBIterator it = db.iterator(old)) {
                it.seek(key(40));
                assertEquals("table40", asString(it.next().getValue()));
            }
            try (DBIterator it = db.iterator()) {
                it.seek(key(44));
                assertEquals("ingested44", asString(it.next().getValue()));
                assertEquals("ingested46", asString(it.next().getValue()));
            }
            before.close();
            db.put(key(50), bytes("after"));
            assertEquals("after", asString(db.get(key(50))));
        }
        try (ExtendedDB db = factory.open(dir.toFile(), new Options())) {
            assertEquals("after", asString(db.get(key(50))));
            assertEquals("ingested10", asString(db.get(key(10))));
            assertNull(db.get(key(45)));
            db.put(key(51), bytes("after51"));
            db.compactRange(null, null);
            assertEquals("after51", asString(db.get(key(51))));
            assertEquals("ingested52", asString(db.get(key(52))));
            assertNull(db.get(key(45)));
        }
    }

    @Test
    void anOpenSnapshotMakesEvenAFileOverlappingNothingInvisibleToIt() throws Exception {
        try (ExtendedDB db = factory.open(tmp.resolve("db").toFile(), new Options())) {
            db.put(key(1), bytes("a"));
            Snapshot snapshot = db.getSnapshot();
            db.ingest(table(db, range(100, 200, "v")));
            assertEquals("v150", asString(db.get(key(150))));
            assertNull(db.get(key(150), new ReadOptions().snapshot(snapshot)));
            snapshot.close();
        }
    }

    @Test
    void filesGoToTheDeepestLevelAboveTheirFirstOverlap() throws Exception {
        try (ExtendedDB db = factory.open(tmp.resolve("db").toFile(), new Options())) {
            db.ingest(table(db, range(0, 100, "bottom"))); // nothing to overlap: level 6
            assertEquals(1, filesAt(db, 6));
            db.ingest(table(db, range(50, 60, "over"))); // overlaps level 6 only: level 5
            assertEquals(1, filesAt(db, 5));
            db.ingest(table(db, range(55, 56, "again"))); // overlaps level 5: level 4
            assertEquals(1, filesAt(db, 4));
            db.put(key(58), bytes("mem"));
            db.ingest(table(db, range(57, 59, "top"))); // the memtable is flushed first
            assertEquals("top58", asString(db.get(key(58))));
            assertEquals("again55", asString(db.get(key(55))));
            assertEquals("over51", asString(db.get(key(51))));
            assertEquals("bottom10", asString(db.get(key(10))));
            db.compactRange(null, null);
            assertEquals("top58", asString(db.get(key(58))));
            assertEquals("again55", asString(db.get(key(55))));
        }
    }

    @Test
    void severalFilesGoInTogetherOrNotAtAll() throws Exception {
        Path dir = tmp.resolve("db");
        try (ExtendedDB db = factory.open(dir.toFile(), new Options())) {
            File a = table(db, range(0, 10, "a"));
            File b = table(db, range(5, 20, "b"));
            File c = table(db, range(20, 30, "c"));
            InvalidArgumentException overlap = assertThrows(InvalidArgumentException.class, () -> db.ingest(a, b));
            assertTrue(overlap.getMessage().contains("overlap") && overlap.getMessage().contains(a.getName()),
                    overlap.getMessage());
            assertThrows(InvalidArgumentException.class, () -> db.ingest(a, a));
            assertThrows(InvalidArgumentException.class, () -> db.ingest());
            File damaged = table(db, range(40, 2000, "d"));
            byte[] bytes = Files.readAllBytes(damaged.toPath());
            bytes[100] ^= 1;
            Files.write(damaged.toPath(), bytes);
            CorruptionException e = assertThrows(CorruptionException.class, () -> db.ingest(c, damaged));
            assertEquals(damaged.toString(), e.file());
            assertEquals(0, e.offset()); // the first data block
            assertTrue(e.getMessage().contains("checksum"), e.getMessage());
            assertNull(db.get(key(25)));
            assertEquals(List.of(), tables(dir));
            db.ingest(c, a);
            assertEquals("a5", asString(db.get(key(5))));
            assertEquals("c25", asString(db.get(key(25))));
        }
    }

    @Test
    void moveLinksTheFileAndRemovesTheOriginal() throws Exception {
        try (ExtendedDB db = factory.open(tmp.resolve("db").toFile(), new Options())) {
            File a = table(db, range(0, 10, "a"));
            File b = table(db, range(10, 20, "b"));
            db.put(key(15), bytes("old"));
            db.ingest(new IngestOptions().moveFiles(true), a, b); // a as it is, b rewritten
            assertTrue(!a.exists() && !b.exists());
            assertEquals("a3", asString(db.get(key(3))));
            assertEquals("b15", asString(db.get(key(15))));
        }
    }

    @Test
    void foreignAndMalformedFilesAreRefusedWithTheirName() throws Exception {
        try (ExtendedDB db = factory.open(tmp.resolve("db").toFile(), new Options())) {
            Path junk = tmp.resolve("junk.sst");
            Files.write(junk, new byte[10]);
            CorruptionException e = assertThrows(CorruptionException.class, () -> db.ingest(junk.toFile()));
            assertEquals(junk.toString(), e.file());
            byte[] big = new byte[4096];
            new Random(1).nextBytes(big);
            Files.write(junk, big);
            e = assertThrows(CorruptionException.class, () -> db.ingest(junk.toFile()));
            assertEquals(junk.toString(), e.file());
            assertThrows(org.iq80.leveldb.IOErrorException.class, () -> db.ingest(tmp.resolve("missing.sst").toFile()));
        }
    }

    @Test
    void twoDatabasesOnAOneThreadPoolIngestAtOnce() throws Exception {
        org.iq80.leveldb.BackgroundPool pool = org.leveldbj.db.LevelDbFactory.newBackgroundPool(1);
        Options options = new Options().backgroundPool(pool).writeBufferSize(16 << 10);
        try (ExtendedDB a = factory.open(tmp.resolve("a").toFile(), options);
             ExtendedDB b = factory.open(tmp.resolve("b").toFile(), options)) {
            Thread other = new Thread(() -> {
                for (int i = 0; i < 20; i++) {
                    b.put(key(i * 100), bytes("b"));
                    b.ingest(table(b, range(i * 100, i * 100 + 50, "b")));
                }
            });
            other.start();
            for (int i = 0; i < 20; i++) {
                a.put(key(i * 100 + 10), bytes("a"));
                a.ingest(table(a, range(i * 100, i * 100 + 50, "a")));
            }
            other.join();
            for (int i = 0; i < 20; i++) {
                assertEquals("a" + (i * 100 + 10), asString(a.get(key(i * 100 + 10))));
                assertEquals("b" + (i * 100), asString(b.get(key(i * 100))));
            }
        } finally {
            pool.close();
        }
    }

    @Test
    void worksWithSeparatedValues() throws Exception {
        Path dir = tmp.resolve("db");
        Options options = new Options().valueThreshold(64);
        byte[] large = new byte[1000];
        Arrays.fill(large, (byte) 'x');
        try (ExtendedDB db = factory.open(dir.toFile(), options)) {
            db.put(key(1), large);
            db.put(key(2), bytes("small"));
            db.ingest(table(db, range(0, 3, "plain")));
            assertEquals("plain1", asString(db.get(key(1))));
            db.ingest(table(db, range(10, 20, "plain")));
            db.put(key(11), large);
            assertArrayEquals(large, db.get(key(11)));
        }
        try (ExtendedDB db = factory.open(dir.toFile(), options)) {
            db.compactRange(null, null);
            assertEquals("plain1", asString(db.get(key(1))));
            assertArrayEquals(large, db.get(key(11)));
            assertEquals("plain12", asString(db.get(key(12))));
        }
    }

    @Test
    void randomIngestsWritesAndSnapshotsAgreeWithAModel() throws Exception {
        long seed = Long.getLong("ingest.seed", System.nanoTime());
        System.out.println("IngestTest seed " + seed + " (-Dingest.seed=" + seed + " replays it)");
        Random random = new Random(seed);
        Path dir = tmp.resolve("db");
        Options options = new Options().writeBufferSize(16 << 10).maxFileSize(8 << 10);
        TreeMap<Integer, String> model = new TreeMap<>();
        try (ExtendedDB db = factory.open(dir.toFile(), options)) {
            Snapshot snapshot = null;
            TreeMap<Integer, String> atSnapshot = null;
            try {
            for (int step = 0; step < 300; step++) {
                int op = random.nextInt(10);
                if (op < 5) {
                    int k = random.nextInt(2000);
                    if (random.nextInt(5) == 0) {
                        db.delete(key(k));
                        model.remove(k);
                    } else {
                        String v = "w" + step;
                        db.put(key(k), bytes(v));
                        model.put(k, v);
                    }
                } else if (op < 8) {
                    int files = 1 + random.nextInt(3);
                    File[] in = new File[files];
                    int from = random.nextInt(2000);
                    TreeMap<Integer, String> all = new TreeMap<>();
                    for (int f = 0; f < files; f++) {
                        TreeMap<Integer, String> entries = new TreeMap<>();
                        int n = 1 + random.nextInt(60);
                        for (int i = 0; i < n; i++) {
                            from += 1 + random.nextInt(5);
                            entries.put(from, random.nextInt(6) == 0 ? null : "i" + step + "." + from);
                        }
                        from += 1;
                        in[f] = table(db, entries);
                        all.putAll(entries);
                    }
                    db.ingest(in);
                    all.forEach((k, v) -> {
                        if (v == null) {
                            model.remove(k);
                        } else {
                            model.put(k, v);
                        }
                    });
                } else if (op == 8) {
                    if (snapshot != null) {
                        check(db, atSnapshot, new ReadOptions().snapshot(snapshot));
                        snapshot.close();
                        snapshot = null;
                    } else {
                        snapshot = db.getSnapshot();
                        atSnapshot = new TreeMap<>(model);
                    }
                } else if (random.nextBoolean()) {
                    db.compactRange(null, null);
                } else {
                    db.flushMemTable();
                }
                if (step % 50 == 0) {
                    check(db, model, new ReadOptions());
                }
            }
            check(db, model, new ReadOptions());
            if (snapshot != null) {
                check(db, atSnapshot, new ReadOptions().snapshot(snapshot));
            }
            } finally {
                if (snapshot != null) {
                    snapshot.close();
                }
            }
        }
        try (ExtendedDB db = factory.open(dir.toFile(), options)) {
            check(db, model, new ReadOptions());
            db.put(key(0), bytes("last"));
            model.put(0, "last");
            db.compactRange(null, null);
            check(db, model, new ReadOptions());
        }
    }

    private static void check(ExtendedDB db, TreeMap<Integer, String> model, ReadOptions ro) throws IOException {
        TreeMap<String, String> expected = new TreeMap<>();
        model.forEach((k, v) -> expected.put(asString(key(k)), v));
        TreeMap<String, String> actual = new TreeMap<>();
        try (DBIterator it = db.iterator(ro)) {
            for (it.seekToFirst(); it.hasNext(); ) {
                Map.Entry<byte[], byte[]> e = it.next();
                actual.put(asString(e.getKey()), asString(e.getValue()));
            }
        }
        assertEquals(expected, actual);
        for (int k = 0; k < 2000; k += 37) {
            assertEquals(model.get(k), db.get(key(k), ro) == null ? null : asString(db.get(key(k), ro)), "key " + k);
        }
    }
}
