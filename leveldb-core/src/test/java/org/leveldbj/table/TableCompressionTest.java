package org.leveldbj.table;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.leveldbj.comparator.BytewiseComparator;
import org.leveldbj.iterator.SortedIterator;
import org.leveldbj.util.Bytes;

/** Compressed tables: blocks are stored with the codec's type byte, smaller, and read back. */
class TableCompressionTest {
    private static List<byte[][]> compressibleModel() {
        List<byte[][]> model = new ArrayList<>();
        Random r = new Random(7);
        for (int i = 0; i < 2000; i++) {
            byte[] key = String.format("user%08d", i).getBytes(StandardCharsets.US_ASCII);
            // db_bench style: half random, half repeated, so the value compresses to about half.
            byte[] value = new byte[100];
            for (int j = 0; j < 50; j++) {
                value[j] = (byte) (' ' + r.nextInt(95));
            }
            System.arraycopy(value, 0, value, 50, 50);
            model.add(new byte[][] {key, value});
        }
        return model;
    }

    /** The trailer type byte of every data block, read through the index. */
    private static List<Integer> dataBlockTypes(byte[] file) {
        Footer footer = Footer.decode(ByteBuffer.wrap(file), file.length - Footer.ENCODED_LENGTH, Footer.ENCODED_LENGTH);
        // The index block itself may be compressed: read it as the table does.
        Block indexBlock = new Block(BlockReader.read(TestFiles.BufferFile.of(file, false), "t.ldb",
                footer.index(), true).data());
        BlockIterator it = indexBlock.iterator(BytewiseComparator.INSTANCE);
        List<Integer> types = new ArrayList<>();
        for (it.seekToFirst(); it.valid(); it.next()) {
            BlockHandle h = BlockHandle.decode(it.value());
            int type = file[(int) (h.offset() + h.size())] & 0xff;
            assertEquals(type, BlockReader.compressionType(TestFiles.BufferFile.of(file, false), "t.ldb", h));
            types.add(type);
        }
        return types;
    }

    @ParameterizedTest(name = "compression type {0}")
    @ValueSource(ints = {BlockCompression.SNAPPY, BlockCompression.ZSTD})
    void compressibleBlocksAreStoredCompressedAndReadBack(int type) throws IOException {
        List<byte[][]> model = compressibleModel();
        byte[] plain = TableRandomizedTest.build(model, TableOptions.DEFAULTS.withCompressionType(BlockCompression.NONE));
        byte[] packed = TableRandomizedTest.build(model, TableOptions.DEFAULTS.withCompressionType(type));
        assertTrue(packed.length < plain.length * 0.75, "compressed " + packed.length + " vs plain " + plain.length);
        List<Integer> types = dataBlockTypes(packed);
        assertTrue(types.size() > 10);
        assertTrue(types.stream().allMatch(t -> t == type), "block types " + types);
        assertTrue(dataBlockTypes(plain).stream().allMatch(t -> t == BlockCompression.NONE));

        for (boolean direct : new boolean[] {false, true}) {
            Table table = Table.open("000001.ldb", TestFiles.BufferFile.of(packed, direct), packed.length,
                    TableOptions.DEFAULTS.withVerifyChecksums(true));
            try (SortedIterator it = table.iterator(TableReadOptions.DEFAULT)) {
                int i = 0;
                for (it.seekToFirst(); it.valid(); it.next(), i++) {
                    assertEquals(ByteBuffer.wrap(model.get(i)[0]), it.key());
                    assertEquals(ByteBuffer.wrap(model.get(i)[1]), it.value());
                }
                assertEquals(model.size(), i);
                i = model.size() - 1;
                for (it.seekToLast(); it.valid(); it.prev(), i--) {
                    assertEquals(ByteBuffer.wrap(model.get(i)[0]), it.key());
                }
                assertEquals(-1, i);
            }
        }
    }

    @ParameterizedTest(name = "compression type {0}")
    @ValueSource(ints = {BlockCompression.SNAPPY, BlockCompression.ZSTD})
    void incompressibleBlocksAreStoredRaw(int type) throws IOException {
        List<byte[][]> model = new ArrayList<>();
        Random r = new Random(11);
        for (int i = 0; i < 500; i++) {
            byte[] value = new byte[200];
            r.nextBytes(value);
            model.add(new byte[][] {String.format("k%06d", i).getBytes(StandardCharsets.US_ASCII), value});
        }
        byte[] file = TableRandomizedTest.build(model, TableOptions.DEFAULTS.withCompressionType(type));
        assertTrue(dataBlockTypes(file).stream().allMatch(t -> t == BlockCompression.NONE),
                "blocks that do not shrink by an eighth are stored uncompressed");
    }
    /**
     * Point lookups that do not fill the cache decode each block into an array the reader lends
     * and reuses (growing it for a larger block), and read values through one view of it: every
     * lookup, in random order and between blocks of many sizes, finds its own value.
     */
    @ParameterizedTest(name = "compression type {0}")
    @ValueSource(ints = {BlockCompression.SNAPPY, BlockCompression.ZSTD})
    void pointLookupsThroughTheLentArrayFindTheirValues(int type) throws IOException {
        List<byte[][]> model = new ArrayList<>();
        Random r = new Random(11);
        for (int i = 0; i < 3000; i++) {
            byte[] key = String.format("user%08d", i).getBytes(StandardCharsets.US_ASCII);
            // Lengths from 1 to 3,000 bytes, runs of them, so blocks range from one small entry
            // to several kilobytes: the lent array is reused, and grown now and then.
            int length = i % 500 < 250 ? 1 + r.nextInt(40) : 1 + r.nextInt(3000);
            byte[] value = new byte[length];
            for (int j = 0; j < length; j++) {
                value[j] = (byte) ('a' + (j % 7 == 0 ? r.nextInt(26) : i % 26));
            }
            model.add(new byte[][] {key, value});
        }
        byte[] file = TableRandomizedTest.build(model, TableOptions.DEFAULTS.withCompressionType(type));
        assertTrue(dataBlockTypes(file).contains(type), "no block was compressed");
        Table table = Table.open("000001.ldb", TestFiles.BufferFile.of(file, true), file.length, TableOptions.DEFAULTS);
        TableReadOptions noFill = TableReadOptions.of(false, false);
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < model.size(); i++) {
            order.add(i);
        }
        Collections.shuffle(order, r);
        byte[][] found = new byte[2][];
        for (int i : order) {
            found[0] = null;
            boolean hit = table.get(ByteBuffer.wrap(model.get(i)[0]), noFill, (k, v) -> {
                found[0] = Bytes.toArray(k);
                found[1] = Bytes.toArray(v);
            });
            assertTrue(hit, "entry " + i);
            assertArrayEquals(model.get(i)[0], found[0], "key of entry " + i);
            assertArrayEquals(model.get(i)[1], found[1], "value of entry " + i);
        }
    }
}
