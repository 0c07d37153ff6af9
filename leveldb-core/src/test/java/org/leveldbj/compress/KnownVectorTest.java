package org.leveldbj.compress;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.leveldbj.testing.PeerExtension;

/** Blocks worked out by hand from the snappy and zstd format descriptions. */
@ExtendWith(PeerExtension.class)
class KnownVectorTest {

    /** "abc": length varint 3, literal tag (3 - 1) << 2 = 0x08, then the three bytes. */
    private static final byte[] SNAPPY_ABC = {0x03, 0x08, 'a', 'b', 'c'};

    /**
     * "abcdabcdabcd": length 12; literal "abcd" (tag (4 - 1) << 2 = 0x0c); a copy with a one-byte
     * offset of length 8 from 4 bytes back (tag (8 - 4) << 2 | 1 = 0x11, offset 0x04), which
     * overlaps the bytes it produces.
     */
    private static final byte[] SNAPPY_OVERLAPPING_COPY = {0x0c, 0x0c, 'a', 'b', 'c', 'd', 0x11, 0x04};

    /**
     * "abc" as a zstd frame: magic 28 b5 2f fd; descriptor 0x20 (single segment, 1-byte content
     * size); content size 3; one last raw block of 3 bytes (header 1 | 0 << 1 | 3 << 3 = 0x19 as
     * 3 little-endian bytes); the bytes.
     */
    private static final byte[] ZSTD_RAW_ABC = {0x28, (byte) 0xb5, 0x2f, (byte) 0xfd, 0x20, 0x03,
        0x19, 0x00, 0x00, 'a', 'b', 'c'};

    /** "xxxxx": as above with content size 5 and a last RLE block (1 | 1 << 1 | 5 << 3 = 0x2b). */
    private static final byte[] ZSTD_RLE_X5 = {0x28, (byte) 0xb5, 0x2f, (byte) 0xfd, 0x20, 0x05,
        0x2b, 0x00, 0x00, 'x'};

    @ParameterizedTest
    @ValueSource(strings = {Implementations.SNAPPY_NATIVE, Implementations.SNAPPY_JAVA})
    void snappyDecodesHandWorkedBlocks(String name) {
        BlockCodec codec = Implementations.get(name);
        assertDecodes(codec, SNAPPY_ABC, "abc");
        assertDecodes(codec, SNAPPY_OVERLAPPING_COPY, "abcdabcdabcd");
    }

    @ParameterizedTest
    @ValueSource(strings = {Implementations.SNAPPY_NATIVE, Implementations.SNAPPY_JAVA})
    void snappyEncodesAShortLiteralExactly(String name) {
        BlockCodec codec = Implementations.get(name);
        byte[] abc = "abc".getBytes(StandardCharsets.US_ASCII);
        assertArrayEquals(SNAPPY_ABC, codec.compress(abc, 0, abc.length));
        assertArrayEquals(new byte[] {0x00}, codec.compress(new byte[0], 0, 0), "empty input");
    }

    @ParameterizedTest
    @ValueSource(strings = {Implementations.ZSTD_NATIVE, Implementations.ZSTD_JAVA})
    void zstdDecodesHandWorkedFrames(String name) {
        BlockCodec codec = Implementations.get(name);
        assertDecodes(codec, ZSTD_RAW_ABC, "abc");
        assertDecodes(codec, ZSTD_RLE_X5, "xxxxx");
    }

    @ParameterizedTest
    @ValueSource(strings = {Implementations.ZSTD_NATIVE, Implementations.ZSTD_JAVA})
    void zstdWritesTheContentSizeAndNoDictionary(String name) {
        BlockCodec codec = Implementations.get(name);
        byte[] original = TestData.compressible(new java.util.Random(1), 5000);
        byte[] frame = codec.compress(original, 0, original.length);
        assertEquals(0xFD2FB528, ByteBuffer.wrap(frame).order(java.nio.ByteOrder.LITTLE_ENDIAN).getInt(0));
        int descriptor = frame[4] & 0xff;
        assertEquals(0, descriptor & 0x03, "dictionary id flag");
        assertEquals(original.length, ZstdFrameHeader.contentSize(ByteBuffer.wrap(frame)));
    }

    private static void assertDecodes(BlockCodec codec, byte[] block, String expected) {
        byte[] text = expected.getBytes(StandardCharsets.US_ASCII);
        for (BufferKind kind : BufferKind.values()) {
            assertEquals(text.length, codec.uncompressedLength(kind.holding(block)), kind.name());
            assertEquals(ByteBuffer.wrap(text), codec.decompress(kind.holding(block)), kind.name());
        }
    }
}
