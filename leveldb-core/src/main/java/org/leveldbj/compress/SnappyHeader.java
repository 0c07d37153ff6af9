package org.leveldbj.compress;

import java.nio.ByteBuffer;

/**
 * The length header of a raw snappy block: the decoded length as a little-endian base-128 varint
 * of at most five bytes (at most 32 bits), followed by the tagged elements.
 *
 * <p>Bound on expansion: the element that produces the most output per input byte is a copy with
 * a two-byte offset (one tag byte plus two offset bytes, producing at most 64 bytes), so a body of
 * {@code n} bytes decodes to at most {@code 64 * n / 3} bytes. A header announcing more is corrupt.
 *
 * <p>Thread safety: stateless.
 */
final class SnappyHeader {
    static final String ALGORITHM = "snappy";

    private static final int MAX_VARINT_BYTES = 5;
    private static final int MAX_OUTPUT_PER_ELEMENT = 64;
    private static final int MIN_BYTES_PER_ELEMENT = 3;

    private SnappyHeader() {}

    /**
     * Parses and validates the announced decoded length of the block between the buffer's
     * position and limit, leaving the buffer unchanged.
     *
     * @throws org.iq80.leveldb.CorruptionException if the varint is truncated, overlong or
     *     announces more than the body can produce or than {@link CodecIds#MAX_UNCOMPRESSED_LENGTH}
     */
    static int uncompressedLength(ByteBuffer block) {
        int start = block.position();
        int end = block.limit();
        long value = 0;
        int i = 0;
        while (true) {
            if (i == MAX_VARINT_BYTES || start + i >= end) {
                throw CodecSupport.length(ALGORITHM);
            }
            int b = block.get(start + i) & 0xff;
            value |= (long) (b & 0x7f) << (7 * i);
            i++;
            if (b < 0x80) {
                break;
            }
        }
        long body = end - start - i;
        if (value > CodecIds.MAX_UNCOMPRESSED_LENGTH
                || value > body * MAX_OUTPUT_PER_ELEMENT / MIN_BYTES_PER_ELEMENT) {
            throw CodecSupport.length(ALGORITHM);
        }
        return (int) value;
    }
}
