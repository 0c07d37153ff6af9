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
 * <p>Combining: {@link #combine} finds the checksum of a concatenation from the checksums of its
 * parts and the second part's length, without the bytes, and {@link #ofTail} the checksum of a
 * range from the checksums of two prefixes. Both rest on the checksum being linear: appending
 * {@code n} bytes to a string multiplies the part of its checksum that the earlier bytes decide by
 * {@code x^(8n)} modulo the CRC32C polynomial, computed here in {@code O(log n)} multiplications
 * from a table of {@code x^(2^k)}. (The bit-reflected representation throughout: bit 31 holds the
 * coefficient of {@code x^0}, bit 0 that of {@code x^31}.) Tables of {@code x^(8n)} for every
 * {@code n} below {@code 2^10}, and for its multiples of {@code 2^10} and {@code 2^20}, make a
 * length below 1 GiB cost at most three multiplications (12 KiB of tables).
 *
 * <p>Thread safety: stateless.
 */
public final class Crc32c {
    private static final int MASK_DELTA = 0xa282ead8;
    /** The CRC32C (Castagnoli) polynomial, bit-reflected, without its {@code x^32} term. */
    private static final int POLYNOMIAL = 0x82f63b78;
    /** The polynomial {@code 1}: the coefficient of {@code x^0} set. */
    private static final int ONE = 1 << 31;
    /** {@code X_POW_2K[k]} is {@code x^(2^k)} modulo the polynomial, for every shift a long length needs. */
    private static final int[] X_POW_2K = new int[3 + 64];
    /** How many bits of a length each table of {@link #X_POW_8N} serves. */
    private static final int TABLE_BITS = 10;
    /** {@code X_POW_8N[t][i]} is {@code x^(8 i 2^(10 t))} modulo the polynomial. */
    private static final int[][] X_POW_8N = new int[3][1 << TABLE_BITS];
    /** The register update of each byte value, for {@link #extend}. */
    private static final int[] BYTE_TABLE = new int[256];

    static {
        for (int n = 0; n < BYTE_TABLE.length; n++) {
            int c = n;
            for (int bit = 0; bit < 8; bit++) {
                c = (c & 1) != 0 ? (c >>> 1) ^ POLYNOMIAL : c >>> 1;
            }
            BYTE_TABLE[n] = c;
        }
        X_POW_2K[0] = ONE >>> 1; // x^1
        for (int k = 1; k < X_POW_2K.length; k++) {
            X_POW_2K[k] = multiplyModP(X_POW_2K[k - 1], X_POW_2K[k - 1]);
        }
        for (int t = 0; t < X_POW_8N.length; t++) {
            int factor = X_POW_2K[3 + TABLE_BITS * t];
            X_POW_8N[t][0] = ONE;
            for (int i = 1; i < X_POW_8N[t].length; i++) {
                X_POW_8N[t][i] = multiplyModP(X_POW_8N[t][i - 1], factor);
            }
        }
    }

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
     * Returns the CRC32C of a string followed by one more byte.
     *
     * @param crc the string's checksum
     * @param b the byte
     * @return the checksum of the longer string
     */
    public static int extend(int crc, byte b) {
        int register = ~crc;
        register = BYTE_TABLE[(register ^ b) & 0xff] ^ (register >>> 8);
        return ~register;
    }

    /**
     * Returns the CRC32C of {@code A} followed by {@code B}, from the CRC32Cs of the two parts.
     *
     * @param crcA the checksum of the first part
     * @param crcB the checksum of the second part
     * @param lengthB the second part's length in bytes, {@code >= 0}
     * @return the checksum of the concatenation
     */
    public static int combine(int crcA, int crcB, long lengthB) {
        assert lengthB >= 0 : lengthB;
        return multiplyModP(xPow8n(lengthB), crcA) ^ crcB;
    }

    /**
     * Returns the CRC32C of the last {@code tailLength} bytes of a string from the CRC32Cs of the
     * string and of what precedes those bytes: the inverse of {@link #combine}. The checksum of
     * bytes {@code [a, b)} of a file is {@code ofTail(crc of [0, a), crc of [0, b), b - a)}.
     *
     * @param crcHead the checksum of the string without its tail
     * @param crcWhole the checksum of the whole string
     * @param tailLength the tail's length in bytes, {@code >= 0}
     * @return the checksum of the tail
     */
    public static int ofTail(int crcHead, int crcWhole, long tailLength) {
        return combine(crcHead, crcWhole, tailLength);
    }

    /** {@code x^(8n)} modulo the polynomial: the factor that appending {@code n} bytes applies. */
    private static int xPow8n(long n) {
        int mask = (1 << TABLE_BITS) - 1;
        int product = X_POW_8N[0][(int) (n & mask)];
        for (int t = 1; t < X_POW_8N.length && (n >>>= TABLE_BITS) != 0; t++) {
            product = multiplyModP(X_POW_8N[t][(int) (n & mask)], product);
        }
        n >>>= TABLE_BITS;
        for (int k = 3 + TABLE_BITS * X_POW_8N.length; n != 0; n >>>= 1, k++) {
            if ((n & 1) != 0) {
                product = multiplyModP(X_POW_2K[k], product);
            }
        }
        return product;
    }

    /** The product of two polynomials modulo the CRC32C polynomial (bit-reflected). */
    private static int multiplyModP(int a, int b) {
        int product = 0;
        for (int bit = ONE; bit != 0; bit >>>= 1) {
            if ((a & bit) != 0) {
                product ^= b;
            }
            b = (b & 1) != 0 ? (b >>> 1) ^ POLYNOMIAL : b >>> 1; // b * x
        }
        return product;
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
