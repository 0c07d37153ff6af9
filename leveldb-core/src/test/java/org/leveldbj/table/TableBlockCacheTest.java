package org.leveldbj.table;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.leveldbj.comparator.BytewiseComparator;
import org.leveldbj.util.Bytes;

/**
 * What a table asks of its block cache, per block: a mapped file's uncompressed blocks are read
 * in place and never looked up nor offered; its compressed blocks, and every block of a file
 * read with copies, are looked up, offered, and found again once kept.
 */
class TableBlockCacheTest {
    /** A cache that keeps every block offered and counts the calls per block offset. */
    private static final class RecordingCache implements BlockCache {
        private final Map<Long, Block> blocks = new ConcurrentHashMap<>();
        final Map<Long, AtomicInteger> lookups = new ConcurrentHashMap<>();
        final Map<Long, AtomicInteger> admits = new ConcurrentHashMap<>();
        final AtomicInteger hits = new AtomicInteger();

        @Override
        public long newId() {
            return 1;
        }

        @Override
        public Block lookup(long cacheId, long blockOffset) {
            lookups.computeIfAbsent(blockOffset, k -> new AtomicInteger()).incrementAndGet();
            Block b = blocks.get(blockOffset);
            if (b != null) {
                hits.incrementAndGet();
            }
            return b;
        }

        @Override
        public boolean admit(long cacheId, long blockOffset, long storedSize) {
            admits.computeIfAbsent(blockOffset, k -> new AtomicInteger()).incrementAndGet();
            return true;
        }

        @Override
        public void insert(long cacheId, long blockOffset, Block block) {
            blocks.put(blockOffset, block);
        }

        int calls(Map<Long, AtomicInteger> counts, long offset) {
            AtomicInteger n = counts.get(offset);
            return n == null ? 0 : n.get();
        }
    }

    /** Entries whose values alternate, a block's worth at a time, between repetitive and random bytes. */
    private static List<byte[][]> model() {
        Random r = new Random(5);
        List<byte[][]> model = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            byte[] value = new byte[200];
            if (i / 20 % 2 == 0) {
                java.util.Arrays.fill(value, (byte) ('a' + i % 26));
            } else {
                r.nextBytes(value);
            }
            model.add(new byte[][] {String.format("key%05d", i).getBytes(StandardCharsets.US_ASCII), value});
        }
        return model;
    }

    /** The offsets of the data blocks stored uncompressed, and of those stored compressed. */
    private static List<Set<Long>> offsetsByStorage(byte[] file) {
        Footer footer = Footer.decode(ByteBuffer.wrap(file), file.length - Footer.ENCODED_LENGTH, Footer.ENCODED_LENGTH);
        Block index = new Block(BlockReader.read(TestFiles.BufferFile.heap(file), "t.ldb", footer.index(), true).data());
        Set<Long> raw = new HashSet<>();
        Set<Long> compressed = new HashSet<>();
        BlockIterator it = index.iterator(BytewiseComparator.INSTANCE);
        for (it.seekToFirst(); it.valid(); it.next()) {
            BlockHandle h = BlockHandle.decode(it.value());
            boolean isRaw = BlockReader.compressionType(TestFiles.BufferFile.heap(file), "t.ldb", h) == BlockCompression.NONE;
            (isRaw ? raw : compressed).add(h.offset());
        }
        return List.of(raw, compressed);
    }

    /** Looks every entry up, in two rounds, and checks its value. */
    private static void readEveryEntryTwice(Table table, List<byte[][]> model) {
        for (int round = 0; round < 2; round++) {
            for (byte[][] entry : model) {
                byte[][] found = new byte[1][];
                assertTrue(table.get(ByteBuffer.wrap(entry[0]), TableReadOptions.DEFAULT,
                        (k, v) -> found[0] = Bytes.toArray(v)));
                assertArrayEquals(entry[1], found[0], "round " + round);
            }
        }
    }

    @ParameterizedTest(name = "mapped {0}")
    @ValueSource(booleans = {true, false})
    void onlyBlocksTheCacheCouldKeepAreLookedUpAndOffered(boolean mapped) throws IOException {
        List<byte[][]> model = model();
        byte[] file = TableRandomizedTest.build(model, TableOptions.DEFAULTS.withCompressionType(BlockCompression.SNAPPY)
                .withBlockSize(1024));
        List<Set<Long>> storage = offsetsByStorage(file);
        Set<Long> raw = storage.get(0);
        Set<Long> compressed = storage.get(1);
        assertFalse(raw.isEmpty(), "random values are stored uncompressed");
        assertFalse(compressed.isEmpty(), "repetitive values are stored compressed");

        RecordingCache cache = new RecordingCache();
        Table table = Table.open("000001.ldb", TestFiles.BufferFile.of(file, mapped), file.length,
                TableOptions.DEFAULTS.withBlockCache(cache));
        readEveryEntryTwice(table, model);
        for (long offset : raw) {
            int lookups = cache.calls(cache.lookups, offset);
            int admits = cache.calls(cache.admits, offset);
            if (mapped) {
                // Looked up once the table has a block in the cache (a compressed one), never offered.
                assertEquals(0, admits, "uncompressed block at " + offset + " of a mapped file");
            } else {
                assertTrue(lookups > 0 && admits == 1, "copied block at " + offset + ": " + lookups + " lookups, "
                        + admits + " admits");
            }
        }
        for (long offset : compressed) {
            assertTrue(cache.calls(cache.lookups, offset) > 0, "compressed block at " + offset);
            assertEquals(1, cache.calls(cache.admits, offset), "compressed block at " + offset + ": kept once");
        }
        int kept = mapped ? compressed.size() : raw.size() + compressed.size();
        assertEquals(kept, cache.blocks.size(), "blocks kept");
        assertTrue(cache.hits.get() >= (mapped ? 1 : model.size()), "hits: " + cache.hits);
    }

    @ParameterizedTest(name = "mapped {0}")
    @ValueSource(booleans = {true, false})
    void aMappedTableStoredUncompressedNeverAsksTheCache(boolean mapped) throws IOException {
        List<byte[][]> model = model();
        byte[] file = TableRandomizedTest.build(model, TableOptions.DEFAULTS.withCompressionType(BlockCompression.NONE)
                .withBlockSize(1024));
        RecordingCache cache = new RecordingCache();
        Table table = Table.open("000001.ldb", TestFiles.BufferFile.of(file, mapped), file.length,
                TableOptions.DEFAULTS.withBlockCache(cache));
        readEveryEntryTwice(table, model);
        int blocks = offsetsByStorage(file).get(0).size();
        if (mapped) {
            assertEquals(Map.of(), cache.lookups, "read in place: nothing to look up");
            assertEquals(Map.of(), cache.admits, "read in place: nothing to offer");
        } else {
            assertEquals(blocks, cache.admits.size(), "every copied block is offered");
            assertEquals(blocks, cache.blocks.size());
        }
    }
}
