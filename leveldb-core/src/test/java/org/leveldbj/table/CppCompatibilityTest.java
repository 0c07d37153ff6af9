package org.leveldbj.table;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.leveldbj.table.TestFiles.bytes;
import static org.leveldbj.table.TestFiles.hex;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;
import org.leveldbj.iterator.SortedIterator;
import org.leveldbj.util.Bytes;

/**
 * A table written by C++ LevelDB 1.23 (libleveldb, TableBuilder with no compression, 64-byte
 * blocks, restart interval 2, NewBloomFilterPolicy(10)) holding keys {@code key000, key007, ...,
 * key077} (i * 7, three digits) with values {@code v0 ... v11}. We must write the same bytes and
 * read them.
 */
class CppCompatibilityTest {
    static final byte[] CPP_TABLE = hex(
            "0006026b657930303076300501023776310006026b65793031347632040202323176330006026b6579303238"
            + "76340402023335763500000000110000002300000003000000005cef58630006026b65793034327636050102"
            + "3976370006026b65793035367638040202363376390006036b65793037307631300501033776313100000000"
            + "1100000023000000030000000098f6b0eb20aa22db523d5d07204cf8f72854250600000000100000000b009a"
            + "557a9e00220366696c7465722e6c6576656c64622e4275696c74696e426c6f6f6d46696c7465723295011900"
            + "000000010000000063b436d80006026b657930333500450001026c4a46000000000b0000000200000000bd28"
            + "9b90b30130e8011d0000000000000000000000000000000000000000000000000000000000000000000057fb"
            + "808b247547db");

    private static final TableOptions OPTIONS = TableOptions.DEFAULTS
            .withCompressionType(BlockCompression.NONE)
            .withBlockSize(64)
            .withBlockRestartInterval(2)
            .withFilter(new BloomFilterPolicy(10), FilterKeyExtractor.WHOLE_KEY);

    private static String key(int i) {
        return String.format("key%03d", i * 7);
    }

    @Test
    void writesTheSameBytesAsCpp() throws IOException {
        assertEquals(314, CPP_TABLE.length);
        TestFiles.MemWritableFile out = new TestFiles.MemWritableFile();
        TableBuilder b = new TableBuilder(OPTIONS, out);
        for (int i = 0; i < 12; i++) {
            b.add(bytes(key(i)), bytes("v" + i));
        }
        b.finish();
        assertEquals(12, b.numEntries());
        assertEquals(314, b.fileSize());
        assertArrayEquals(CPP_TABLE, out.bytes());
    }

    @Test
    void readsTheCppTable() {
        for (boolean direct : new boolean[] {false, true}) {
            Table t = Table.open("cpp.ldb", TestFiles.BufferFile.of(CPP_TABLE, direct), CPP_TABLE.length,
                    OPTIONS.withVerifyChecksums(true));
            assertTrue(t.hasFilter());
            try (SortedIterator it = t.iterator(TableReadOptions.VERIFY)) {
                int i = 0;
                for (it.seekToFirst(); it.valid(); it.next(), i++) {
                    assertEquals(key(i), str(it.key()));
                    assertEquals("v" + i, str(it.value()));
                }
                assertEquals(12, i);
                for (it.seekToLast(); it.valid(); it.prev()) {
                    i--;
                    assertEquals(key(i), str(it.key()));
                }
                assertEquals(0, i);
            }
            for (int i = 0; i < 12; i++) {
                String[] found = new String[1];
                assertTrue(t.get(ByteBuffer.wrap(bytes(key(i))), TableReadOptions.DEFAULT, (k, v) -> found[0] = str(v)));
                assertEquals("v" + i, found[0]);
            }
            long skipsBefore = t.filterSkips();
            int missed = 0;
            for (int i = 0; i < 100; i++) {
                String missing = String.format("key%03d", i * 7 + 3);
                if (!t.get(ByteBuffer.wrap(bytes(missing)), TableReadOptions.DEFAULT, (k, v) -> { })) {
                    missed++;
                }
            }
            assertTrue(t.filterSkips() - skipsBefore >= 60, "the filter should answer most misses");
            assertTrue(missed >= 60);
            assertFalse(t.get(ByteBuffer.wrap(bytes("zzz")), TableReadOptions.DEFAULT, (k, v) -> { }));
        }
    }

    private static String str(ByteBuffer b) {
        return new String(Bytes.toArray(b), java.nio.charset.StandardCharsets.ISO_8859_1);
    }
}
