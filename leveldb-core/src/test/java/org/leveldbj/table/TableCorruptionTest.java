package org.leveldbj.table;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.iq80.leveldb.CorruptionException;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.leveldbj.comparator.BytewiseComparator;
import org.leveldbj.iterator.SortedIterator;
import org.leveldbj.testing.Seed;
import org.leveldbj.testing.SeedExtension;
import org.leveldbj.util.Bytes;

/**
 * Damages a table file byte by byte (flips and truncations) and reads every damaged copy
 * completely: the only acceptable outcomes are the correct data or a {@link CorruptionException}
 * naming the file and an offset. With checksums verified, damage inside a data block must be
 * detected.
 */
@ExtendWith(SeedExtension.class)
class TableCorruptionTest {
    private static final String NAME = "000042.ldb";

    private static List<byte[][]> model(Random r) {
        List<byte[][]> model = new ArrayList<>();
        for (int i = 0; i < 150; i++) {
            byte[] key = String.format("key%06d", i * 3).getBytes(StandardCharsets.UTF_8);
            byte[] value = new byte[r.nextInt(3) == 0 ? 0 : r.nextInt(40)];
            if (r.nextBoolean()) {
                r.nextBytes(value);
            } else {
                // Compressible, so that compressed tables hold compressed blocks.
                Arrays.fill(value, (byte) ('a' + r.nextInt(3)));
            }
            model.add(new byte[][] {key, value});
        }
        return model;
    }

    /** The end of the data blocks (and their trailers): where the filter or metaindex block starts. */
    private static long dataEnd(byte[] file) {
        Footer footer = Footer.decode(ByteBuffer.wrap(file), file.length - Footer.ENCODED_LENGTH, Footer.ENCODED_LENGTH);
        long end = footer.metaindex().offset();
        Block meta = new Block(ByteBuffer.wrap(file, (int) footer.metaindex().offset(), (int) footer.metaindex().size()));
        BlockIterator it = meta.iterator(BytewiseComparator.INSTANCE);
        for (it.seekToFirst(); it.valid(); it.next()) {
            end = Math.min(end, BlockHandle.decode(it.value()).offset());
        }
        return end;
    }

    @ParameterizedTest(name = "compression type {0}")
    @ValueSource(ints = {BlockCompression.NONE, BlockCompression.SNAPPY, BlockCompression.ZSTD})
    void flipsAndTruncationsAreDetectedOrHarmless(int compression, @Seed long seed) throws IOException {
        Random r = new Random(seed);
        List<byte[][]> model = model(r);
        TableOptions options = TableOptions.DEFAULTS
                .withBlockSize(256)
                .withBlockRestartInterval(4)
                .withCompressionType(compression)
                .withFilter(new BloomFilterPolicy(10), FilterKeyExtractor.WHOLE_KEY);
        byte[] good = TableRandomizedTest.build(model, options);
        long dataEnd = dataEnd(good);
        assertTrue(dataEnd > 1000, "several data blocks expected");
        int[] counts = new int[3]; // intact, detected, detected in data
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            for (int round = 0; round < 2000; round++) {
                byte[] bad;
                int where;
                String what;
                if (round % 8 == 7) {
                    where = r.nextInt(good.length);
                    bad = Arrays.copyOf(good, where);
                    what = "truncated to " + where;
                } else {
                    bad = good.clone();
                    where = r.nextInt(good.length);
                    bad[where] ^= (byte) (1 + r.nextInt(255));
                    what = "byte " + where + " changed";
                }
                boolean direct = r.nextBoolean();
                String context = "seed " + seed + " round " + round + ": " + what;
                CorruptionException e = readEverything(bad, options.withVerifyChecksums(true), model, true, direct, context);
                if (e == null) {
                    counts[0]++;
                    if (where < dataEnd) {
                        fail(context + ": damage inside the data blocks went unnoticed");
                    }
                } else {
                    counts[1]++;
                    assertEquals(NAME, e.file(), context + ": " + e.getMessage());
                    assertTrue(e.offset() >= 0, context + ": " + e.getMessage());
                    if (where < dataEnd && !what.startsWith("truncated")) {
                        counts[2]++;
                    }
                }
            }
        });
        System.out.println("TableCorruptionTest: intact " + counts[0] + ", detected " + counts[1]
                + " (" + counts[2] + " in data blocks)");
        assertTrue(counts[2] > 500);
    }

    /**
     * Without checksums, damaged data blocks may yield wrong data, but reading must still end
     * with data or a corruption report, never another exception or a hang.
     */
    @ParameterizedTest(name = "compression type {0}")
    @ValueSource(ints = {BlockCompression.NONE, BlockCompression.SNAPPY, BlockCompression.ZSTD})
    void flipsWithoutChecksumsNeverEscapeAsOtherExceptions(int compression, @Seed long seed) throws IOException {
        Random r = new Random(seed);
        List<byte[][]> model = model(r);
        TableOptions options = TableOptions.DEFAULTS.withBlockSize(200).withBlockRestartInterval(1 + r.nextInt(8))
                .withCompressionType(compression);
        byte[] good = TableRandomizedTest.build(model, options);
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            for (int round = 0; round < 1500; round++) {
                byte[] bad = good.clone();
                int flips = 1 + r.nextInt(3);
                StringBuilder what = new StringBuilder();
                for (int f = 0; f < flips; f++) {
                    int where = r.nextInt(good.length);
                    bad[where] ^= (byte) (1 + r.nextInt(255));
                    what.append(where).append(' ');
                }
                String context = "seed " + seed + " round " + round + ": bytes " + what + "changed";
                CorruptionException e = readEverything(bad, options, model, false, r.nextBoolean(), context);
                if (e != null) {
                    assertEquals(NAME, e.file(), context + ": " + e.getMessage());
                    assertTrue(e.offset() >= 0, context + ": " + e.getMessage());
                }
            }
        });
    }

    /**
     * Opens a damaged copy and reads it all; returns the corruption reported, or {@code null}
     * when everything read matched the model (checked only when {@code compare}).
     */
    private static CorruptionException readEverything(byte[] bad, TableOptions options, List<byte[][]> model,
                                                      boolean compare, boolean direct, String context) {
        try {
            Table table = Table.open(NAME, TestFiles.BufferFile.of(bad, direct), bad.length, options);
            TableReadOptions ro = new TableReadOptions(options.verifyChecksums(), false);
            try (SortedIterator it = table.iterator(ro)) {
                int i = 0;
                int steps = 0;
                for (it.seekToFirst(); it.valid(); it.next(), i++) {
                    assertTrue(++steps < 10_000, context + ": forward scan does not end");
                    if (compare) {
                        assertTrue(i < model.size(), context + ": extra entries");
                        assertArrayEquals(model.get(i)[0], Bytes.toArray(it.key()), context);
                        assertArrayEquals(model.get(i)[1], Bytes.toArray(it.value()), context);
                    }
                }
                if (compare) {
                    assertEquals(model.size(), i, context + ": entries missing");
                }
                i = model.size() - 1;
                steps = 0;
                for (it.seekToLast(); it.valid(); it.prev(), i--) {
                    assertTrue(++steps < 10_000, context + ": backward scan does not end");
                    if (compare) {
                        assertArrayEquals(model.get(i)[0], Bytes.toArray(it.key()), context);
                    }
                }
                for (byte[][] e : model) {
                    it.seek(ByteBuffer.wrap(e[0]));
                    if (compare) {
                        assertTrue(it.valid(), context);
                        assertArrayEquals(e[0], Bytes.toArray(it.key()), context);
                    }
                }
            }
            for (byte[][] e : model) {
                byte[][] found = new byte[1][];
                boolean called = table.get(ByteBuffer.wrap(e[0]), ro, (k, v) -> found[0] = Bytes.toArray(v));
                if (compare) {
                    assertTrue(called, context + ": get lost a key");
                    assertArrayEquals(e[1], found[0], context);
                }
                table.approximateOffsetOf(ByteBuffer.wrap(e[0]));
            }
            return null;
        } catch (CorruptionException e) {
            assertNotNull(e.file(), () -> context + ": report without a file: " + e.getMessage());
            return e;
        }
    }
}
