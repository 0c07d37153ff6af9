package org.leveldbj.compress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import org.iq80.leveldb.CorruptionException;
import org.junit.jupiter.api.Test;

/** The length headers parsed in Java before any decoder runs. */
class FormatHeaderTest {

    @Test
    void snappyVarints() {
        assertEquals(0, snappy(0x00));
        assertEquals(3, snappy(0x03, 0, 0));
        assertEquals(300, snappy(0xac, 0x02, zeros(20)));
        // Overlong but within five bytes is accepted, as snappy accepts it.
        assertEquals(0, snappy(0x80, 0x80, 0x80, 0x80, 0x00));
        assertLength("snappy", () -> snappy());
        assertLength("snappy", () -> snappy(0x80));
        assertLength("snappy", () -> snappy(0x80, 0x80, 0x80, 0x80, 0x80, 0x00));
        // A body of n bytes decodes to at most 64 * n / 3 bytes.
        assertEquals(21, snappy(0x15, 0x00));
        assertLength("snappy", () -> snappy(0x16, 0x00));
        assertEquals(64, snappy(0x40, 0, 0, 0));
        assertLength("snappy", () -> snappy(0x41, 0, 0, 0));
    }

    @Test
    void snappyHeaderReadsFromThePositionAndLeavesItAlone() {
        ByteBuffer buffer = ByteBuffer.wrap(new byte[] {(byte) 0xff, 0x05, 1, 2, 3, 4, 5, 6});
        buffer.position(1);
        assertEquals(5, SnappyHeader.uncompressedLength(buffer));
        assertEquals(1, buffer.position());
    }

    @Test
    void zstdContentSizeInEachWidth() {
        // Single segment, 1-byte size.
        assertEquals(200, zstd(0x20, 200, 0x01, 0x00, 0x00, 0x01));
        // 2-byte size stores size - 256, with a window descriptor.
        assertEquals(256 + 0x0102, zstd(0x40, 0x50, 0x02, 0x01, zeros(8)));
        // 4-byte size, single segment, 1-byte dictionary id.
        assertEquals(70000, zstd(0xa1, 0x07, 0x70, 0x11, 0x01, 0x00, zeros(8)));
        // 8-byte size, single segment, 2-byte dictionary id.
        assertEquals(5, zstd(0xe2, 0x01, 0x00, 5, 0, 0, 0, 0, 0, 0, 0, zeros(4)));
        // 8-byte size with a window descriptor.
        assertEquals(6, zstd(0xc0, 0x50, 6, 0, 0, 0, 0, 0, 0, 0, zeros(4)));
        // 4-byte dictionary id.
        assertEquals(9, zstd(0x23, 1, 2, 3, 4, 9, zeros(4)));
    }

    @Test
    void zstdHeadersRejected() {
        assertLength("zstd", () -> zstd(0x00, 0x50, zeros(8))); // no content size
        assertLength("zstd", () -> zstd(0x28, 3, zeros(4))); // reserved bit
        assertLength("zstd", () -> zstd(0xa0, 1, 2)); // truncated content size
        assertLength("zstd", () -> zstd(0xe0, 0, 0, 0, 0, 0, 0, 0, 0x80, zeros(4))); // negative
        assertLength("zstd", () -> zstd(0xa0, 0, 0, 0, 0x41, zeros(4))); // over 1 GiB
        assertLength("zstd", () -> ZstdFrameHeader.contentSize(ByteBuffer.wrap(new byte[] {0x28, (byte) 0xb5})));
    }

    private static int snappy(int... bytes) {
        return SnappyHeader.uncompressedLength(ByteBuffer.wrap(toBytes(bytes)));
    }

    private static int zstd(int... afterMagic) {
        byte[] rest = toBytes(afterMagic);
        byte[] frame = new byte[4 + rest.length];
        frame[0] = 0x28;
        frame[1] = (byte) 0xb5;
        frame[2] = 0x2f;
        frame[3] = (byte) 0xfd;
        System.arraycopy(rest, 0, frame, 4, rest.length);
        return ZstdFrameHeader.contentSize(ByteBuffer.wrap(frame));
    }

    /** A marker expanded by {@link #toBytes} into that many zero bytes. */
    private static int zeros(int count) {
        return -count;
    }

    private static byte[] toBytes(int... values) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        for (int v : values) {
            if (v < 0) {
                out.writeBytes(new byte[-v]);
            } else {
                out.write(v);
            }
        }
        return out.toByteArray();
    }

    private static void assertLength(String algorithm, org.junit.jupiter.api.function.Executable call) {
        CorruptionException e = assertThrows(CorruptionException.class, call);
        assertEquals("corrupted " + algorithm + " compressed block length", e.reason());
    }
}
