package org.leveldbj.table;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.leveldbj.iterator.SortedIterator;
import org.leveldbj.testing.Seed;
import org.leveldbj.testing.SeedExtension;
import org.leveldbj.util.Bytes;

/**
 * {@link Table#getAll} hands each key exactly the entry {@link Table#get} hands it, over random
 * tables and random sorted key sets (present, absent, repeated), and reads each data block once.
 */
@ExtendWith(SeedExtension.class)
class TableGetAllTest {

    @Test
    void eachKeyGetsWhatGetGives(@Seed long seed) throws IOException {
        Random r = new Random(seed);
        for (int round = 0; round < 60; round++) {
            int n = round < 3 ? round : r.nextInt(r.nextBoolean() ? 100 : 2000);
            List<byte[][]> model = RandomData.entries(r, n);
            TableOptions options = TableRandomizedTest.randomOptions(r);
            byte[] file = TableRandomizedTest.build(model, options);
            Table table = Table.open("t" + round + ".ldb", TestFiles.BufferFile.of(file, r.nextBoolean()), file.length,
                    r.nextBoolean() ? options.withBlockCache(new MapBlockCache()) : options);
            String context = "seed " + seed + " round " + round + " (" + model.size() + " entries, " + options + ")";
            List<byte[]> targets = new ArrayList<>();
            for (int i = r.nextInt(200); i > 0; i--) {
                int pick = r.nextInt(10);
                if (pick < 5 && !model.isEmpty()) {
                    targets.add(model.get(r.nextInt(model.size()))[0]);
                } else if (pick < 6 && !targets.isEmpty()) {
                    targets.add(targets.get(r.nextInt(targets.size())));
                } else {
                    targets.add(RandomData.target(r, model));
                }
            }
            targets.sort(Arrays::compareUnsigned);
            byte[][] expected = new byte[targets.size()][];
            for (int i = 0; i < targets.size(); i++) {
                int at = i;
                table.get(ByteBuffer.wrap(targets.get(i)), TableReadOptions.DEFAULT,
                        (k, v) -> expected[at] = concat(k, v));
            }
            byte[][] got = new byte[targets.size()][];
            int[] which = new int[targets.size() + 1];
            int count = 0;
            for (int i = 0; i < targets.size(); i++) {
                if (r.nextInt(8) != 0) {
                    which[count++] = i; // a subset: the others must be left alone
                } else {
                    expected[i] = null;
                }
            }
            table.getAll(which, count, TableReadOptions.DEFAULT, new KeyBatch() {
                @Override
                public ByteBuffer key(int i) {
                    return ByteBuffer.wrap(targets.get(i));
                }

                @Override
                public void accept(int i, ByteBuffer key, ByteBuffer value) {
                    if (got[i] != null) {
                        throw new AssertionError(context + ": key " + i + " handed two entries");
                    }
                    got[i] = concat(key, value);
                }
            });
            for (int i = 0; i < targets.size(); i++) {
                assertArrayEquals(expected[i], got[i], context + " key " + Bytes.escape(targets.get(i)));
            }
        }
    }

    @Test
    void eachDataBlockIsReadOnce() throws IOException {
        List<byte[][]> model = new ArrayList<>();
        for (int i = 0; i < 5000; i++) {
            model.add(new byte[][] {String.format("k%08d", i).getBytes(java.nio.charset.StandardCharsets.UTF_8), new byte[20]});
        }
        TableOptions options = TableOptions.DEFAULTS.withCompressionType(1);
        byte[] file = TableRandomizedTest.build(model, options);
        Table scanned = Table.open("f.ldb", TestFiles.BufferFile.heap(file), file.length, options);
        try (SortedIterator it = scanned.iterator(TableReadOptions.DEFAULT)) {
            int entries = 0;
            for (it.seekToFirst(); it.valid(); it.next()) {
                entries++;
            }
            assertEquals(model.size(), entries);
        }
        long dataBlocks = scanned.blockReads();
        Table table = Table.open("f.ldb", TestFiles.BufferFile.heap(file), file.length, options);
        int[] which = new int[model.size()];
        for (int i = 0; i < which.length; i++) {
            which[i] = i;
        }
        int[] found = new int[1];
        table.getAll(which, which.length, TableReadOptions.DEFAULT, new KeyBatch() {
            @Override
            public ByteBuffer key(int i) {
                return ByteBuffer.wrap(model.get(i)[0]);
            }

            @Override
            public void accept(int i, ByteBuffer key, ByteBuffer value) {
                assertEquals(ByteBuffer.wrap(model.get(i)[0]), key);
                found[0]++;
            }
        });
        assertEquals(model.size(), found[0]);
        assertEquals(dataBlocks, table.blockReads(), "one read per data block, " + dataBlocks + " blocks");
    }

    private static byte[] concat(ByteBuffer key, ByteBuffer value) {
        byte[] k = Bytes.toArray(key);
        byte[] v = Bytes.toArray(value);
        ByteBuffer both = ByteBuffer.allocate(4 + k.length + v.length); // the key's length, then both
        return both.putInt(k.length).put(k).put(v).array();
    }
}
