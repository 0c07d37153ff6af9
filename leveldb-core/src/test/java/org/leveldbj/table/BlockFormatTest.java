package org.leveldbj.table;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.leveldbj.table.TestFiles.bytes;

import java.nio.ByteBuffer;
import java.util.List;
import org.iq80.leveldb.CorruptionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.leveldbj.comparator.BytewiseComparator;
import org.leveldbj.comparator.KeyComparator;
import org.leveldbj.util.Bytes;

/** Exact bytes of blocks, handles and footers, worked out by hand from the format. */
class BlockFormatTest {
    private static final KeyComparator CMP = BytewiseComparator.INSTANCE;

    /** "apple"="1", "apply"="22", "banana"="" with a restart interval of 2. */
    static final byte[] APPLE_BLOCK = {
        // offset 0, restart point: shared 0, non_shared 5, value_length 1, "apple", "1"
        0, 5, 1, 'a', 'p', 'p', 'l', 'e', '1',
        // offset 9: shares "appl" (4) with "apple", non_shared 1, value_length 2, "y", "22"
        4, 1, 2, 'y', '2', '2',
        // offset 15, restart point (third entry, interval 2): shared 0, non_shared 6, value_length 0
        0, 6, 0, 'b', 'a', 'n', 'a', 'n', 'a',
        // restart array: fixed32 0, fixed32 15
        0, 0, 0, 0, 15, 0, 0, 0,
        // restart count: fixed32 2
        2, 0, 0, 0,
    };

    @Test
    void blockBuilderWritesTheDocumentedBytes() {
        BlockBuilder b = new BlockBuilder(2, CMP);
        assertEquals(8, b.currentSizeEstimate());
        b.add(bytes("apple"), bytes("1"));
        b.add(bytes("apply"), bytes("22"));
        b.add(bytes("banana"), bytes(""));
        assertEquals(24 + 8 + 4, b.currentSizeEstimate());
        ByteBuffer out = b.finish();
        assertArrayEquals(APPLE_BLOCK, Bytes.toArray(out));
        b.reset();
        assertTrue(b.isEmpty());
    }

    @Test
    void emptyBlockIsOneRestartPoint() {
        BlockBuilder b = new BlockBuilder(16, CMP);
        assertArrayEquals(new byte[] {0, 0, 0, 0, 1, 0, 0, 0}, Bytes.toArray(b.finish()));
        BlockIterator it = new Block(ByteBuffer.wrap(new byte[] {0, 0, 0, 0, 1, 0, 0, 0})).iterator(CMP);
        it.seekToFirst();
        assertFalse(it.valid());
        it.seekToLast();
        assertFalse(it.valid());
        it.seek(ByteBuffer.wrap(bytes("a")));
        assertFalse(it.valid());
    }

    @Test
    void readsTheHandWrittenBlock() {
        BlockIterator it = new Block(ByteBuffer.wrap(APPLE_BLOCK)).iterator(CMP);
        it.seekToFirst();
        assertEntry(it, "apple", "1");
        it.next();
        assertEntry(it, "apply", "22");
        it.next();
        assertEntry(it, "banana", "");
        it.next();
        assertFalse(it.valid());
        it.seekToLast();
        assertEntry(it, "banana", "");
        it.prev();
        assertEntry(it, "apply", "22");
        it.prev();
        assertEntry(it, "apple", "1");
        it.prev();
        assertFalse(it.valid());
        it.seek(ByteBuffer.wrap(bytes("applx")));
        assertEntry(it, "apply", "22");
        it.seek(ByteBuffer.wrap(bytes("b")));
        assertEntry(it, "banana", "");
        it.seek(ByteBuffer.wrap(bytes("c")));
        assertFalse(it.valid());
    }

    private static void assertEntry(BlockIterator it, String key, String value) {
        assertTrue(it.valid());
        assertEquals(key, new String(Bytes.toArray(it.key()), java.nio.charset.StandardCharsets.ISO_8859_1));
        assertEquals(value, new String(Bytes.toArray(it.value()), java.nio.charset.StandardCharsets.ISO_8859_1));
    }

    @Test
    void restartCountAndFirstPointAreCheckedAtConstruction() {
        // Too short for a restart count.
        CorruptionException e = assertThrows(CorruptionException.class, () -> new Block(ByteBuffer.wrap(new byte[3])));
        assertTrue(e.reason().startsWith("bad block contents"), e.getMessage());
        // Restart count larger than the block can hold.
        e = assertThrows(CorruptionException.class, () -> new Block(ByteBuffer.wrap(new byte[] {0, 0, 0, 0, 2, 0, 0, 0})));
        assertTrue(e.reason().startsWith("bad block contents"), e.getMessage());
        assertEquals(4, e.offset());
        // A first restart point other than 0, placed in a file when the block knows its origin.
        byte[] bad = APPLE_BLOCK.clone();
        bad[24] = 9;
        e = assertThrows(CorruptionException.class, () -> new Block(ByteBuffer.wrap(bad), "000007.ldb", 1000, false));
        assertEquals("bad block contents: restart point 0 is 9", e.reason());
        assertEquals("000007.ldb", e.file());
        assertEquals(1024, e.offset());
    }

    @Test
    void aRestartPointPastTheEntriesFailsTheStepThatReadsIt() {
        byte[] bad = APPLE_BLOCK.clone();
        bad[28] = 40;
        Block block = new Block(ByteBuffer.wrap(bad), "000007.ldb", 1000, false);
        BlockIterator it = block.iterator(CMP);
        List<Executable> steps = List.of(
                it::seekToFirst, it::seekToLast, () -> it.seek(ByteBuffer.wrap(bytes("b"))));
        for (Executable step : steps) {
            CorruptionException e = assertThrows(CorruptionException.class, step);
            assertEquals("bad block contents: restart point 1 is 40", e.reason());
            assertEquals("000007.ldb", e.file());
            assertEquals(1028, e.offset());
            assertFalse(it.valid());
        }
    }

    @Test
    void restartPointsOutOfOrderFailBackwardSteps() {
        // "a"="1" at 0, "b"="2" at 5, "c"="3" at 10, every entry a restart, the array 0, 10, 5.
        byte[] block = {
            0, 1, 1, 'a', '1',
            0, 1, 1, 'b', '2',
            0, 1, 1, 'c', '3',
            0, 0, 0, 0, 10, 0, 0, 0, 5, 0, 0, 0,
            3, 0, 0, 0,
        };
        Block b = new Block(ByteBuffer.wrap(block));
        BlockIterator it = b.iterator(CMP);
        it.seekToFirst();
        assertEntry(it, "a", "1");
        it.next();
        assertEntry(it, "b", "2");
        it.next();
        assertEntry(it, "c", "3");
        CorruptionException e = assertThrows(CorruptionException.class, it::prev);
        assertEquals("bad block contents: restart point 2 is 5", e.reason());
        assertEquals(23, e.offset());
        assertFalse(it.valid());
        assertThrows(CorruptionException.class, it::seekToLast);
        assertFalse(it.valid());
        // Seeks end, finding what the misordered points let them find, without failing.
        for (String target : new String[] {"", "a", "b", "c", "d"}) {
            it.seek(ByteBuffer.wrap(bytes(target)));
        }
        // In order, the same entries step back.
        block[19] = 5;
        block[23] = 10;
        BlockIterator ok = new Block(ByteBuffer.wrap(block)).iterator(CMP);
        ok.seekToLast();
        assertEntry(ok, "c", "3");
        ok.prev();
        assertEntry(ok, "b", "2");
    }

    @Test
    void malformedEntriesReportTheirOffset() {
        // The second entry claims to share 9 bytes of the 5-byte "apple".
        byte[] bad = APPLE_BLOCK.clone();
        bad[9] = 9;
        BlockIterator it = new Block(ByteBuffer.wrap(bad)).iterator(CMP);
        it.seekToFirst();
        CorruptionException e = assertThrows(CorruptionException.class, it::next);
        assertTrue(e.reason().startsWith("bad entry in block"), e.getMessage());
        assertEquals(9, e.offset());
        assertFalse(it.valid());
        // The third entry's key runs into the restart array.
        byte[] bad2 = APPLE_BLOCK.clone();
        bad2[16] = 60;
        BlockIterator it2 = new Block(ByteBuffer.wrap(bad2), "x.ldb", 100, false).iterator(CMP);
        e = assertThrows(CorruptionException.class, it2::seekToLast);
        assertEquals(115, e.offset());
        assertEquals("x.ldb", e.file());
        // A restart entry that shares a prefix, found by binary search.
        byte[] bad3 = APPLE_BLOCK.clone();
        bad3[15] = 1;
        BlockIterator it3 = new Block(ByteBuffer.wrap(bad3)).iterator(CMP);
        e = assertThrows(CorruptionException.class, () -> it3.seek(ByteBuffer.wrap(bytes("zzz"))));
        assertEquals(15, e.offset());
    }

    @Test
    void blockHandleEncoding() {
        BlockHandle h = new BlockHandle(300, 5);
        assertArrayEquals(new byte[] {(byte) 0xac, 0x02, 0x05}, h.encode());
        assertEquals(h, BlockHandle.decode(ByteBuffer.wrap(new byte[] {(byte) 0xac, 0x02, 0x05, 0x77})));
        assertEquals(18, new BlockHandle(Long.MAX_VALUE, Long.MAX_VALUE).encode().length);
        CorruptionException e = assertThrows(CorruptionException.class,
                () -> BlockHandle.decode(ByteBuffer.wrap(new byte[] {(byte) 0xac, 0x02, (byte) 0x85})));
        assertTrue(e.reason().startsWith("bad block handle"), e.getMessage());
        // 2^64 - 1 does not fit a file offset.
        byte[] max = new byte[11];
        java.util.Arrays.fill(max, 0, 9, (byte) 0xff);
        max[9] = 0x01;
        max[10] = 0;
        assertThrows(CorruptionException.class, () -> BlockHandle.decode(ByteBuffer.wrap(max)));
    }

    @Test
    void footerBytes() {
        Footer f = new Footer(new BlockHandle(100, 8), new BlockHandle(113, 300));
        byte[] expected = new byte[48];
        // metaindex handle: varint 100 = 0x64, varint 8 = 0x08
        expected[0] = 0x64;
        expected[1] = 0x08;
        // index handle: varint 113 = 0x71, varint 300 = 0xac 0x02
        expected[2] = 0x71;
        expected[3] = (byte) 0xac;
        expected[4] = 0x02;
        // bytes 5..39: zero padding; 40..47: magic 0xdb4775248b80fb57 little-endian
        byte[] magic = {0x57, (byte) 0xfb, (byte) 0x80, (byte) 0x8b, 0x24, 0x75, 0x47, (byte) 0xdb};
        System.arraycopy(magic, 0, expected, 40, 8);
        assertArrayEquals(expected, f.encode());
        assertEquals(f, Footer.decode(ByteBuffer.wrap(expected), 0, 48));

        byte[] badMagic = expected.clone();
        badMagic[47] ^= 1;
        CorruptionException e = assertThrows(CorruptionException.class, () -> Footer.decode(ByteBuffer.wrap(badMagic), 0, 48));
        assertEquals("not an sstable (bad magic number)", e.reason());
        assertThrows(CorruptionException.class, () -> Footer.decode(ByteBuffer.wrap(expected), 0, 47));
    }
}
