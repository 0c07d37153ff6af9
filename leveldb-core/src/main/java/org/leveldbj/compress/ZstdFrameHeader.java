package org.leveldbj.compress;

import java.nio.ByteBuffer;

/**
 * The start of a zstd frame (RFC 8878, section 3.1.1), read only as far as the frame content
 * size, which the table format requires:
 * <pre>
 *   magic                  4 bytes, 0xFD2FB528 little-endian (28 B5 2F FD)
 *   frame header descriptor 1 byte: bits 7-6 content-size flag, bit 5 single-segment flag,
 *                          bit 4 unused, bit 3 reserved (zero), bit 2 checksum flag,
 *                          bits 1-0 dictionary-id flag
 *   window descriptor      1 byte, absent in single-segment frames
 *   dictionary id          0, 1, 2 or 4 bytes (dictionary-id flag 0..3)
 *   content size           0, 2, 4 or 8 bytes little-endian (content-size flag 0..3), except
 *                          that flag 0 in a single-segment frame means 1 byte; the 2-byte form
 *                          stores the size minus 256
 * </pre>
 * A frame without a content size, a skippable frame or any other magic is rejected, as C++
 * LevelDB rejects it (it sizes its output from the content size).
 *
 * <p>Bound on expansion: every block costs at least four bytes (a 3-byte block header and one
 * byte of an RLE block) and produces at most 128 KiB, so the bytes after the header decode to at
 * most {@code 32768} times their number. A content size above that is corrupt.
 *
 * <p>Thread safety: stateless.
 */
final class ZstdFrameHeader {
    static final String ALGORITHM = "zstd";

    static final int MAGIC = 0xFD2FB528;
    private static final int MAX_OUTPUT_PER_BODY_BYTE = 128 * 1024 / 4;

    private ZstdFrameHeader() {}

    /**
     * Parses and validates the content size of the frame between the buffer's position and limit,
     * leaving the buffer unchanged.
     *
     * @throws org.iq80.leveldb.CorruptionException if the header is truncated or malformed, carries
     *     no content size, or announces more than the frame can produce or than
     *     {@link CodecIds#MAX_UNCOMPRESSED_LENGTH}
     */
    static int contentSize(ByteBuffer frame) {
        int p = frame.position();
        int end = frame.limit();
        if (end - p < 5 || littleEndian(frame, p, 4) != (MAGIC & 0xFFFFFFFFL)) {
            throw CodecSupport.length(ALGORITHM);
        }
        int descriptor = frame.get(p + 4) & 0xff;
        p += 5;
        int sizeFlag = descriptor >>> 6;
        boolean singleSegment = (descriptor & 0x20) != 0;
        boolean reservedBitSet = (descriptor & 0x08) != 0;
        int dictionaryFlag = descriptor & 0x03;
        if (reservedBitSet || (sizeFlag == 0 && !singleSegment)) {
            throw CodecSupport.length(ALGORITHM);
        }
        p += singleSegment ? 0 : 1;
        p += dictionaryFlag == 3 ? 4 : dictionaryFlag;
        int sizeBytes = sizeFlag == 0 ? 1 : 1 << sizeFlag;
        if (end - p < sizeBytes) {
            throw CodecSupport.length(ALGORITHM);
        }
        long size = littleEndian(frame, p, sizeBytes) + (sizeBytes == 2 ? 256 : 0);
        long body = end - p - sizeBytes;
        if (size < 0 || size > CodecIds.MAX_UNCOMPRESSED_LENGTH
                || size > body * MAX_OUTPUT_PER_BODY_BYTE) {
            throw CodecSupport.length(ALGORITHM);
        }
        return (int) size;
    }

    private static long littleEndian(ByteBuffer buffer, int at, int bytes) {
        long value = 0;
        for (int i = 0; i < bytes; i++) {
            value |= (long) (buffer.get(at + i) & 0xff) << (8 * i);
        }
        return value;
    }
}
