package org.fusesource.leveldbjni.internal;

import java.io.IOException;
import org.iq80.leveldb.IOErrorException;
import org.iq80.leveldb.WriteBatch;

/**
 * leveldbjni 1.8's write batch class, the type of the batches {@link JniDB#createWriteBatch()}
 * returns, around a batch of this project's engine; {@link JniDB}'s {@code write} methods take
 * it back. As in leveldbjni, no application creates one: its constructor is not public.
 *
 * <p>Left out: leveldbjni's {@code NativeWriteBatch writeBatch()}, which hands out the native
 * batch.
 *
 * <p>Thread safety: not safe for concurrent modification, as the engine's batch.
 */
public class JniWriteBatch implements WriteBatch {
    private final WriteBatch batch;

    JniWriteBatch(WriteBatch batch) {
        this.batch = batch;
    }

    /** The engine's batch inside a {@code JniWriteBatch}, any other batch as it is. */
    static WriteBatch unwrap(WriteBatch updates) {
        return updates instanceof JniWriteBatch ? ((JniWriteBatch) updates).batch : updates;
    }

    /**
     * Releases the batch; as in leveldbjni it declares no checked exception.
     *
     * @throws org.iq80.leveldb.DBException if the engine fails to release it
     */
    @Override
    public void close() {
        try {
            batch.close();
        } catch (IOException e) {
            throw new IOErrorException("IO error: " + e.getMessage(), e);
        }
    }

    @Override
    public WriteBatch put(byte[] key, byte[] value) {
        batch.put(key, value);
        return this;
    }

    @Override
    public WriteBatch delete(byte[] key) {
        batch.delete(key);
        return this;
    }

    @Override
    public int size() {
        return batch.size();
    }

    @Override
    public long approximateSize() {
        return batch.approximateSize();
    }

    @Override
    public String toString() {
        return "JniWriteBatch(" + batch + ")";
    }
}
