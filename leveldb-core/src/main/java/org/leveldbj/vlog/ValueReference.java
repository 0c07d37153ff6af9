package org.leveldbj.vlog;

import java.nio.ByteBuffer;
import org.iq80.leveldb.CorruptionException;
import org.leveldbj.util.ByteCursor;
import org.leveldbj.util.ByteSink;

/**
 * Where a separated value lives: its value file, the offset and size of its record there, and
 * the value's length. Encoded as described in the package documentation.
 *
 * @param fileNumber the value file's number
 * @param offset the offset of the record in the file
 * @param recordSize the size of the whole record (checksum, lengths, key and value)
 * @param valueLength the length of the value alone
 */
public record ValueReference(long fileNumber, long offset, int recordSize, int valueLength) {
    /** The most bytes an encoded reference takes. */
    public static final int MAX_ENCODED_LENGTH = 10 + 10 + 5 + 5;

    /**
     * Checks the parts.
     *
     * @throws IllegalArgumentException if a part is negative or the value cannot fit the record
     */
    public ValueReference {
        if (fileNumber < 0 || offset < 0 || recordSize < 0 || valueLength < 0 || valueLength > recordSize) {
            throw new IllegalArgumentException("bad value reference: file " + fileNumber + ", offset " + offset
                    + ", record " + recordSize + " bytes, value " + valueLength + " bytes");
        }
    }

    /**
     * The offset just past the record.
     *
     * @return {@code offset + recordSize}
     */
    public long end() {
        return offset + recordSize;
    }

    /**
     * Appends the encoding.
     *
     * @param sink where it goes
     */
    public void encodeTo(ByteSink sink) {
        sink.putVarint64(fileNumber).putVarint64(offset).putVarint32(recordSize).putVarint32(valueLength);
    }

    /**
     * The encoding as a new array.
     *
     * @return the encoded reference
     */
    public byte[] encode() {
        ByteSink sink = new ByteSink(MAX_ENCODED_LENGTH);
        encodeTo(sink);
        return sink.toByteArray();
    }

    /**
     * Decodes a reference that fills {@code length} bytes of an array exactly.
     *
     * @param data the array
     * @param offset where the encoding starts
     * @param length its length
     * @return the reference
     * @throws CorruptionException if the bytes are not exactly one well-formed reference
     */
    public static ValueReference decode(byte[] data, int offset, int length) {
        return decode(ByteBuffer.wrap(data, offset, length));
    }

    /**
     * Decodes a reference that fills the remaining bytes of a buffer exactly, without moving it.
     *
     * @param encoded the encoding
     * @return the reference
     * @throws CorruptionException if the bytes are not exactly one well-formed reference
     */
    public static ValueReference decode(ByteBuffer encoded) {
        ByteCursor in = new ByteCursor(encoded, encoded.position(), encoded.remaining());
        long file;
        long offset;
        int recordSize;
        int valueLength;
        try {
            file = in.readVarint64();
            offset = in.readVarint64();
            recordSize = in.readVarint32();
            valueLength = in.readVarint32();
        } catch (CorruptionException e) {
            throw new CorruptionException("bad value reference: " + e.reason());
        }
        if (in.hasRemaining()) {
            throw new CorruptionException("bad value reference: " + in.remaining() + " bytes left over");
        }
        try {
            return new ValueReference(file, offset, recordSize, valueLength);
        } catch (IllegalArgumentException e) {
            throw new CorruptionException(e.getMessage());
        }
    }
}
