package org.leveldbj.table;

import java.nio.ByteBuffer;
import org.iq80.leveldb.CorruptionException;
import org.leveldbj.util.ByteCursor;
import org.leveldbj.util.ByteSink;
import org.leveldbj.util.Coding;

/**
 * Where a block lies in a table file: its offset and its size, the size excluding the 5-byte
 * trailer. Encoded as two varint64s, at most {@link #MAX_ENCODED_LENGTH} bytes.
 *
 * @param offset the offset of the block's first byte in the file
 * @param size the number of bytes of block contents (as stored, i.e. possibly compressed)
 */
public record BlockHandle(long offset, long size) {
    /** The most bytes an encoded handle takes: two varint64s of up to 10 bytes. */
    public static final int MAX_ENCODED_LENGTH = 2 * Coding.MAX_VARINT64_LENGTH;

    /**
     * Appends the encoding of this handle.
     *
     * @param dst where to append
     */
    public void encodeTo(ByteSink dst) {
        dst.putVarint64(offset).putVarint64(size);
    }

    /**
     * Returns the encoding of this handle.
     *
     * @return a new array of 2 to 20 bytes
     */
    public byte[] encode() {
        ByteSink sink = new ByteSink(MAX_ENCODED_LENGTH);
        encodeTo(sink);
        return sink.toByteArray();
    }

    /**
     * Decodes a handle from the start of a buffer range; bytes after the handle are ignored
     * (index values may carry more fields in later versions).
     *
     * @param src the buffer
     * @param offset the absolute index of the encoding
     * @param length how many bytes may be read
     * @return the handle
     * @throws CorruptionException {@code "bad block handle"} (with the offset relative to
     *     {@code offset}) if the varints are malformed or truncated, or if the offset or size
     *     is beyond what a file can hold
     */
    public static BlockHandle decode(ByteBuffer src, int offset, int length) {
        return decode(new ByteCursor(src, offset, length));
    }

    /**
     * Decodes a handle at a cursor and moves the cursor past it.
     *
     * @param in the cursor
     * @return the handle
     * @throws CorruptionException {@code "bad block handle"} with the cursor-relative offset of
     *     the handle if it is malformed
     */
    public static BlockHandle decode(ByteCursor in) {
        int at = in.offset();
        long offset;
        long size;
        try {
            offset = in.readVarint64();
            size = in.readVarint64();
        } catch (CorruptionException e) {
            throw new CorruptionException("bad block handle: " + e.reason(), null, at);
        }
        if (offset < 0 || size < 0) {
            throw new CorruptionException("bad block handle: offset " + Long.toUnsignedString(offset)
                    + ", size " + Long.toUnsignedString(size), null, at);
        }
        return new BlockHandle(offset, size);
    }

    /**
     * Decodes a handle from the remaining bytes of a buffer; see
     * {@link #decode(ByteBuffer, int, int)}.
     *
     * @param src the buffer (position not moved)
     * @return the handle
     * @throws CorruptionException if the encoding is malformed
     */
    public static BlockHandle decode(ByteBuffer src) {
        return decode(src, src.position(), src.remaining());
    }
}
