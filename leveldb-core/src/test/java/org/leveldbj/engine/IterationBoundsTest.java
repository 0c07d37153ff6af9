package org.leveldbj.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.NavigableMap;
import java.util.Random;
import java.util.TreeMap;
import org.iq80.leveldb.DBIterator;
import org.iq80.leveldb.ExtendedDB;
import org.iq80.leveldb.InvalidArgumentException;
import org.iq80.leveldb.Options;
import org.iq80.leveldb.ReadOptions;
import org.iq80.leveldb.Snapshot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.leveldbj.db.LevelDbFactory;
import org.leveldbj.testing.MemEnv;
import org.leveldbj.testing.ReverseBytewiseComparator;
import org.leveldbj.testing.Seed;
import org.leveldbj.testing.SeedExtension;
import org.leveldbj.util.Bytes;

/**
 * {@code ReadOptions.iterateLowerBound}/{@code iterateUpperBound} and
 * {@code ExtendedDB.prefixIterator} against a TreeMap model: forward and backward scans, seeks
 * inside and outside the bounds, over data in memtables and several levels, at snapshots. A
 * failure reports its seed; rerun it with {@code -Dleveldbj.seed=N}.
 */
@ExtendWith(SeedExtension.class)
class IterationBoundsTest {
    private final MemEnv env = new MemEnv();
    private final File dir = new File("/db");

    private Options options() {
        return new Options().env(env).writeBufferSize(6_000).maxFileSize(8_000).blockSize(256);
    }

    private static byte[] key(Random r) {
        return String.format("%c%04d", (char) ('a' + r.nextInt(6)), r.nextInt(600)).getBytes(StandardCharsets.US_ASCII);
    }

    @Test
    void boundedScansMatchTheModel(@Seed long seed) throws IOException {
        Random r = new Random(seed);
        TreeMap<byte[], byte[]> model = new TreeMap<>(Arrays::compareUnsigned);
        try (ExtendedDB db = LevelDbFactory.factory.open(dir, options())) {
            for (int step = 0; step < 8_000; step++) {
                byte[] k = key(r);
                if (r.nextInt(4) == 0) {
                    db.delete(k);
                    model.remove(k);
                } else {
                    byte[] v = Bytes.escape(k).concat("-" + step).getBytes(StandardCharsets.US_ASCII);
                    db.put(k, v);
                    model.put(k, v);
                }
                if (step % 400 == 399) {
                    for (int c = 0; c < 10; c++) {
                        byte[] lower = r.nextInt(4) == 0 ? null : key(r);
                        byte[] upper = r.nextInt(4) == 0 ? null : key(r);
                        check(db, model, new ReadOptions().iterateLowerBound(lower).iterateUpperBound(upper), lower,
                                upper, r, "seed " + seed + " step " + step);
                        byte[] prefix = Arrays.copyOf(key(r), r.nextInt(4));
                        byte[] end = Bytes.prefixSuccessor(prefix);
                        check(db, model, null, prefix, end, r, "seed " + seed + " step " + step + " prefix "
                                + Bytes.escape(prefix), prefix);
                    }
                }
            }
            // At a snapshot, after more writes.
            TreeMap<byte[], byte[]> frozen = new TreeMap<>(model);
            try (Snapshot snapshot = db.getSnapshot()) {
                for (int i = 0; i < 500; i++) {
                    db.delete(key(r));
                }
                db.compactRange(null, null);
                byte[] lower = key(r);
                byte[] upper = key(r);
                check(db, frozen, new ReadOptions().snapshot(snapshot).iterateLowerBound(lower).iterateUpperBound(upper),
                        lower, upper, r, "seed " + seed + " at a snapshot");
            }
        }
    }

    private static void check(ExtendedDB db, TreeMap<byte[], byte[]> model, ReadOptions ro, byte[] lower, byte[] upper,
                              Random r, String context) throws IOException {
        check(db, model, ro, lower, upper, r, context, null);
    }

    /** A forward scan, a backward scan and random seeks, against the model's slice. */
    private static void check(ExtendedDB db, TreeMap<byte[], byte[]> model, ReadOptions ro, byte[] lower, byte[] upper,
                              Random r, String context, byte[] prefix) throws IOException {
        NavigableMap<byte[], byte[]> slice = model;
        if (lower != null && upper != null && Arrays.compareUnsigned(lower, upper) >= 0) {
            slice = new TreeMap<>(Arrays::compareUnsigned);
        } else {
            if (lower != null) {
                slice = slice.tailMap(lower, true);
            }
            if (upper != null) {
                slice = slice.headMap(upper, false);
            }
        }
        context += " [" + (lower == null ? "-" : Bytes.escape(lower)) + ", " + (upper == null ? "-" : Bytes.escape(upper)) + ")";
        try (DBIterator it = prefix != null ? db.prefixIterator(prefix, new ReadOptions()) : db.iterator(ro)) {
            ModelIteration.check(it, slice, () -> key(r), 5, context);
        }
    }

    @Test
    void tablesOutsideTheBoundsAreNotRead() throws IOException {
        try (ExtendedDB db = LevelDbFactory.factory.open(dir, options().writeBufferSize(1 << 20))) {
            // Two tables spanning a..z (levels 2 and 1), then three disjoint ones on level 0.
            for (String[] flush : new String[][] {{"a000", "z999"}, {"a001", "z998"}, {"c000", "c100"},
                    {"m000", "m100"}, {"x000", "x100"}}) {
                for (String k : flush) {
                    db.put(k.getBytes(StandardCharsets.US_ASCII), new byte[10]);
                }
                db.flushMemTable();
            }
            assertEquals("3", db.getProperty("leveldb.num-files-at-level0"), db.getProperty("leveldb.sstables"));
            ReadOptions bounded = new ReadOptions().iterateLowerBound("m000".getBytes(StandardCharsets.US_ASCII))
                    .iterateUpperBound("m050".getBytes(StandardCharsets.US_ASCII));
            assertEquals(3, tablesReadBy(db, bounded, List.of("m000")), "the m table and the two spanning ones");
            // Without bounds the seek reads the x table too (the c table ends before "m", so its
            // level iterator does not open it).
            assertEquals(4, tablesReadBy(db, new ReadOptions(), List.of("m000")), "without bounds");
        }
    }

    /** How many table lookups a scan from seekToFirst makes, and checks the keys it yields. */
    private static long tablesReadBy(ExtendedDB db, ReadOptions ro, List<String> expected) throws IOException {
        long before = tableLookups(db);
        List<String> keys = new ArrayList<>();
        try (DBIterator it = db.iterator(ro)) {
            it.seek("m".getBytes(StandardCharsets.US_ASCII));
            if (it.hasNext()) {
                keys.add(new String(it.next().getKey(), StandardCharsets.US_ASCII));
            }
        }
        assertEquals(expected, keys);
        return tableLookups(db) - before;
    }

    private static long tableLookups(ExtendedDB db) {
        org.iq80.leveldb.Statistics s = db.statistics();
        return s.get(org.iq80.leveldb.Metric.TABLE_CACHE_HITS) + s.get(org.iq80.leveldb.Metric.TABLE_CACHE_MISSES);
    }

    @Test
    void aPrefixIteratorNeedsTheBytewiseOrder() throws IOException {
        try (ExtendedDB db = LevelDbFactory.factory.open(dir, options().comparator(ReverseBytewiseComparator.INSTANCE))) {
            assertTrue(assertThrows(InvalidArgumentException.class, () -> db.prefixIterator(new byte[] {'a'}, new ReadOptions()))
                    .getMessage().contains("byte-wise"));
        }
        assertNull(Bytes.prefixSuccessor(new byte[] {(byte) 0xff, (byte) 0xff}));
        assertArrayEquals(new byte[] {'a', 'c'}, Bytes.prefixSuccessor(new byte[] {'a', 'b', (byte) 0xff}));
    }
}
