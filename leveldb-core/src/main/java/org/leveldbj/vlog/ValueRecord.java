package org.leveldbj.vlog;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32C;
import org.iq80.leveldb.CorruptionException;
import org.leveldbj.util.Coding;
import org.leveldbj.util.Crc32c;

/**
 * The record and file-header layout of value files (see the package documentation): encoding a
 * record's header and checking a whole record.
 *
 * <p>Thread safety: stateless.
 */
final class ValueRecord {
    /** The bytes every value file starts with. */
    static final byte[] MAGIC = "LJVLOG01".getBytes(StandardCharsets.US_ASCII);
    /** The size of the checksum field. */
    static final int CRC_SIZE = 4;
    /** The most bytes a record header takes: checksum and two varint32 lengths. */
    static final int MAX_HEADER_SIZE = CRC_SIZE + 2 * Coding.MAX_VARINT32_LENGTH;

    private ValueRecord() {
    }

    /**
     * The size of a record's header.
     *
     * @param keyLength the key's length
     * @param valueLength the value's length
     * @return checksum plus the two encoded lengths
     */
    static int headerSize(int keyLength, int valueLength) {
        return CRC_SIZE + Coding.varintLength(keyLength) + Coding.varintLength(valueLength);
    }

    /**
     * Writes a record's header into {@code header} (at least {@link #MAX_HEADER_SIZE} bytes).
     *
     * @return the header's size
     */
    static int encodeHeader(byte[] header, byte[] key, int keyOffset, int keyLength,
                            byte[] value, int valueOffset, int valueLength) {
        int p = CRC_SIZE;
        p = Coding.putVarint32(header, p, keyLength);
        p = Coding.putVarint32(header, p, valueLength);
        CRC32C crc = new CRC32C();
        crc.update(header, CRC_SIZE, p - CRC_SIZE);
        crc.update(key, keyOffset, keyLength);
        crc.update(value, valueOffset, valueLength);
        Coding.putFixed32(header, 0, Crc32c.mask((int) crc.getValue()));
        return p;
    }

    /**
     * A checked record: where its key and value lie in the buffer it was read into.
     *
     * @param keyOffset absolute index of the key
     * @param keyLength the key's length
     * @param valueOffset absolute index of the value
     * @param valueLength the value's length
     */
    record Parsed(int keyOffset, int keyLength, int valueOffset, int valueLength) {
        /** @return the index just past the record */
        int end() {
            return valueOffset + valueLength;
        }
    }

    /**
     * Decodes a record's header: where its key and value would lie, without checking that they
     * lie within the data or the checksum ({@link Parsed#end()} is the record's end, and may be
     * past the data).
     *
     * @param data the bytes read; its position is the record's first byte; not moved
     * @param fileName the value file, for reports
     * @param fileOffset the record's offset in the file, for reports
     * @return the parts the header announces
     * @throws CorruptionException if the header is cut short or malformed, or the record would
     *     exceed 2 GiB
     */
    static Parsed header(ByteBuffer data, String fileName, long fileOffset) {
        int start = data.position();
        int limit = data.limit();
        if (limit - start < CRC_SIZE + 2) {
            throw new CorruptionException("truncated value record: header runs past the data", fileName, fileOffset);
        }
        int keyLength;
        int valueLength;
        int keyOffset;
        try {
            long k = Coding.getVarint32(data, start + CRC_SIZE, limit);
            long v = Coding.getVarint32(data, Coding.next(k), limit);
            keyLength = Coding.value(k);
            valueLength = Coding.value(v);
            keyOffset = Coding.next(v);
        } catch (CorruptionException e) {
            throw new CorruptionException("bad value record header: " + e.reason(), fileName, fileOffset);
        }
        if (keyLength < 0 || valueLength < 0 || (long) keyOffset + keyLength + valueLength > Integer.MAX_VALUE) {
            throw new CorruptionException("bad value record header: length out of range", fileName, fileOffset);
        }
        return new Parsed(keyOffset, keyLength, keyOffset + keyLength, valueLength);
    }

    /**
     * The size of the record whose header starts at an index, if the header is well-formed: as
     * {@link #header} decides, without an exception (for trying many offsets).
     *
     * @param data the bytes read; not moved
     * @param start the absolute index of the record's first byte
     * @param limit the first index not to read
     * @return the size the header announces (checksum, lengths, key and value), or {@code -1}
     *     when {@link #header} would throw
     */
    static long announcedSize(ByteBuffer data, int start, int limit) {
        if (limit - start < CRC_SIZE + 2) {
            return -1;
        }
        int at = start + CRC_SIZE;
        long keyLength = 0;
        long valueLength = 0;
        for (int field = 0; field < 2; field++) {
            long value = 0;
            int shift = 0;
            while (true) {
                if (at >= limit || shift > 28) {
                    return -1; // runs past the data, or longer than five bytes
                }
                int b = data.get(at++);
                value |= (long) (b & 0x7f) << shift;
                shift += 7;
                if ((b & 0x80) == 0) {
                    break;
                }
            }
            if (field == 0) {
                keyLength = (int) value; // as Coding.getVarint32 decodes: the low 32 bits
            } else {
                valueLength = (int) value;
            }
        }
        if (keyLength < 0 || valueLength < 0 || at + keyLength + valueLength > Integer.MAX_VALUE) {
            return -1;
        }
        return at - start + keyLength + valueLength;
    }

    /**
     * Checks the record at the start of {@code data}'s remaining bytes, which must hold it
     * whole (and may hold more after it).
     *
     * @param data the bytes read; its position is the record's first byte; not moved
     * @param fileName the value file, for reports
     * @param fileOffset the record's offset in the file, for reports
     * @return the record's parts
     * @throws CorruptionException if the header is malformed, the record runs past the bytes
     *     given ("truncated value record"), or the checksum does not match
     */
    static Parsed parse(ByteBuffer data, String fileName, long fileOffset) {
        return parse(data, fileName, fileOffset, true);
    }

    /**
     * Checks a record as {@link #parse(ByteBuffer, String, long)} does, the checksum only when
     * asked to.
     *
     * @param data the bytes read; its position is the record's first byte; not moved
     * @param fileName the value file, for reports
     * @param fileOffset the record's offset in the file, for reports
     * @param verifyChecksum whether to check the checksum
     * @return the record's parts
     * @throws CorruptionException if the header is malformed, the record runs past the bytes
     *     given, or (when checked) the checksum does not match
     */
    static Parsed parse(ByteBuffer data, String fileName, long fileOffset, boolean verifyChecksum) {
        int start = data.position();
        int limit = data.limit();
        Parsed header = header(data, fileName, fileOffset);
        int keyOffset = header.keyOffset();
        int keyLength = header.keyLength();
        int valueLength = header.valueLength();
        if ((long) keyLength + valueLength > limit - keyOffset) {
            throw new CorruptionException("truncated value record: " + keyLength + "-byte key and " + valueLength
                    + "-byte value run past the data", fileName, fileOffset);
        }
        if (verifyChecksum) {
            int expected = Crc32c.unmask(Coding.getFixed32(data, start, limit));
            int actual = Crc32c.value(data, start + CRC_SIZE, keyOffset + keyLength + valueLength - start - CRC_SIZE);
            if (actual != expected) {
                throw new CorruptionException("value record checksum mismatch", fileName, fileOffset);
            }
        }
        return new Parsed(keyOffset, keyLength, keyOffset + keyLength, valueLength);
    }
}
