package org.leveldbj.util;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.iq80.leveldb.CorruptionException;

/**
 * Static encoders and bounded decoders for LevelDB's integer encodings (see the package
 * documentation for the byte layouts). Decoders take absolute indexes and never move a
 * buffer's position; they work whatever the buffer's byte order is.
 *
 * <p>Thread safety: stateless.
 */
public final class Coding {
    /** The most bytes a varint32 takes. */
    public static final int MAX_VARINT32_LENGTH = 5;
    /** The most bytes a varint64 takes. */
    public static final int MAX_VARINT64_LENGTH = 10;

    private static final VarHandle ARRAY_INT =
            MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle ARRAY_LONG =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle BUFFER_INT =
            MethodHandles.byteBufferViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle BUFFER_LONG =
            MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private Coding() {
    }

    /**
     * Writes a fixed32.
     *
     * @param dst the array to write into
     * @param index where the 4 bytes start
     * @param value the value
     */
    public static void putFixed32(byte[] dst, int index, int value) {
        ARRAY_INT.set(dst, index, value);
    }

    /**
     * Writes a fixed64.
     *
     * @param dst the array to write into
     * @param index where the 8 bytes start
     * @param value the value
     */
    public static void putFixed64(byte[] dst, int index, long value) {
        ARRAY_LONG.set(dst, index, value);
    }

    /**
     * Reads a fixed32 from an array. Requires: {@code index + 4 <= src.length}.
     *
     * @param src the array
     * @param index where the 4 bytes start
     * @return the value
     */
    public static int getFixed32(byte[] src, int index) {
        return (int) ARRAY_INT.get(src, index);
    }

    /**
     * Reads a fixed64 from an array. Requires: {@code index + 8 <= src.length}.
     *
     * @param src the array
     * @param index where the 8 bytes start
     * @return the value
     */
    public static long getFixed64(byte[] src, int index) {
        return (long) ARRAY_LONG.get(src, index);
    }

    /**
     * Reads a fixed32 at an absolute index of a buffer, checking that it fits below
     * {@code limit}.
     *
     * @param src the buffer
     * @param index where the 4 bytes start
     * @param limit the first index not to read
     * @return the value
     * @throws CorruptionException if the 4 bytes do not fit
     */
    public static int getFixed32(ByteBuffer src, int index, int limit) {
        if (index < 0 || limit - index < 4) {
            throw truncated("fixed32", 4, index, limit);
        }
        return (int) BUFFER_INT.get(src, index);
    }

    /**
     * Reads a fixed64 at an absolute index of a buffer, checking that it fits below
     * {@code limit}.
     *
     * @param src the buffer
     * @param index where the 8 bytes start
     * @param limit the first index not to read
     * @return the value
     * @throws CorruptionException if the 8 bytes do not fit
     */
    public static long getFixed64(ByteBuffer src, int index, int limit) {
        if (index < 0 || limit - index < 8) {
            throw truncated("fixed64", 8, index, limit);
        }
        return (long) BUFFER_LONG.get(src, index);
    }

    /**
     * Returns how many bytes the varint encoding of a value takes. A negative {@code int}
     * widened to {@code long} takes 10 bytes as a varint64; as a varint32 pass it as
     * {@code value & 0xffffffffL}.
     *
     * @param value the value, read as unsigned
     * @return 1 to 10
     */
    public static int varintLength(long value) {
        int bits = 64 - Long.numberOfLeadingZeros(value | 1);
        return (bits + 6) / 7;
    }

    /**
     * Writes a varint32. Requires room for {@link #varintLength} bytes.
     *
     * @param dst the array to write into
     * @param index where the encoding starts
     * @param value the value, read as unsigned
     * @return the index just past the encoding
     */
    public static int putVarint32(byte[] dst, int index, int value) {
        return putVarint64(dst, index, value & 0xffffffffL);
    }

    /**
     * Writes a varint64. Requires room for {@link #varintLength} bytes.
     *
     * @param dst the array to write into
     * @param index where the encoding starts
     * @param value the value, read as unsigned
     * @return the index just past the encoding
     */
    public static int putVarint64(byte[] dst, int index, long value) {
        while ((value & ~0x7fL) != 0) {
            dst[index++] = (byte) ((value & 0x7f) | 0x80);
            value >>>= 7;
        }
        dst[index++] = (byte) value;
        return index;
    }

    /**
     * Decodes a varint32 at an absolute index, reading no byte at or past {@code limit}. The
     * result packs the value in its low 32 bits and the index just past the encoding in its
     * high 32 bits, so no object is allocated: use {@link #value} and {@link #next} to unpack.
     *
     * @param src the buffer
     * @param index where the encoding starts
     * @param limit the first index not to read
     * @return the packed value and next index
     * @throws CorruptionException if the encoding runs past {@code limit} or is longer than 5
     *     bytes
     */
    public static long getVarint32(ByteBuffer src, int index, int limit) {
        int result = 0;
        for (int shift = 0, i = index; shift <= 28; shift += 7, i++) {
            if (i >= limit) {
                throw new CorruptionException("truncated varint32", null, index);
            }
            int b = src.get(i);
            result |= (b & 0x7f) << shift;
            if ((b & 0x80) == 0) {
                return pack(result, i + 1);
            }
        }
        throw new CorruptionException("bad varint32", null, index);
    }

    /**
     * Decodes a varint32 from an array; see {@link #getVarint32(ByteBuffer, int, int)}.
     *
     * @param src the array
     * @param index where the encoding starts
     * @param limit the first index not to read
     * @return the packed value and next index
     * @throws CorruptionException if the encoding runs past {@code limit} or is too long
     */
    public static long getVarint32(byte[] src, int index, int limit) {
        int result = 0;
        for (int shift = 0, i = index; shift <= 28; shift += 7, i++) {
            if (i >= limit) {
                throw new CorruptionException("truncated varint32", null, index);
            }
            int b = src[i];
            result |= (b & 0x7f) << shift;
            if ((b & 0x80) == 0) {
                return pack(result, i + 1);
            }
        }
        throw new CorruptionException("bad varint32", null, index);
    }

    /**
     * The value half of a result of {@link #getVarint32}.
     *
     * @param packed the packed result
     * @return the decoded value
     */
    public static int value(long packed) {
        return (int) packed;
    }

    /**
     * The next-index half of a result of {@link #getVarint32}.
     *
     * @param packed the packed result
     * @return the index just past the decoded varint
     */
    public static int next(long packed) {
        return (int) (packed >>> 32);
    }

    private static long pack(int value, int next) {
        return ((long) next << 32) | (value & 0xffffffffL);
    }

    private static CorruptionException truncated(String what, int size, int index, int limit) {
        return new CorruptionException("truncated " + what + ": " + size + " bytes needed, "
                + Math.max(0, limit - index) + " available", null, index);
    }
}
