package org.leveldbj.table;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.leveldbj.iterator.SortedIterator;
import org.leveldbj.testing.Seed;
import org.leveldbj.testing.SeedExtension;
import org.leveldbj.util.Bytes;

/** Whole tables of random entries, built and read back with random settings, against a sorted model. */
@ExtendWith(SeedExtension.class)
class TableRandomizedTest {
    static byte[] build(List<byte[][]> model, TableOptions options) throws IOException {
        TestFiles.MemWritableFile out = new TestFiles.MemWritableFile();
        TableBuilder b = new TableBuilder(options, out);
        for (byte[][] e : model) {
            b.add(e[0], e[1]);
        }
        b.finish();
        byte[] bytes = out.bytes();
        assertEquals(model.size(), b.numEntries());
        assertEquals(bytes.length, b.fileSize());
        return bytes;
    }

    static TableOptions randomOptions(Random r) {
        TableOptions o = TableOptions.DEFAULTS
                .withBlockSize(16 << r.nextInt(13))
                .withBlockRestartInterval(1 + r.nextInt(32))
                .withCompressionType(r.nextInt(3)); // none, snappy or zstd
        if (r.nextBoolean()) {
            FilterKeyExtractor ex = r.nextBoolean() ? FilterKeyExtractor.WHOLE_KEY : FilterKeyExtractor.dropSuffix(r.nextInt(3));
            o = o.withFilter(new BloomFilterPolicy(1 + r.nextInt(20)), ex);
        }
        return o;
    }

    @Test
    void randomTablesMatchTheModel(@Seed long seed) throws IOException {
        Random r = new Random(seed);
        for (int round = 0; round < 60; round++) {
            int n = round < 3 ? round : r.nextInt(r.nextBoolean() ? 100 : 2000);
            List<byte[][]> model = RandomData.entries(r, n);
            TableOptions options = randomOptions(r);
            byte[] file = build(model, options);
            boolean direct = r.nextBoolean();
            MapBlockCache cache = r.nextBoolean() ? new MapBlockCache() : null;
            TableOptions readOptions = options.withVerifyChecksums(r.nextBoolean());
            if (cache != null) {
                readOptions = readOptions.withBlockCache(cache);
            }
            Table table = Table.open("t" + round + ".ldb", TestFiles.BufferFile.of(file, direct), file.length, readOptions);
            assertEquals(options.filterPolicy() != null, table.hasFilter());
            String context = "seed " + seed + " round " + round + " (" + model.size() + " entries, " + options
                    + ", " + (direct ? "direct" : "heap") + ")";
            TableReadOptions ro = new TableReadOptions(r.nextBoolean(), r.nextBoolean());
            try (SortedIterator it = table.iterator(ro)) {
                ModelChecker.check(it, model, r, context);
            }
            checkGets(table, model, r, context);
            checkApproximateOffsets(table, model, file.length, context);
            if (cache != null && ro.fillCache() && !direct && !model.isEmpty()) {
                assertTrue(cache.size() > 0, context + ": heap blocks should be cached");
            }
        }
    }

    private static void checkGets(Table table, List<byte[][]> model, Random r, String context) {
        int samples = Math.min(model.size(), 300);
        for (int s = 0; s < samples; s++) {
            byte[][] e = model.get(r.nextInt(model.size()));
            byte[][] found = new byte[2][];
            boolean called = table.get(ByteBuffer.wrap(e[0]), TableReadOptions.DEFAULT,
                    (k, v) -> {
                        found[0] = Bytes.toArray(k);
                        found[1] = Bytes.toArray(v);
                    });
            assertTrue(called, context + ": get of an existing key");
            assertArrayEquals(e[0], found[0], context);
            assertArrayEquals(e[1], found[1], context);
        }
        for (int s = 0; s < 100; s++) {
            byte[] target = RandomData.target(r, model);
            int i = ModelChecker.lowerBound(model, target);
            byte[][] found = new byte[1][];
            boolean called = table.get(ModelChecker.direct(target), TableReadOptions.DEFAULT, (k, v) -> found[0] = Bytes.toArray(k));
            if (i < model.size() && Arrays.equals(model.get(i)[0], target)) {
                assertTrue(called, context);
                assertArrayEquals(target, found[0], context);
            } else if (called) {
                assertTrue(Arrays.compareUnsigned(found[0], target) > 0, context + ": get returned an earlier key");
            }
        }
    }

    private static void checkApproximateOffsets(Table table, List<byte[][]> model, long fileSize, String context) {
        long previous = table.approximateOffsetOf(ByteBuffer.wrap(new byte[0]));
        if (!model.isEmpty()) {
            assertEquals(0, previous, context + ": the smallest key starts at offset 0");
        }
        for (byte[][] e : model) {
            long offset = table.approximateOffsetOf(ByteBuffer.wrap(e[0]));
            assertTrue(offset >= previous, context + ": offsets must not decrease");
            assertTrue(offset <= fileSize, context);
            previous = offset;
        }
        byte[] past = {1};
        if (!model.isEmpty()) {
            byte[] last = model.get(model.size() - 1)[0];
            past = Arrays.copyOf(last, last.length + 1);
        }
        long end = table.approximateOffsetOf(ByteBuffer.wrap(past));
        assertTrue(end >= previous && end < fileSize, context);
    }

    @Test
    void filterAvoidsBlockReadsForMissingKeys() throws IOException {
        List<byte[][]> model = new java.util.ArrayList<>();
        for (int i = 0; i < 5000; i++) {
            model.add(new byte[][] {String.format("k%08d", i * 2).getBytes(java.nio.charset.StandardCharsets.UTF_8), new byte[20]});
        }
        TableOptions options = TableOptions.DEFAULTS.withFilter(new BloomFilterPolicy(10), FilterKeyExtractor.WHOLE_KEY);
        byte[] file = build(model, options);
        Table table = Table.open("f.ldb", TestFiles.BufferFile.heap(file), file.length, options);
        long readsBefore = table.blockReads();
        int calls = 0;
        for (int i = 0; i < 5000; i++) {
            byte[] missing = String.format("k%08d", i * 2 + 1).getBytes(java.nio.charset.StandardCharsets.UTF_8);
            if (table.get(ByteBuffer.wrap(missing), TableReadOptions.DEFAULT, (k, v) -> { })) {
                calls++;
            }
        }
        long skips = table.filterSkips();
        assertTrue(skips >= 4800, "filter skipped only " + skips + " of 5000 block reads");
        assertEquals(5000 - skips, table.blockReads() - readsBefore);
        assertTrue(calls <= 5000 - skips);
        // Without a filter every lookup reads a block.
        Table plain = Table.open("f.ldb", TestFiles.BufferFile.heap(file), file.length, TableOptions.DEFAULTS);
        assertFalse(plain.hasFilter());
        plain.get(ByteBuffer.wrap(model.get(0)[0]), TableReadOptions.DEFAULT, (k, v) -> { });
        assertEquals(0, plain.filterSkips());
        assertEquals(1, plain.blockReads());
    }
    /**
     * Lookups reuse per-thread iterators; a handler that looks up again (in the same or another
     * table) must get iterators of its own, leaving the outer entry intact.
     */
    @Test
    void aHandlerMayLookUpAgain() throws IOException {
        List<byte[][]> model = new java.util.ArrayList<>();
        for (int i = 0; i < 3000; i++) {
            model.add(new byte[][] {String.format("k%08d", i).getBytes(java.nio.charset.StandardCharsets.UTF_8),
                String.format("v%08d", i).getBytes(java.nio.charset.StandardCharsets.UTF_8)});
        }
        byte[] file = build(model, TableOptions.DEFAULTS);
        Table table = Table.open("f.ldb", TestFiles.BufferFile.heap(file), file.length, TableOptions.DEFAULTS);
        byte[][] seen = new byte[4][];
        boolean found = table.get(ByteBuffer.wrap(model.get(10)[0]), TableReadOptions.DEFAULT, (k, v) -> {
            table.get(ByteBuffer.wrap(model.get(2900)[0]), TableReadOptions.DEFAULT, (k2, v2) -> {
                seen[2] = org.leveldbj.util.Bytes.toArray(k2);
                seen[3] = org.leveldbj.util.Bytes.toArray(v2);
            });
            // The outer views still show the outer entry after the nested lookup.
            seen[0] = org.leveldbj.util.Bytes.toArray(k);
            seen[1] = org.leveldbj.util.Bytes.toArray(v);
        });
        assertTrue(found);
        assertArrayEquals(model.get(10)[0], seen[0]);
        assertArrayEquals(model.get(10)[1], seen[1]);
        assertArrayEquals(model.get(2900)[0], seen[2]);
        assertArrayEquals(model.get(2900)[1], seen[3]);
        // And the thread's own iterators work again afterwards.
        byte[][] after = new byte[1][];
        table.get(ByteBuffer.wrap(model.get(1500)[0]), TableReadOptions.DEFAULT, (k, v) -> after[0] = org.leveldbj.util.Bytes.toArray(v));
        assertArrayEquals(model.get(1500)[1], after[0]);
    }
}
