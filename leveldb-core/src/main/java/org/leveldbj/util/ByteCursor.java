package org.leveldbj.util;

import java.nio.ByteBuffer;
import org.iq80.leveldb.CorruptionException;

/**
 * A bounded reader over a range of a buffer: each read checks that its bytes lie before the
 * limit and reports a {@link CorruptionException} naming the offset and what was being read
 * otherwise. Offsets in reports are relative to the start of the range, so that the caller can
 * place them in a file with {@link CorruptionException#at(String, long)}.
 *
 * <p>Thread safety: confined to one thread. The cursor never moves the underlying buffer's
 * position.
 */
public final class ByteCursor {
    private final ByteBuffer buf;
    private final int start;
    private final int limit;
    private int pos;

    /**
     * Reads the remaining bytes of a buffer.
     *
     * @param buf the buffer; bytes between its position and limit are read
     */
    public ByteCursor(ByteBuffer buf) {
        this(buf, buf.position(), buf.remaining());
    }

    /**
     * Reads an array.
     *
     * @param data the bytes to read
     */
    public ByteCursor(byte[] data) {
        this(ByteBuffer.wrap(data));
    }

    /**
     * Reads a range of a buffer.
     *
     * @param buf the buffer
     * @param offset the absolute index of the first byte
     * @param length how many bytes may be read
     */
    public ByteCursor(ByteBuffer buf, int offset, int length) {
        this.buf = buf;
        this.start = offset;
        this.limit = offset + length;
        this.pos = offset;
    }

    /**
     * How far into the range the cursor is.
     *
     * @return the number of bytes consumed
     */
    public int offset() {
        return pos - start;
    }

    /**
     * How many bytes are left.
     *
     * @return the remaining length
     */
    public int remaining() {
        return limit - pos;
    }

    /**
     * Tells whether any byte is left.
     *
     * @return {@code true} while bytes remain
     */
    public boolean hasRemaining() {
        return pos < limit;
    }

    /**
     * Reads one unsigned byte.
     *
     * @return 0 to 255
     * @throws CorruptionException if no byte is left
     */
    public int readUnsignedByte() {
        need(1, "byte");
        return Byte.toUnsignedInt(buf.get(pos++));
    }

    /**
     * Reads a fixed32.
     *
     * @return the value
     * @throws CorruptionException if fewer than 4 bytes are left
     */
    public int readFixed32() {
        need(4, "fixed32");
        int v = Coding.getFixed32(buf, pos, limit);
        pos += 4;
        return v;
    }

    /**
     * Reads a fixed64.
     *
     * @return the value
     * @throws CorruptionException if fewer than 8 bytes are left
     */
    public long readFixed64() {
        need(8, "fixed64");
        long v = Coding.getFixed64(buf, pos, limit);
        pos += 8;
        return v;
    }

    /**
     * Reads a varint32.
     *
     * @return the value (unsigned values above {@code Integer.MAX_VALUE} come back negative)
     * @throws CorruptionException if the varint is truncated or longer than 5 bytes
     */
    public int readVarint32() {
        long packed;
        try {
            packed = Coding.getVarint32(buf, pos, limit);
        } catch (CorruptionException e) {
            throw relative(e.reason());
        }
        pos = Coding.next(packed);
        return Coding.value(packed);
    }

    /**
     * Reads a varint64.
     *
     * @return the value
     * @throws CorruptionException if the varint is truncated or longer than 10 bytes
     */
    public long readVarint64() {
        long result = 0;
        for (int shift = 0, i = pos; shift <= 63; shift += 7, i++) {
            if (i >= limit) {
                throw relative("truncated varint64");
            }
            int b = buf.get(i);
            result |= (long) (b & 0x7f) << shift;
            if ((b & 0x80) == 0) {
                pos = i + 1;
                return result;
            }
        }
        throw relative("bad varint64");
    }

    /**
     * Reads a varint32 that must be a length or count: non-negative and at most what is left.
     *
     * @param what what the number counts, for the report
     * @return the length
     * @throws CorruptionException if malformed or larger than the bytes left
     */
    public int readLength(String what) {
        int at = pos;
        int n = readVarint32();
        int left = remaining();
        if (n < 0 || n > left) {
            pos = at;
            throw relative("bad " + what + " length " + Integer.toUnsignedString(n)
                    + " (" + left + " bytes left)");
        }
        return n;
    }

    /**
     * Reads {@code n} bytes into a new array.
     *
     * @param n how many bytes
     * @return the bytes
     * @throws CorruptionException if fewer than {@code n} bytes are left
     */
    public byte[] readBytes(int n) {
        need(n, n + " bytes");
        byte[] out = Bytes.copy(buf, pos, n);
        pos += n;
        return out;
    }

    /**
     * Returns a view of the next {@code n} bytes (no copy) and skips them.
     *
     * @param n how many bytes
     * @return a buffer whose position is 0 and limit {@code n}, sharing the content
     * @throws CorruptionException if fewer than {@code n} bytes are left
     */
    public ByteBuffer readSlice(int n) {
        need(n, n + " bytes");
        ByteBuffer out = buf.slice(pos, n);
        pos += n;
        return out;
    }

    /**
     * Reads a length-prefixed slice into a new array.
     *
     * @param what what the slice holds, for the report
     * @return the bytes
     * @throws CorruptionException if the length is malformed or runs past the end
     */
    public byte[] readLengthPrefixed(String what) {
        return readBytes(readLength(what));
    }

    private void need(int n, String what) {
        if (n < 0 || limit - pos < n) {
            throw relative("truncated " + what + ": " + n + " bytes needed, " + remaining() + " left");
        }
    }

    private CorruptionException relative(String reason) {
        return new CorruptionException(reason, null, pos - start);
    }
}
