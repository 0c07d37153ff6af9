package org.iq80.leveldb;

import java.io.Closeable;

/**
 * A list of puts and deletes that {@link DB#write(WriteBatch)} applies atomically and in order:
 * a later operation on a key overrides an earlier one in the same batch.
 *
 * <p>Obtain batches from {@link DB#createWriteBatch()}; a database may reject batches made
 * elsewhere. The operations are recorded (keys and values copied) when added, so the arrays may be
 * reused afterwards. Close a batch when done with it; a batch may be written more than once
 * before it is closed. A closed batch can be neither changed nor written: {@code put},
 * {@code delete} and {@link DB#write(WriteBatch)} then throw {@link DBException}.
 *
 * <p>Thread safety: a batch is not safe for concurrent use; one thread fills and writes it.
 */
public interface WriteBatch extends Closeable {

    /**
     * Records storing {@code value} under {@code key}.
     *
     * @param key the key
     * @param value the value
     * @return this batch
     */
    WriteBatch put(byte[] key, byte[] value);

    /**
     * Records removing {@code key}.
     *
     * @param key the key
     * @return this batch
     */
    WriteBatch delete(byte[] key);

    /**
     * Returns the number of operations recorded: every {@link #put} and {@link #delete} counts
     * once, even for a key already in the batch.
     *
     * <p>This is an extension of the 0.12 API. The batches a database of this project creates
     * implement it; the default, kept so that implementations written against 0.12 still load,
     * throws {@link UnsupportedOperationException}.
     *
     * @return the number of puts and deletes recorded
     * @throws UnsupportedOperationException if this implementation does not keep a count
     */
    default int size() {
        throw unsupported("size()");
    }

    /**
     * Returns the size in bytes of this batch's encoded form, the record written to the log
     * file, as C++ LevelDB's {@code WriteBatch::ApproximateSize} does: a 12-byte header (8-byte
     * sequence number, 4-byte count), then per operation a one-byte tag and the key as a varint32
     * length followed by its bytes, and for a put the value encoded the same way. An empty batch
     * has size 12. Useful to cap the memory or log space a batch takes before writing it.
     *
     * <p>This is an extension of the 0.12 API. The batches a database of this project creates
     * implement it; the default, kept so that implementations written against 0.12 still load,
     * throws {@link UnsupportedOperationException}.
     *
     * @return the encoded size in bytes
     * @throws UnsupportedOperationException if this implementation does not track its size
     */
    default long approximateSize() {
        throw unsupported("approximateSize()");
    }

    private UnsupportedOperationException unsupported(String method) {
        return new UnsupportedOperationException(method + " is not implemented by "
                + getClass().getName() + "; the batches returned by DB.createWriteBatch() of "
                + "this project's engine implement it");
    }
}
