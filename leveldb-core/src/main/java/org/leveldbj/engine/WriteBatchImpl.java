package org.leveldbj.engine;

import java.nio.ByteBuffer;
import org.iq80.leveldb.CorruptionException;
import org.iq80.leveldb.DBException;
import org.iq80.leveldb.WriteBatch;
import org.leveldbj.key.ValueType;
import org.leveldbj.util.ByteSink;
import org.leveldbj.util.Coding;

/**
 * A write batch held in its on-log encoding, so that writing it to the write-ahead log needs no
 * further encoding and group commit can concatenate batches.
 *
 * <h2>Byte layout</h2>
 * <pre>
 * batch  := fixed64 sequence   fixed32 count   record*
 * record := 0x01 varint32-length-prefixed key   varint32-length-prefixed value   (put)
 *         | 0x00 varint32-length-prefixed key                                    (delete)
 *         | 0x02 varint32-length-prefixed key   varint32-length-prefixed reference  (put of a separated value)
 * </pre>
 * The records take consecutive sequence numbers starting at the header's. Records of type 0x02
 * are never made by callers: the engine writes them to the log of a database with separated
 * values, in place of puts of large values (see {@link ValueLog}).
 *
 * <p>Thread safety: confined to one thread, like the batches of C++ LevelDB. The engine copies
 * nothing out of a batch after {@code DB.write} returns, so a caller may reuse it.
 */
public final class WriteBatchImpl implements WriteBatch {
    /** Length of the sequence-and-count header. */
    public static final int HEADER_SIZE = 12;
    /** The largest array a batch is created with (ByteSink's own limit). */
    private static final long MAX_ROOM = Integer.MAX_VALUE - 8;

    private final ByteSink rep;
    private int count;
    private boolean closed;

    /** Creates an empty batch. */
    public WriteBatchImpl() {
        this(256 - HEADER_SIZE);
    }

    /**
     * Creates an empty batch with room for {@code recordBytes} of records before it grows: a
     * single put or delete sized with {@link #recordSize} is encoded in one exact array.
     */
    WriteBatchImpl(long recordBytes) {
        // A record too large for any batch keeps the default room; encoding it then fails
        // with ByteSink's message, as it would have after growing.
        long room = HEADER_SIZE + recordBytes;
        rep = new ByteSink(room <= MAX_ROOM ? (int) room : 256);
        rep.advance(HEADER_SIZE); // a new array holds zeros: sequence 0, count 0
    }

    /**
     * The encoded size of one record: its type, the length-prefixed key and, unless negative
     * (a deletion), the length-prefixed value.
     */
    static long recordSize(int keyLength, int valueLength) {
        long key = 1 + Coding.varintLength(keyLength) + (long) keyLength;
        return valueLength < 0 ? key : key + Coding.varintLength(valueLength) + valueLength;
    }

    /**
     * Receives the records of a batch without copying them: each key and value is a range of
     * the array passed along. The ranges are valid only during the call.
     */
    public interface Handler {
        /**
         * A put record.
         *
         * @param data the array holding the record
         * @param keyOffset index of the key's first byte
         * @param keyLength length of the key
         * @param valueOffset index of the value's first byte
         * @param valueLength length of the value
         */
        void put(byte[] data, int keyOffset, int keyLength, int valueOffset, int valueLength);

        /**
         * A delete record.
         *
         * @param data the array holding the record
         * @param keyOffset index of the key's first byte
         * @param keyLength length of the key
         */
        void delete(byte[] data, int keyOffset, int keyLength);

        /**
         * A put of a separated value: the value is a
         * {@link org.leveldbj.vlog.ValueReference}'s encoding. By default such a record is
         * refused as malformed, for readers of databases that cannot hold one.
         *
         * @param data the array holding the record
         * @param keyOffset index of the key's first byte
         * @param keyLength length of the key
         * @param referenceOffset index of the reference's first byte
         * @param referenceLength length of the reference
         * @throws CorruptionException unless overridden
         */
        default void putReference(byte[] data, int keyOffset, int keyLength, int referenceOffset, int referenceLength) {
            throw new CorruptionException("value reference in a WriteBatch of a database without value files");
        }
    }

    @Override
    public WriteBatchImpl put(byte[] key, byte[] value) {
        Arguments.checkNotNull(key, "key");
        Arguments.checkNotNull(value, "value");
        checkOpen();
        rep.putByte(ValueType.VALUE.persistentId()).putLengthPrefixed(key).putLengthPrefixed(value);
        setCount(count + 1);
        return this;
    }

    @Override
    public WriteBatchImpl delete(byte[] key) {
        Arguments.checkNotNull(key, "key");
        checkOpen();
        rep.putByte(ValueType.DELETION.persistentId()).putLengthPrefixed(key);
        setCount(count + 1);
        return this;
    }

    /**
     * Appends a record of any type from array ranges, for the engine (a separated copy of a
     * batch). A deletion's value range is ignored.
     */
    void addRecord(ValueType type, byte[] key, int keyOffset, int keyLength,
                   byte[] value, int valueOffset, int valueLength) {
        checkOpen();
        rep.putByte(type.persistentId()).putVarint32(keyLength).put(key, keyOffset, keyLength);
        if (type != ValueType.DELETION) {
            rep.putVarint32(valueLength).put(value, valueOffset, valueLength);
        }
        setCount(count + 1);
    }

    /**
     * The number of put and delete records.
     *
     * @return the count
     */
    @Override
    public int size() {
        return count;
    }

    /**
     * The size of the batch's encoding, which is what it adds to the write-ahead log.
     *
     * @return the length in bytes
     */
    @Override
    public long approximateSize() {
        return rep.length();
    }

    /**
     * Appends every record of another batch to this one.
     *
     * @param other the batch to copy records from
     */
    public void append(WriteBatchImpl other) {
        checkOpen();
        rep.put(other.rep.array(), HEADER_SIZE, other.rep.length() - HEADER_SIZE);
        setCount(count + other.count);
    }

    /** Removes every record. */
    public void clear() {
        rep.truncate(HEADER_SIZE);
        setCount(0);
        setSequence(0);
    }

    /**
     * The sequence number of the first record, as set by the writer.
     *
     * @return the sequence number
     */
    public long sequence() {
        return Coding.getFixed64(rep.array(), 0);
    }

    /**
     * Sets the sequence number of the first record.
     *
     * @param sequence the sequence number
     */
    public void setSequence(long sequence) {
        Coding.putFixed64(rep.array(), 0, sequence);
    }

    /**
     * A view of the encoding (no copy), valid until the batch changes.
     *
     * @return a heap buffer holding the whole encoding
     */
    public ByteBuffer contents() {
        return rep.view();
    }

    /**
     * Replaces the batch with an encoding read from a log, checking its header.
     *
     * @param encoded the encoded batch
     * @throws CorruptionException if the encoding is shorter than its header
     */
    public void setContents(ByteBuffer encoded) {
        if (encoded.remaining() < HEADER_SIZE) {
            throw new CorruptionException("malformed WriteBatch (too small)");
        }
        rep.reset();
        rep.put(encoded, encoded.position(), encoded.remaining());
        count = Coding.getFixed32(rep.array(), 8);
    }

    /**
     * Calls the handler for every record, in order.
     *
     * @param handler receives the records
     * @throws CorruptionException if a record is malformed or the count in the header does not
     *     match the records
     */
    public void forEach(Handler handler) {
        byte[] data = rep.array();
        int limit = rep.length();
        int pos = HEADER_SIZE;
        int found = 0;
        while (pos < limit) {
            int tag = data[pos++];
            found++;
            if (tag == ValueType.VALUE.persistentId() || tag == ValueType.VALUE_REFERENCE.persistentId()) {
                long key = lengthPrefixed(data, pos, limit, "bad WriteBatch Put");
                int keyOffset = Coding.next(key) - Coding.value(key);
                long value = lengthPrefixed(data, Coding.next(key), limit, "bad WriteBatch Put");
                int valueOffset = Coding.next(value) - Coding.value(value);
                if (tag == ValueType.VALUE.persistentId()) {
                    handler.put(data, keyOffset, Coding.value(key), valueOffset, Coding.value(value));
                } else {
                    handler.putReference(data, keyOffset, Coding.value(key), valueOffset, Coding.value(value));
                }
                pos = Coding.next(value);
            } else if (tag == ValueType.DELETION.persistentId()) {
                long key = lengthPrefixed(data, pos, limit, "bad WriteBatch Delete");
                handler.delete(data, Coding.next(key) - Coding.value(key), Coding.value(key));
                pos = Coding.next(key);
            } else {
                throw new CorruptionException("unknown WriteBatch tag " + (tag & 0xff), null, pos - 1);
            }
        }
        if (found != count) {
            throw new CorruptionException("WriteBatch has wrong count (header says "
                    + Integer.toUnsignedString(count) + ", found " + found + ")");
        }
    }

    /**
     * Decodes a length-prefixed slice; the result packs its length (value) and the index just
     * past it (next), as {@link Coding#getVarint32(byte[], int, int)} does.
     */
    private static long lengthPrefixed(byte[] data, int pos, int limit, String what) {
        long packed;
        try {
            packed = Coding.getVarint32(data, pos, limit);
        } catch (CorruptionException e) {
            throw new CorruptionException(what, null, pos);
        }
        int length = Coding.value(packed);
        int start = Coding.next(packed);
        if (length < 0 || length > limit - start) {
            throw new CorruptionException(what, null, pos);
        }
        return ((long) (start + length) << 32) | (length & 0xffffffffL);
    }

    private void setCount(int newCount) {
        count = newCount;
        Coding.putFixed32(rep.array(), 8, newCount);
    }

    /**
     * Fails when the batch was closed: a closed batch can be neither changed nor written.
     *
     * @throws DBException ("write batch is closed")
     */
    void checkOpen() {
        if (closed) {
            throw new DBException("write batch is closed");
        }
    }

    /** Releases the batch; it can be neither changed nor written afterwards. */
    @Override
    public void close() {
        closed = true;
    }
}
