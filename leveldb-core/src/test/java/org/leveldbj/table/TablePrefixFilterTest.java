package org.leveldbj.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.iq80.leveldb.PrefixExtractor;
import org.junit.jupiter.api.Test;
import org.leveldbj.comparator.BytewiseComparator;
import org.leveldbj.iterator.SortedIterator;
import org.leveldbj.util.Bytes;

/**
 * A table's prefix filter block: written under its own metaindex name beside the whole-key
 * filter, read back, used by iterators of a {@link PrefixScan} to leave out data blocks (none
 * read for an absent prefix), ignored when damaged or written by another extractor.
 */
class TablePrefixFilterTest {
    private static final String NAME = "000007.ldb";
    private static final PrefixFilterOptions PREFIXES =
            new PrefixFilterOptions(PrefixExtractor.upToDelimiter(':'), new BloomFilterPolicy(10), 0);

    private static TableOptions options(PrefixFilterOptions prefixFilter) {
        return TableOptions.DEFAULTS.withBlockSize(2048).withBlockRestartInterval(4).withCompressionType(BlockCompression.NONE)
                .withFilter(new BloomFilterPolicy(10), FilterKeyExtractor.WHOLE_KEY).withPrefixFilter(prefixFilter);
    }

    /**
     * Keys "pNN:MMM" of the even prefixes p00: to p38:, 12 each with values of about 120 bytes,
     * and "pNN" without ':'. Blocks of 2 KiB, so that each data block has a filter of its own
     * (one filter per 2 KiB of block offsets).
     */
    private static List<byte[][]> model() {
        List<byte[][]> model = new ArrayList<>();
        for (int p = 0; p < 40; p += 2) {
            model.add(new byte[][] {bytes(String.format("p%02d", p)), bytes("plain")});
            for (int i = 0; i < 12; i++) {
                model.add(new byte[][] {bytes(String.format("p%02d:%03d", p, i)), bytes(("v" + p + "." + i + " ").repeat(20))});
            }
        }
        return model;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    /** The keys a prefix scan's iterator yields within its range. */
    private static List<String> scan(Table table, String prefix) {
        byte[] lower = bytes(prefix);
        byte[] upper = Bytes.prefixSuccessor(lower);
        PrefixScan scan = new PrefixScan(PREFIXES.extractor().name(), lower, lower, upper);
        List<String> out = new ArrayList<>();
        try (SortedIterator it = table.iterator(TableReadOptions.VERIFY.withPrefixScan(scan))) {
            for (it.seek(ByteBuffer.wrap(lower)); it.valid() && it.key().compareTo(ByteBuffer.wrap(upper)) < 0; it.next()) {
                out.add(StandardCharsets.US_ASCII.decode(it.key()).toString());
            }
            List<String> backward = new ArrayList<>();
            it.seek(ByteBuffer.wrap(upper));
            if (it.valid()) {
                it.prev();
            } else {
                it.seekToLast();
            }
            for (; it.valid() && it.key().compareTo(ByteBuffer.wrap(lower)) >= 0; it.prev()) {
                backward.add(0, StandardCharsets.US_ASCII.decode(it.key()).toString());
            }
            assertEquals(out, backward, prefix + " backward");
        }
        return out;
    }

    private static List<String> expected(String prefix) {
        List<String> out = new ArrayList<>();
        for (byte[][] e : model()) {
            String k = new String(e[0], StandardCharsets.US_ASCII);
            if (k.startsWith(prefix)) {
                out.add(k);
            }
        }
        return out;
    }

    @Test
    void absentPrefixesReadNoDataBlockAndPresentOnesReadTheirs() throws IOException {
        byte[] file = TableRandomizedTest.build(model(), options(PREFIXES));
        Table table = Table.open(NAME, TestFiles.BufferFile.of(file, false), file.length, options(PREFIXES));
        assertTrue(table.hasPrefixFilter());
        assertTrue(table.hasFilter(), "the whole-key filter is kept");
        for (int p = 1; p < 40; p += 2) {
            long before = table.blockReads();
            assertEquals(List.of(), scan(table, String.format("p%02d:", p)));
            assertEquals(before, table.blockReads(), "p" + p + ": no data block read");
        }
        assertEquals(20, table.prefixTableSkips());
        for (int p = 0; p < 40; p += 2) {
            String prefix = String.format("p%02d:", p);
            assertEquals(expected(prefix), scan(table, prefix));
        }
        assertEquals(20, table.prefixTableSkips(), "present prefixes are not skipped");
    }

    @Test
    void aTableOfAnotherExtractorOrWithoutPrefixFilterIsReadInFull() throws IOException {
        PrefixFilterOptions fixed = new PrefixFilterOptions(PrefixExtractor.fixedLength(4), new BloomFilterPolicy(10), 0);
        for (TableOptions written : List.of(options(fixed), options(null))) {
            byte[] file = TableRandomizedTest.build(model(), written);
            Table table = Table.open(NAME, TestFiles.BufferFile.of(file, false), file.length, options(PREFIXES));
            assertFalse(table.hasPrefixFilter());
            assertNull(table.prefixFilterError());
            long before = table.blockReads();
            assertEquals(List.of(), scan(table, "p01:"));
            assertTrue(table.blockReads() > before, "the scan reads its block");
            assertEquals(expected("p02:"), scan(table, "p02:"));
            assertEquals(0, table.prefixTableSkips());
        }
    }

    @Test
    void aDamagedPrefixFilterIsIgnoredAndReported() throws IOException {
        byte[] good = TableRandomizedTest.build(model(), options(PREFIXES));
        Footer footer = Footer.decode(ByteBuffer.wrap(good), good.length - Footer.ENCODED_LENGTH, Footer.ENCODED_LENGTH);
        Block meta = new Block(ByteBuffer.wrap(good, (int) footer.metaindex().offset(), (int) footer.metaindex().size()));
        BlockIterator it = meta.iterator(BytewiseComparator.INSTANCE);
        it.seek(ByteBuffer.wrap(bytes(PREFIXES.metaindexName())));
        assertTrue(it.valid() && it.key().equals(ByteBuffer.wrap(bytes(PREFIXES.metaindexName()))), "the entry is there");
        BlockHandle handle = BlockHandle.decode(it.value());
        for (long at = handle.offset(); at < handle.offset() + handle.size(); at += Math.max(1, handle.size() / 7)) {
            byte[] bad = good.clone();
            bad[(int) at] ^= 0x40;
            Table table = Table.open(NAME, TestFiles.BufferFile.of(bad, false), bad.length, options(PREFIXES));
            assertFalse(table.hasPrefixFilter(), "offset " + at);
            assertTrue(table.hasFilter(), "the whole-key filter is still read");
            assertNotNull(table.prefixFilterError());
            assertTrue(table.prefixFilterError().getMessage().contains(NAME), table.prefixFilterError().getMessage());
            for (int p = 0; p < 6; p++) {
                String prefix = String.format("p%02d:", p);
                assertEquals(expected(prefix), scan(table, prefix), "offset " + at);
            }
        }
    }
}
