package org.leveldbj.table;

import java.nio.ByteBuffer;
import org.iq80.leveldb.CorruptionException;
import org.leveldbj.util.ByteCursor;
import org.leveldbj.util.ByteSink;
import org.leveldbj.util.Coding;

/**
 * The fixed-size tail of every table file: the handles of the metaindex and index blocks,
 * zero padding to 40 bytes, and the 8-byte magic number (layout in the package documentation).
 *
 * @param metaindex where the metaindex block is
 * @param index where the index block is
 */
public record Footer(BlockHandle metaindex, BlockHandle index) {
    /** The encoded size: two maximal handles plus the magic number. */
    public static final int ENCODED_LENGTH = 2 * BlockHandle.MAX_ENCODED_LENGTH + 8;

    /** The magic number that ends every table file, stored little-endian. */
    public static final long TABLE_MAGIC_NUMBER = 0xdb4775248b80fb57L;

    /**
     * Returns the 48-byte encoding.
     *
     * @return a new array of {@link #ENCODED_LENGTH} bytes
     */
    public byte[] encode() {
        ByteSink sink = new ByteSink(ENCODED_LENGTH);
        metaindex.encodeTo(sink);
        index.encodeTo(sink);
        while (sink.length() < 2 * BlockHandle.MAX_ENCODED_LENGTH) {
            sink.putByte(0);
        }
        sink.putFixed32((int) TABLE_MAGIC_NUMBER);
        sink.putFixed32((int) (TABLE_MAGIC_NUMBER >>> 32));
        assert sink.length() == ENCODED_LENGTH;
        return sink.toByteArray();
    }

    /**
     * Decodes a footer. The padding is not checked, as C++ LevelDB does not check it.
     *
     * @param src the buffer holding the footer
     * @param offset the absolute index of its first byte
     * @param length the bytes available, at least {@link #ENCODED_LENGTH} for a valid footer
     * @return the footer
     * @throws CorruptionException with offsets relative to {@code offset}: {@code "not an
     *     sstable (footer too short)"}, {@code "not an sstable (bad magic number)"} or
     *     {@code "bad block handle"}
     */
    public static Footer decode(ByteBuffer src, int offset, int length) {
        if (length < ENCODED_LENGTH) {
            throw new CorruptionException("not an sstable (footer too short)", null, 0);
        }
        int magicAt = offset + ENCODED_LENGTH - 8;
        long magic = Coding.getFixed64(src, magicAt, offset + length);
        if (magic != TABLE_MAGIC_NUMBER) {
            throw new CorruptionException("not an sstable (bad magic number)", null, ENCODED_LENGTH - 8);
        }
        ByteCursor in = new ByteCursor(src, offset, ENCODED_LENGTH - 8);
        BlockHandle metaindex = BlockHandle.decode(in);
        BlockHandle index = BlockHandle.decode(in);
        return new Footer(metaindex, index);
    }
}
