package org.leveldbj.table;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.iq80.leveldb.CorruptionException;
import org.iq80.leveldb.PrefixExtractor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.leveldbj.iterator.SortedIterator;
import org.leveldbj.testing.Seed;
import org.leveldbj.testing.SeedExtension;
import org.leveldbj.util.Bytes;

/**
 * The stats block: the builder records the entries and deletions it was given, a table reads
 * them back once, C++'s metaindex entries beside it still work, a table without the block has
 * no counts, and a damaged block leaves the counts unknown, reported with file and offset, and
 * the table readable.
 */
@ExtendWith(SeedExtension.class)
class StatsBlockTest {
    private static final String NAME = "000007.ldb";
    /** Keys ending in '~' stand for deletions. */
    private static final EntryClassifier TILDE = key -> key.remaining() > 0 && key.get(key.limit() - 1) == '~';

    private static List<byte[][]> model(Random r, int n) {
        List<byte[][]> model = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            boolean deletion = r.nextInt(4) == 0;
            byte[] key = String.format("key%07d:%s", i, deletion ? "~" : "v").getBytes(StandardCharsets.US_ASCII);
            byte[] value = new byte[deletion ? 0 : r.nextInt(60)];
            r.nextBytes(value);
            model.add(new byte[][] {key, value});
        }
        return model;
    }

    private static long deletions(List<byte[][]> model) {
        return model.stream().filter(e -> e[0][e[0].length - 1] == '~').count();
    }

    /** The counts of a model whose keys are all distinct user keys (one version each). */
    private static EntryCounts counts(List<byte[][]> model) {
        long n = model.size();
        long d = deletions(model);
        return new EntryCounts(n, d, 0, new KeyCounts(n, n - d, d, n - d));
    }

    /**
     * Keys {@code user/v~} or {@code user/v:}: the user key before the slash, a version digit
     * (9 minus the version, so that newer versions sort first) and '~' for a deletion.
     */
    private static final EntryClassifier VERSIONED = new EntryClassifier() {
        @Override
        public boolean isDeletion(ByteBuffer key) {
            return TILDE.isDeletion(key);
        }

        @Override
        public int userKeyLength(ByteBuffer key) {
            for (int i = key.position(); i < key.limit(); i++) {
                if (key.get(i) == '/') {
                    return i - key.position();
                }
            }
            return key.remaining();
        }
    };

    @ParameterizedTest(name = "{0} user keys")
    @ValueSource(ints = {0, 1, 10, 1000, 30_000})
    void distinctUserKeysAreCountedOnceWhateverTheirVersions(int n, @Seed long seed) throws IOException {
        Random r = new Random(seed);
        TableOptions options = TableRandomizedTest.randomOptions(r).withEntryClassifier(VERSIONED);
        TestFiles.MemWritableFile out = new TestFiles.MemWritableFile();
        TableBuilder b = new TableBuilder(options, out);
        long entries = 0;
        long deletions = 0;
        long settled = 0;
        long live = 0;
        long tombstones = 0;
        for (int i = 0; i < n; i++) {
            int versions = 1 + r.nextInt(4);
            boolean newestIsValue = false;
            boolean oldestUnsettledDeletion = false;
            for (int v = 0; v < versions; v++) {
                boolean deletion = r.nextInt(3) == 0;
                byte[] key = String.format("user%07d/%d%s", i, v, deletion ? "~" : ":").getBytes(StandardCharsets.US_ASCII);
                b.add(key, new byte[deletion ? 0 : 1 + r.nextInt(20)]);
                entries++;
                if (v == 0) {
                    newestIsValue = !deletion;
                }
                oldestUnsettledDeletion = deletion;
                if (deletion) {
                    deletions++;
                    if (r.nextInt(4) == 0) {
                        b.settleDeletion(); // the writer dropped a value this deletion hid
                        settled++;
                        oldestUnsettledDeletion = false;
                    }
                }
            }
            live += newestIsValue ? 1 : 0;
            tombstones += oldestUnsettledDeletion ? 1 : 0;
        }
        double share = r.nextDouble();
        b.setNovelShare(share);
        b.finish();
        EntryCounts expected = new EntryCounts(entries, deletions, settled,
                new KeyCounts(n, live, tombstones, Math.round(live * share)));
        assertEquals(expected, b.entryCounts());
        assertEquals(expected, open(out.bytes(), options).entryCounts(), "as the stats block records them");
        assertEquals(Math.round(live * share) - tombstones, expected.liveNet());
    }

    /** Contents of exactly {@code size} bytes holding these varints: the last one padded with redundant bytes. */
    private static byte[] fill(int size, long... fields) {
        org.leveldbj.util.ByteSink sink = new org.leveldbj.util.ByteSink(size);
        for (long f : fields) {
            sink.putVarint64(f);
        }
        byte[] b = sink.toByteArray();
        assertTrue(b.length <= size && fields[fields.length - 1] < 128);
        byte[] out = java.util.Arrays.copyOf(b, size);
        int last = b.length - 1;
        if (size > b.length) {
            out[last] |= (byte) 0x80;
            for (int i = last + 1; i < size - 1; i++) {
                out[i] = (byte) 0x80;
            }
            out[size - 1] = 0;
        }
        return out;
    }

    private static Table open(byte[] file, TableOptions options) {
        return Table.open(NAME, TestFiles.BufferFile.of(file, false), file.length, options);
    }

    private static void readsEverything(Table table, List<byte[][]> model) {
        try (SortedIterator it = table.iterator(TableReadOptions.VERIFY)) {
            int i = 0;
            for (it.seekToFirst(); it.valid(); it.next(), i++) {
                assertArrayEquals(model.get(i)[0], Bytes.toArray(it.key()));
                assertArrayEquals(model.get(i)[1], Bytes.toArray(it.value()));
            }
            assertEquals(model.size(), i);
        }
    }

    @ParameterizedTest(name = "{0} entries")
    @ValueSource(ints = {0, 1, 10, 1000, 100_000})
    void theBuilderRecordsWhatItWasGiven(int n, @Seed long seed) throws IOException {
        Random r = new Random(seed);
        List<byte[][]> model = model(r, n);
        TableOptions options = TableRandomizedTest.randomOptions(r).withEntryClassifier(TILDE);
        TestFiles.MemWritableFile out = new TestFiles.MemWritableFile();
        TableBuilder b = new TableBuilder(options, out);
        for (byte[][] e : model) {
            b.add(e[0], e[1]);
        }
        b.finish();
        EntryCounts expected = counts(model);
        assertEquals(expected, b.entryCounts());
        byte[] file = out.bytes();
        Table table = open(file, options);
        assertNull(table.entryCountsError());
        assertEquals(expected, table.entryCounts());
        assertSame(table.entryCounts(), table.entryCounts(), "read once, then kept");
        assertNull(table.entryCountsError());
        readsEverything(table, model);
        // Reading does not need the classifier: a reader with other options finds the same counts.
        assertEquals(expected, open(file, TableOptions.DEFAULTS.withCompressionType(options.compressionType()))
                .entryCounts());
    }

    private static void assertSame(EntryCounts a, EntryCounts b, String message) {
        assertTrue(a == b, message);
    }

    @Test
    void withoutAClassifierThereIsNoBlockAndNoCounts(@Seed long seed) throws IOException {
        Random r = new Random(seed);
        List<byte[][]> model = model(r, 500);
        TableOptions options = TableOptions.DEFAULTS.withBlockSize(512);
        byte[] plain = TableRandomizedTest.build(model, options);
        assertNull(StatsBlocks.find(plain));
        Table table = open(plain, options);
        assertNull(table.entryCounts());
        assertNull(table.entryCountsError(), "a missing block is no damage");
        byte[] counted = TableRandomizedTest.build(model, options.withEntryClassifier(TILDE));
        assertNotNull(StatsBlocks.find(counted));
        // Everything before the stats block is the same bytes: the block only adds.
        BlockHandle h = StatsBlocks.find(counted);
        assertArrayEquals(java.util.Arrays.copyOf(plain, (int) h.offset()), java.util.Arrays.copyOf(counted, (int) h.offset()));
    }

    @Test
    void filtersAndPrefixFiltersStillWorkBesideTheBlock(@Seed long seed) throws IOException {
        Random r = new Random(seed);
        List<byte[][]> model = model(r, 2000);
        PrefixFilterOptions prefix = new PrefixFilterOptions(PrefixExtractor.upToDelimiter(':'), new BloomFilterPolicy(10), 0);
        TableOptions options = TableOptions.DEFAULTS.withBlockSize(256)
                .withFilter(new BloomFilterPolicy(10), FilterKeyExtractor.WHOLE_KEY)
                .withPrefixFilter(prefix).withEntryClassifier(TILDE);
        byte[] file = TableRandomizedTest.build(model, options);
        Table table = open(file, options);
        assertTrue(table.hasFilter());
        assertTrue(table.hasPrefixFilter());
        assertEquals(counts(model), table.entryCounts());
        for (byte[][] e : model) {
            assertTrue(table.get(ByteBuffer.wrap(e[0]), TableReadOptions.DEFAULT, (k, v) -> { }));
        }
        readsEverything(table, model);
    }

    @Test
    void aDamagedBlockLeavesTheCountsUnknownAndTheTableReadable(@Seed long seed) throws IOException {
        Random r = new Random(seed);
        List<byte[][]> model = model(r, 3000);
        TableOptions options = TableOptions.DEFAULTS.withBlockSize(1024).withEntryClassifier(TILDE);
        byte[] good = TableRandomizedTest.build(model, options);
        BlockHandle h = StatsBlocks.find(good);
        assertNotNull(h);
        // Every byte of the block and its trailer, flipped: a checksum mismatch at the block.
        for (int i = 0; i < h.size() + BlockReader.TRAILER_SIZE; i++) {
            byte[] bad = good.clone();
            bad[(int) h.offset() + i] ^= (byte) (1 + r.nextInt(255));
            Table table = open(bad, options);
            assertNull(table.entryCounts(), "byte " + i);
            CorruptionException e = table.entryCountsError();
            assertNotNull(e, "byte " + i);
            assertEquals(NAME, e.file());
            assertEquals(h.offset(), e.offset(), e.getMessage());
            readsEverything(table, model);
        }
    }

    @Test
    void malformedContentsWithAGoodChecksumAreReportedToo() throws IOException {
        List<byte[][]> model = model(new Random(1), 300);
        TableOptions options = TableOptions.DEFAULTS.withEntryClassifier(TILDE);
        byte[] good = TableRandomizedTest.build(model, options);
        BlockHandle h = StatsBlocks.find(good);
        int size = (int) h.size();
        assertEquals(11, size, "300 entries, about 75 deletions, none settled: varints of 2, 1 and 1 bytes; "
                + "300 keys, about 225 live, about 75 tombstones, 225 new: 2, 2, 1 and 2 bytes");

        byte[] truncated = good.clone();
        byte[] contents = new byte[size];
        java.util.Arrays.fill(contents, (byte) 0x80); // every byte continues the varint, past 10 bytes
        StatsBlocks.rewrite(truncated, contents);
        CorruptionException e = countsError(truncated, options);
        assertEquals("bad varint64", e.reason());
        assertEquals(h.offset(), e.offset(), "where the varint starts: the block");

        byte[] tooManyDeletions = good.clone();
        StatsBlocks.rewrite(tooManyDeletions, fill(size, 5, 6, 0));
        e = countsError(tooManyDeletions, options);
        assertTrue(e.reason().startsWith("bad stats block: 5 entries, 6 deletions, 0 settled"), e.getMessage());
        assertEquals(h.offset(), e.offset());
        readsEverything(open(tooManyDeletions, options), model);

        byte[] tooManyKeys = good.clone();
        StatsBlocks.rewrite(tooManyKeys, fill(size, 7, 2, 1, 8, 1, 1, 1));
        e = countsError(tooManyKeys, options);
        assertTrue(e.reason().startsWith("bad stats block: 7 entries, 2 deletions, 1 settled, keys [8, 1, 1, 1]"),
                e.getMessage());

        byte[] partial = good.clone();
        StatsBlocks.rewrite(partial, fill(size, 7, 2, 1, 5));
        assertEquals("truncated varint64", countsError(partial, options).reason(), "keys but not the rest");

        byte[] firstLayout = good.clone();
        StatsBlocks.rewrite(firstLayout, fill(size, 7, 2, 1)); // as written before keys were counted
        assertEquals(new EntryCounts(7, 2, 1), open(firstLayout, options).entryCounts());
        assertEquals(7 - 4 + 1, open(firstLayout, options).entryCounts().liveNet(), "every version counts");

        byte[] longer = good.clone();
        StatsBlocks.rewrite(longer, fill(size, 7, 2, 1, 5, 4, 1, 3, 99)); // a later field this reader does not know
        Table table = open(longer, options);
        assertEquals(new EntryCounts(7, 2, 1, new KeyCounts(5, 4, 1, 3)), table.entryCounts());
        assertEquals(2, table.entryCounts().liveNet());
    }

    private static CorruptionException countsError(byte[] file, TableOptions options) {
        Table table = open(file, options);
        assertNull(table.entryCounts());
        CorruptionException e = table.entryCountsError();
        assertNotNull(e);
        assertEquals(NAME, e.file());
        return e;
    }

    @Test
    void decodingIsBounded() {
        assertEquals(new EntryCounts(300, 75), StatsBlock.decode(StatsBlock.encode(new EntryCounts(300, 75)), NAME, 10));
        EntryCounts withKeys = new EntryCounts(300, 75, 5, new KeyCounts(200, 150, 40, 120));
        assertEquals(withKeys, StatsBlock.decode(StatsBlock.encode(withKeys), NAME, 10));
        assertEquals(new EntryCounts(Long.MAX_VALUE, 0),
                StatsBlock.decode(StatsBlock.encode(new EntryCounts(Long.MAX_VALUE, 0)), NAME, 10));
        CorruptionException e = assertThrows(CorruptionException.class,
                () -> StatsBlock.decode(ByteBuffer.allocate(0), NAME, 100));
        assertEquals(NAME, e.file());
        assertEquals(100, e.offset());
        byte[] negative = {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff,
            (byte) 0xff, (byte) 0xff, 0x01, 0, 0};
        e = assertThrows(CorruptionException.class, () -> StatsBlock.decode(ByteBuffer.wrap(negative), NAME, 100));
        assertTrue(e.reason().startsWith("bad stats block"), e.getMessage());
    }

    @Test
    void aSampledBlockEstimatesTheTable(@Seed long seed) throws IOException {
        Random r = new Random(seed);
        List<byte[][]> model = model(r, 20_000);
        // Written without the block, as another implementation would; read with the classifier.
        TableOptions options = TableOptions.DEFAULTS.withBlockSize(4096);
        byte[] file = TableRandomizedTest.build(model, options);
        Table table = open(file, options.withEntryClassifier(TILDE));
        assertNull(table.entryCounts());
        EntrySample sample = table.sampleEntries();
        assertNotNull(sample);
        assertTrue(sample.counts().entries() > 10, sample.toString());
        double estimate = (double) file.length * sample.counts().entries() / sample.bytes();
        assertTrue(estimate > 20_000 * 0.8 && estimate < 20_000 * 1.25, "estimate " + estimate + " from " + sample);
        double deletionShare = (double) sample.counts().deletions() / sample.counts().entries();
        assertTrue(deletionShare > 0.05 && deletionShare < 0.5, "deletions told apart: " + sample);
        assertNull(open(TableRandomizedTest.build(List.of(), options), options).sampleEntries(), "no data block");
    }
}
