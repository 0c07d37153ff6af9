package org.leveldbj.util;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * CRC32C (Castagnoli) checksums as LevelDB stores them.
 *
 * <p>LevelDB never stores a raw CRC next to data that may itself contain CRCs: it stores the
 * masked value {@code rotateRight(crc, 15) + 0xa282ead8}, so that computing the CRC of a string
 * that embeds CRCs does not degenerate.
 *
 * <p>Thread safety: stateless.
 */
public final class Crc32c {
    private static final int MASK_DELTA = 0xa282ead8;

    private Crc32c() {
    }

    /**
     * Returns the CRC32C of a range of an array.
     *
     * @param data the array
     * @param offset the first byte
     * @param length how many bytes
     * @return the unmasked checksum
     */
    public static int value(byte[] data, int offset, int length) {
        CRC32C crc = new CRC32C();
        crc.update(data, offset, length);
        return (int) crc.getValue();
    }

    /**
     * Returns the CRC32C of the bytes between {@code offset} and {@code offset + length} of a
     * buffer, without moving its position.
     *
     * @param data the buffer
     * @param offset the absolute index of the first byte
     * @param length how many bytes
     * @return the unmasked checksum
     */
    public static int value(ByteBuffer data, int offset, int length) {
        CRC32C crc = new CRC32C();
        crc.update(data.duplicate().limit(offset + length).position(offset));
        return (int) crc.getValue();
    }

    /**
     * Returns the CRC32C of one leading byte followed by a range of a buffer, as the log format
     * checksums a record type and its payload.
     *
     * @param first the leading byte
     * @param data the buffer
     * @param offset the absolute index of the first byte of the range
     * @param length how many bytes
     * @return the unmasked checksum
     */
    public static int value(byte first, ByteBuffer data, int offset, int length) {
        CRC32C crc = new CRC32C();
        crc.update(first);
        crc.update(data.duplicate().limit(offset + length).position(offset));
        return (int) crc.getValue();
    }

    /**
     * Returns the masked form of a checksum, the form LevelDB stores.
     *
     * @param crc the checksum
     * @return the masked value
     */
    public static int mask(int crc) {
        return Integer.rotateRight(crc, 15) + MASK_DELTA;
    }

    /**
     * Returns the checksum a masked value was made from.
     *
     * @param masked a value produced by {@link #mask}
     * @return the checksum
     */
    public static int unmask(int masked) {
        return Integer.rotateLeft(masked - MASK_DELTA, 15);
    }
}
