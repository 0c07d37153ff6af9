package org.leveldbj.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.NavigableMap;
import java.util.Random;
import java.util.TreeMap;
import org.iq80.leveldb.DBIterator;
import org.iq80.leveldb.DBOpenException;
import org.iq80.leveldb.ExtendedDB;
import org.iq80.leveldb.FilterPolicy;
import org.iq80.leveldb.InvalidArgumentException;
import org.iq80.leveldb.Metric;
import org.iq80.leveldb.Options;
import org.iq80.leveldb.PrefixExtractor;
import org.iq80.leveldb.ReadOptions;
import org.iq80.leveldb.Snapshot;
import org.iq80.leveldb.Statistics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.leveldbj.db.LevelDbFactory;
import org.leveldbj.testing.MemEnv;
import org.leveldbj.testing.ReverseBytewiseComparator;
import org.leveldbj.testing.Seed;
import org.leveldbj.testing.SeedExtension;
import org.leveldbj.util.Bytes;

/**
 * {@code Options.prefixExtractor}: prefix scans and same-prefix bounded scans, forward and
 * backward, against a TreeMap model with and without the extractor, over memtables, several
 * levels and snapshots; and that the prefix filter keeps data blocks of tables without the
 * prefix unread (counted as block cache lookups). A failure reports its seed; rerun it with
 * {@code -Dleveldbj.seed=N}.
 */
@ExtendWith(SeedExtension.class)
class PrefixFilterTest {
    private final MemEnv env = new MemEnv();
    private final File dir = new File("/db");

    private Options options(String extractor) {
        Options o = new Options().env(env).writeBufferSize(6_000).maxFileSize(8_000).blockSize(256);
        switch (extractor) {
            case "none":
                break;
            case "delimiter":
                o.prefixExtractor(PrefixExtractor.upToDelimiter(':'));
                break;
            case "delimiter+bloom":
                o.prefixExtractor(PrefixExtractor.upToDelimiter(':')).filterPolicy(FilterPolicy.bloom(10));
                break;
            case "fixed":
                o.prefixExtractor(PrefixExtractor.fixedLength(4));
                break;
            default:
                throw new IllegalArgumentException(extractor);
        }
        return o;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    /** Keys "pNNN:NNN" of 150 prefixes (only the even ones written), and a few without ':'. */
    private static byte[] key(Random r) {
        if (r.nextInt(20) == 0) {
            return bytes(String.format("p%03d", 2 * r.nextInt(75)));
        }
        return bytes(String.format("p%03d:%03d", 2 * r.nextInt(75), r.nextInt(300)));
    }

    private static byte[] anyPrefix(Random r) {
        return bytes(String.format("p%03d:", r.nextInt(150)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"none", "delimiter", "delimiter+bloom", "fixed"})
    void prefixScansMatchTheModel(String extractor, @Seed long seed) throws IOException {
        Random r = new Random(seed);
        TreeMap<byte[], byte[]> model = new TreeMap<>(Arrays::compareUnsigned);
        try (ExtendedDB db = LevelDbFactory.factory.open(dir, options(extractor))) {
            for (int step = 0; step < 8_000; step++) {
                byte[] k = key(r);
                if (r.nextInt(4) == 0) {
                    db.delete(k);
                    model.remove(k);
                } else {
                    byte[] v = bytes(Bytes.escape(k) + "-" + step);
                    db.put(k, v);
                    model.put(k, v);
                }
                if (step % 400 == 399) {
                    if (step % 1600 == 1599) {
                        db.compactRange(null, null);
                    }
                    checkSome(db, model, new ReadOptions(), r, extractor + " seed " + seed + " step " + step);
                }
            }
            TreeMap<byte[], byte[]> frozen = new TreeMap<>(model);
            try (Snapshot snapshot = db.getSnapshot()) {
                for (int i = 0; i < 1500; i++) {
                    byte[] k = key(r);
                    if (r.nextBoolean()) {
                        db.delete(k);
                    } else {
                        db.put(k, bytes("later"));
                    }
                }
                db.compactRange(null, null);
                checkSome(db, frozen, new ReadOptions().snapshot(snapshot), r, extractor + " seed " + seed + " at a snapshot");
            }
        }
    }

    private static void checkSome(ExtendedDB db, TreeMap<byte[], byte[]> model, ReadOptions base, Random r,
                                  String context) throws IOException {
        for (int c = 0; c < 20; c++) {
            byte[] prefix = anyPrefix(r);
            // A whole prefix, a longer one, a range within one prefix, and one crossing prefixes.
            check(db, model, base, prefix, null, null, r, context);
            check(db, model, base, concat(prefix, bytes(String.valueOf(r.nextInt(3)))), null, null, r, context);
            byte[] lower = concat(prefix, bytes(String.format("%03d", r.nextInt(300))));
            byte[] upper = concat(prefix, bytes(String.format("%03d", r.nextInt(300))));
            check(db, model, base, null, lower, upper, r, context);
            check(db, model, base, null, lower, Bytes.prefixSuccessor(prefix), r, context);
            check(db, model, base, null, lower, concat(anyPrefix(r), bytes("1")), r, context);
        }
    }

    /** A forward scan, a backward scan and seeks, against the model's slice. */
    private static void check(ExtendedDB db, TreeMap<byte[], byte[]> model, ReadOptions base, byte[] prefix,
                              byte[] lower, byte[] upper, Random r, String context) throws IOException {
        if (prefix != null) {
            lower = prefix;
            upper = Bytes.prefixSuccessor(prefix);
        }
        NavigableMap<byte[], byte[]> slice = Arrays.compareUnsigned(lower, upper) >= 0
                ? new TreeMap<>(Arrays::compareUnsigned) : model.subMap(lower, true, upper, false);
        context += " [" + Bytes.escape(lower) + ", " + Bytes.escape(upper) + ")" + (prefix != null ? " prefix" : "");
        ReadOptions ro = new ReadOptions().snapshot(base.snapshot());
        try (DBIterator it = prefix != null ? db.prefixIterator(prefix, ro)
                : db.iterator(ro.iterateLowerBound(lower).iterateUpperBound(upper))) {
            ModelIteration.check(it, slice, () -> key(r), 3, context);
        }
    }

    /** Fills a database with 40 keys of each even prefix p000: to p198: and compacts it. */
    private void fill(Options options) throws IOException {
        try (ExtendedDB db = LevelDbFactory.factory.open(dir, options)) {
            for (int p = 0; p < 200; p += 2) {
                for (int i = 0; i < 40; i++) {
                    db.put(bytes(String.format("p%03d:%03d", p, i)), new byte[20]);
                }
            }
            db.compactRange(null, null);
        }
    }

    /** Data blocks a scan of a prefix looks up in the block cache, and checks what it yields. */
    private static long blocksReadBy(ExtendedDB db, String prefix, int expectedKeys) throws IOException {
        Statistics before = db.statistics();
        long start = before.get(Metric.BLOCK_CACHE_HITS) + before.get(Metric.BLOCK_CACHE_MISSES);
        int n = 0;
        try (DBIterator it = db.prefixIterator(bytes(prefix), new ReadOptions())) {
            for (it.seekToFirst(); it.hasNext(); it.next()) {
                n++;
            }
            for (it.seekToLast(); it.hasNext() && it.hasPrev(); it.prev()) {
                n++;
            }
        }
        assertEquals(expectedKeys == 0 ? 0 : 2 * expectedKeys - 1, n, prefix);
        Statistics after = db.statistics();
        return after.get(Metric.BLOCK_CACHE_HITS) + after.get(Metric.BLOCK_CACHE_MISSES) - start;
    }

    @Test
    void absentPrefixesReadNoDataBlock() throws IOException {
        Options withFilter = options("delimiter").maxFileSize(64 << 10);
        fill(withFilter);
        long withoutTotal = 0;
        try (ExtendedDB db = LevelDbFactory.factory.open(dir, options("none").maxFileSize(64 << 10))) {
            for (int p = 1; p < 200; p += 2) {
                withoutTotal += blocksReadBy(db, String.format("p%03d:", p), 0);
            }
            assertTrue(withoutTotal >= 100, "without the extractor each absent prefix costs a block: " + withoutTotal);
        }
        try (ExtendedDB db = LevelDbFactory.factory.open(dir, withFilter)) {
            long withTotal = 0;
            for (int p = 1; p < 200; p += 2) {
                withTotal += blocksReadBy(db, String.format("p%03d:", p), 0);
            }
            // A false positive of the 10-bit Bloom filter may read a block now and then.
            assertTrue(withTotal <= 5, "with the prefix filter absent prefixes read " + withTotal + " blocks");
            long present = 0;
            for (int p = 0; p < 200; p += 2) {
                present += blocksReadBy(db, String.format("p%03d:", p), 40);
            }
            assertTrue(present >= 100, "present prefixes are read: " + present);
            // A bounded scan within one prefix is a prefix scan too.
            Statistics before = db.statistics();
            try (DBIterator it = db.iterator(new ReadOptions().iterateLowerBound(bytes("p001:000"))
                    .iterateUpperBound(bytes("p001:999")))) {
                it.seekToFirst();
                assertFalse(it.hasNext());
            }
            Statistics after = db.statistics();
            assertEquals(before.get(Metric.BLOCK_CACHE_MISSES) + before.get(Metric.BLOCK_CACHE_HITS),
                    after.get(Metric.BLOCK_CACHE_MISSES) + after.get(Metric.BLOCK_CACHE_HITS), "bounded scan of p001:");
        }
    }

    @Test
    void tablesOfAnotherExtractorAreNeverSkipped() throws IOException {
        fill(options("fixed").maxFileSize(64 << 10));
        // Read with another extractor: the tables' filters are under another name.
        try (ExtendedDB db = LevelDbFactory.factory.open(dir, options("delimiter").maxFileSize(64 << 10))) {
            long total = 0;
            for (int p = 1; p < 200; p += 2) {
                total += blocksReadBy(db, String.format("p%03d:", p), 0);
            }
            assertTrue(total >= 100, "every absent prefix reads its block: " + total);
            assertEquals(40, countPrefix(db, "p010:"));
        }
    }

    private static int countPrefix(ExtendedDB db, String prefix) throws IOException {
        int n = 0;
        try (DBIterator it = db.prefixIterator(bytes(prefix), new ReadOptions())) {
            for (it.seekToFirst(); it.hasNext(); it.next()) {
                n++;
            }
        }
        return n;
    }

    @Test
    void anExtractorNeedsTheBytewiseOrder() {
        DBOpenException e = assertThrows(DBOpenException.class, () -> LevelDbFactory.factory.open(dir,
                options("delimiter").comparator(ReverseBytewiseComparator.INSTANCE)).close());
        assertTrue(e.getCause() instanceof InvalidArgumentException, String.valueOf(e.getCause()));
        assertTrue(e.getMessage().contains("byte-wise"), e.getMessage());
    }
}
