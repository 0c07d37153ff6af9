package org.leveldbj.util;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * A growable byte array that encoders append to: fixed-width integers, varints, raw bytes and
 * length-prefixed slices. Reusable: {@link #reset()} empties it and keeps its capacity.
 *
 * <p>Thread safety: confined to one thread.
 */
public final class ByteSink {
    private byte[] buf;
    private int length;

    /** Creates an empty sink with a small initial capacity. */
    public ByteSink() {
        this(64);
    }

    /**
     * Creates an empty sink.
     *
     * @param capacity the initial capacity in bytes
     */
    public ByteSink(int capacity) {
        buf = new byte[Math.max(capacity, 16)];
    }

    /**
     * The number of bytes written.
     *
     * @return the length
     */
    public int length() {
        return length;
    }

    /**
     * The backing array; bytes {@code [0, length())} are the content. The array is replaced
     * when the sink grows, so do not keep it across writes.
     *
     * @return the backing array
     */
    public byte[] array() {
        return buf;
    }

    /** Empties the sink, keeping its capacity. */
    public void reset() {
        length = 0;
    }

    /**
     * Drops bytes from the end.
     *
     * @param newLength the length to keep, at most {@link #length()}
     */
    public void truncate(int newLength) {
        if (newLength < 0 || newLength > length) {
            throw new IllegalArgumentException("newLength " + newLength + " outside [0, " + length + "]");
        }
        length = newLength;
    }

    /**
     * Returns a copy of the content.
     *
     * @return a new array of {@link #length()} bytes
     */
    public byte[] toByteArray() {
        return Arrays.copyOf(buf, length);
    }

    /**
     * Returns a heap buffer viewing the content (no copy); valid until the next write.
     *
     * @return a buffer with position 0 and limit {@link #length()}
     */
    public ByteBuffer view() {
        return ByteBuffer.wrap(buf, 0, length);
    }

    /**
     * Makes room for {@code n} more bytes.
     *
     * @param n how many bytes will be written next
     */
    public void ensureRoom(int n) {
        long needed = (long) length + n;
        if (needed > buf.length) {
            if (needed > Integer.MAX_VALUE - 8) {
                throw new IllegalStateException("ByteSink cannot grow past 2 GiB (needs " + needed + ")");
            }
            buf = Arrays.copyOf(buf, (int) Math.min(Integer.MAX_VALUE - 8, Math.max(needed, 2L * buf.length)));
        }
    }

    /**
     * Counts {@code n} bytes written directly into {@link #array()} after {@link #ensureRoom}.
     *
     * @param n how many bytes were written past {@link #length()}
     */
    public void advance(int n) {
        if (n < 0 || (long) length + n > buf.length) {
            throw new IllegalArgumentException("cannot advance " + n + " bytes from " + length
                    + " in a capacity of " + buf.length);
        }
        length += n;
    }

    /**
     * Appends one byte.
     *
     * @param b the byte (low 8 bits)
     * @return this sink
     */
    public ByteSink putByte(int b) {
        ensureRoom(1);
        buf[length++] = (byte) b;
        return this;
    }

    /**
     * Appends bytes.
     *
     * @param src the bytes
     * @return this sink
     */
    public ByteSink put(byte[] src) {
        return put(src, 0, src.length);
    }

    /**
     * Appends a range of an array.
     *
     * @param src the array
     * @param offset the first byte
     * @param len how many bytes
     * @return this sink
     */
    public ByteSink put(byte[] src, int offset, int len) {
        ensureRoom(len);
        System.arraycopy(src, offset, buf, length, len);
        length += len;
        return this;
    }

    /**
     * Appends a range of a buffer, using absolute indexes (the buffer's position is not moved).
     *
     * @param src the buffer
     * @param offset the absolute index of the first byte
     * @param len how many bytes
     * @return this sink
     */
    public ByteSink put(ByteBuffer src, int offset, int len) {
        ensureRoom(len);
        src.get(offset, buf, length, len);
        length += len;
        return this;
    }

    /**
     * Appends a fixed32.
     *
     * @param value the value
     * @return this sink
     */
    public ByteSink putFixed32(int value) {
        ensureRoom(4);
        Coding.putFixed32(buf, length, value);
        length += 4;
        return this;
    }

    /**
     * Appends a fixed64.
     *
     * @param value the value
     * @return this sink
     */
    public ByteSink putFixed64(long value) {
        ensureRoom(8);
        Coding.putFixed64(buf, length, value);
        length += 8;
        return this;
    }

    /**
     * Appends a varint32.
     *
     * @param value the value, read as unsigned
     * @return this sink
     */
    public ByteSink putVarint32(int value) {
        if (buf.length - length < Coding.MAX_VARINT32_LENGTH) {
            ensureRoom(Coding.varintLength(Integer.toUnsignedLong(value))); // an exact array stays
        }
        length = Coding.putVarint32(buf, length, value);
        return this;
    }

    /**
     * Appends a varint64.
     *
     * @param value the value, read as unsigned
     * @return this sink
     */
    public ByteSink putVarint64(long value) {
        if (buf.length - length < Coding.MAX_VARINT64_LENGTH) {
            ensureRoom(Coding.varintLength(value));
        }
        length = Coding.putVarint64(buf, length, value);
        return this;
    }

    /**
     * Appends a length-prefixed slice: a varint32 length, then the bytes.
     *
     * @param src the bytes
     * @return this sink
     */
    public ByteSink putLengthPrefixed(byte[] src) {
        return putVarint32(src.length).put(src);
    }
}
