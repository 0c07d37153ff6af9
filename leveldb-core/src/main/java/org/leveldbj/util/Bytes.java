package org.leveldbj.util;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Unsigned lexicographic comparison of byte strings (LevelDB's bytewise order) and readable
 * renderings of bytes for messages.
 *
 * <p>Thread safety: stateless.
 */
public final class Bytes {
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private Bytes() {
    }

    /**
     * The first byte string, in unsigned byte-wise order, after every string that begins with
     * {@code prefix}: the prefix without its trailing {@code 0xff} bytes, its last byte then
     * incremented.
     *
     * @param prefix the prefix
     * @return a new array, or {@code null} when there is none (the prefix is empty or all
     *     {@code 0xff})
     */
    public static byte[] prefixSuccessor(byte[] prefix) {
        int n = prefix.length;
        while (n > 0 && prefix[n - 1] == (byte) 0xff) {
            n--;
        }
        if (n == 0) {
            return null;
        }
        byte[] end = java.util.Arrays.copyOf(prefix, n);
        end[n - 1]++;
        return end;
    }

    /**
     * Compares two arrays as unsigned byte strings.
     *
     * @param a the first string
     * @param b the second string
     * @return negative, zero or positive as {@code a} sorts before, with or after {@code b}
     */
    public static int compare(byte[] a, byte[] b) {
        return Arrays.compareUnsigned(a, b);
    }

    /**
     * Compares two buffer ranges as unsigned byte strings, using absolute indexes.
     *
     * @param a the first buffer
     * @param aOffset index of the first byte of the first string
     * @param aLength length of the first string
     * @param b the second buffer
     * @param bOffset index of the first byte of the second string
     * @param bLength length of the second string
     * @return negative, zero or positive as the first string sorts before, with or after the
     *     second
     */
    public static int compare(ByteBuffer a, int aOffset, int aLength,
                              ByteBuffer b, int bOffset, int bLength) {
        int i = a.slice(aOffset, aLength).mismatch(b.slice(bOffset, bLength));
        if (i < 0 || i >= aLength || i >= bLength) {
            return aLength - bLength;
        }
        return Byte.toUnsignedInt(a.get(aOffset + i)) - Byte.toUnsignedInt(b.get(bOffset + i));
    }

    /**
     * Compares an array with a buffer range as unsigned byte strings.
     *
     * @param a the array
     * @param b the buffer
     * @param bOffset index of the first byte of the second string
     * @param bLength length of the second string
     * @return negative, zero or positive as {@code a} sorts before, with or after the range
     */
    public static int compare(byte[] a, ByteBuffer b, int bOffset, int bLength) {
        return compare(ByteBuffer.wrap(a), 0, a.length, b, bOffset, bLength);
    }

    /**
     * Copies a buffer range into a new array, without moving the buffer's position.
     *
     * @param src the buffer
     * @param offset the absolute index of the first byte
     * @param length how many bytes
     * @return a new array holding the bytes
     */
    public static byte[] copy(ByteBuffer src, int offset, int length) {
        byte[] out = new byte[length];
        src.get(offset, out, 0, length);
        return out;
    }

    /**
     * Returns the remaining bytes of a buffer as a new array, without moving its position.
     *
     * @param src the buffer
     * @return a new array holding the bytes between position and limit
     */
    public static byte[] toArray(ByteBuffer src) {
        return copy(src, src.position(), src.remaining());
    }

    /**
     * Renders bytes as lowercase hexadecimal.
     *
     * @param data the bytes
     * @return two hex digits per byte
     */
    public static String hex(byte[] data) {
        char[] out = new char[data.length * 2];
        for (int i = 0; i < data.length; i++) {
            out[2 * i] = HEX[(data[i] >> 4) & 0xf];
            out[2 * i + 1] = HEX[data[i] & 0xf];
        }
        return new String(out);
    }

    /**
     * Renders bytes as text for messages: printable ASCII as itself, everything else (and the
     * backslash) as {@code \xNN}.
     *
     * @param data the bytes
     * @return the escaped text
     */
    public static String escape(byte[] data) {
        StringBuilder sb = new StringBuilder(data.length);
        for (byte b : data) {
            int c = b & 0xff;
            if (c >= 0x20 && c < 0x7f && c != '\\') {
                sb.append((char) c);
            } else {
                sb.append("\\x").append(HEX[c >> 4]).append(HEX[c & 0xf]);
            }
        }
        return sb.toString();
    }
}
