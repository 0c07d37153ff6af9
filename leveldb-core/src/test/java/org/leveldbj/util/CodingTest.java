package org.leveldbj.util;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Random;
import org.iq80.leveldb.CorruptionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.leveldbj.testing.Seed;
import org.leveldbj.testing.SeedExtension;

@ExtendWith(SeedExtension.class)
class CodingTest {
    private static byte[] bytes(int... values) {
        byte[] out = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            out[i] = (byte) values[i];
        }
        return out;
    }

    @Test
    void fixedWidthIntegersAreLittleEndian() {
        ByteSink sink = new ByteSink().putFixed32(0x04030201).putFixed64(0x0807060504030201L);
        assertArrayEquals(bytes(1, 2, 3, 4, 1, 2, 3, 4, 5, 6, 7, 8), sink.toByteArray());
        ByteBuffer big = ByteBuffer.wrap(sink.toByteArray()).order(ByteOrder.BIG_ENDIAN);
        assertEquals(0x04030201, Coding.getFixed32(big, 0, 12));
        assertEquals(0x0807060504030201L, Coding.getFixed64(big, 4, 12));
    }

    @Test
    void varintKnownEncodings() {
        assertArrayEquals(bytes(0x00), new ByteSink().putVarint32(0).toByteArray());
        assertArrayEquals(bytes(0x7f), new ByteSink().putVarint32(127).toByteArray());
        assertArrayEquals(bytes(0x80, 0x01), new ByteSink().putVarint32(128).toByteArray());
        assertArrayEquals(bytes(0xac, 0x02), new ByteSink().putVarint32(300).toByteArray());
        assertArrayEquals(bytes(0xff, 0xff, 0xff, 0xff, 0x0f), new ByteSink().putVarint32(-1).toByteArray());
        assertArrayEquals(bytes(0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01),
                new ByteSink().putVarint64(-1L).toByteArray());
        assertArrayEquals(bytes(0x80, 0x80, 0x80, 0x80, 0x10), new ByteSink().putVarint64(1L << 32).toByteArray());
    }

    @Test
    void varintLengthMatchesEncoding() {
        long[] edges = {0, 1, 127, 128, 16383, 16384, (1L << 21) - 1, 1L << 21, (1L << 28) - 1, 1L << 28,
            0xffffffffL, 1L << 35, 1L << 56, Long.MAX_VALUE, -1L};
        for (long v : edges) {
            ByteSink sink = new ByteSink().putVarint64(v);
            assertEquals(sink.length(), Coding.varintLength(v), "length of " + Long.toUnsignedString(v));
            assertEquals(v, new ByteCursor(sink.toByteArray()).readVarint64());
        }
    }

    @Test
    void randomVarintsRoundTrip(@Seed long seed) {
        Random random = new Random(seed);
        ByteSink sink = new ByteSink();
        int[] v32 = new int[1000];
        long[] v64 = new long[1000];
        for (int i = 0; i < v32.length; i++) {
            v32[i] = random.nextInt() >>> random.nextInt(32);
            v64[i] = random.nextLong() >>> random.nextInt(64);
            sink.putVarint32(v32[i]).putVarint64(v64[i]);
        }
        ByteCursor cursor = new ByteCursor(sink.toByteArray());
        for (int i = 0; i < v32.length; i++) {
            assertEquals(v32[i], cursor.readVarint32());
            assertEquals(v64[i], cursor.readVarint64());
        }
        assertEquals(0, cursor.remaining());
    }

    @Test
    void truncatedVarintIsCorruptionWithOffset() {
        ByteBuffer buf = ByteBuffer.wrap(bytes(0x05, 0x80, 0x80));
        ByteCursor cursor = new ByteCursor(buf);
        assertEquals(5, cursor.readVarint32());
        CorruptionException e = assertThrows(CorruptionException.class, cursor::readVarint32);
        assertEquals("truncated varint32", e.reason());
        assertEquals(1, e.offset());
        CorruptionException placed = e.at("000007.ldb", 4096);
        assertEquals("Corruption: truncated varint32: 000007.ldb at offset 4097", placed.getMessage());
    }

    @Test
    void overlongVarintIsCorruption() {
        byte[] six = bytes(0x80, 0x80, 0x80, 0x80, 0x80, 0x01);
        assertEquals("bad varint32",
                assertThrows(CorruptionException.class, () -> new ByteCursor(six).readVarint32()).reason());
        byte[] eleven = bytes(0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01);
        assertEquals("bad varint64",
                assertThrows(CorruptionException.class, () -> new ByteCursor(eleven).readVarint64()).reason());
    }

    @Test
    void boundedReadsReportInsteadOfOverrunning() {
        ByteBuffer buf = ByteBuffer.wrap(bytes(1, 2, 3, 4, 5, 6, 7));
        assertThrows(CorruptionException.class, () -> Coding.getFixed64(buf, 0, 7));
        assertThrows(CorruptionException.class, () -> Coding.getFixed32(buf, 4, 7));
        assertThrows(CorruptionException.class, () -> Coding.getFixed32(buf, -1, 7));
        ByteCursor cursor = new ByteCursor(buf, 2, 3);
        assertEquals(3, cursor.readUnsignedByte());
        CorruptionException e = assertThrows(CorruptionException.class, cursor::readFixed32);
        assertEquals(1, e.offset());
        // A length prefix larger than what is left is reported, not allocated.
        ByteCursor lying = new ByteCursor(new ByteSink().putVarint32(1 << 30).put(bytes(1, 2)).toByteArray());
        CorruptionException bad = assertThrows(CorruptionException.class, () -> lying.readLengthPrefixed("key"));
        assertEquals("bad key length 1073741824 (2 bytes left)", bad.reason());
    }

    @Test
    void lengthPrefixedSlicesRoundTrip() {
        ByteSink sink = new ByteSink().putLengthPrefixed(new byte[0]).putLengthPrefixed(bytes(9, 8, 7));
        ByteCursor cursor = new ByteCursor(sink.toByteArray());
        assertArrayEquals(new byte[0], cursor.readLengthPrefixed("a"));
        assertArrayEquals(bytes(9, 8, 7), cursor.readLengthPrefixed("b"));
        assertEquals(false, cursor.hasRemaining());
    }
}
