package org.leveldbj.kafka.streams;

import java.io.IOException;
import java.util.AbstractMap;
import java.util.Arrays;
import java.util.Map;
import org.iq80.leveldb.DBIterator;

/**
 * A database iterator over a store's data namespace only (see {@link StoreDatabase}), that shows
 * keys without the namespace byte and takes them without it: {@code seek(k)} seeks to the data
 * key {@code k}. The underlying iterator is bounded to the namespace, so the store's metadata is
 * never read.
 *
 * <p>Thread safety: one thread at a time, as every {@link DBIterator}. Lifetime: must be
 * closed; its database tracks it and closes it when the store closes.
 */
final class DataIterator implements DBIterator {
    private final StoreDatabase database;
    private final DBIterator inner;
    private volatile boolean open = true;
    private Runnable onClose = () -> { };

    /**
     * @param database the store's database, told when this iterator closes
     * @param inner a new iterator bounded to the data namespace, owned from now on
     */
    DataIterator(StoreDatabase database, DBIterator inner) {
        this.database = database;
        this.inner = inner;
    }

    private static Map.Entry<byte[], byte[]> strip(Map.Entry<byte[], byte[]> e) {
        byte[] key = e.getKey();
        return new AbstractMap.SimpleImmutableEntry<>(Arrays.copyOfRange(key, 1, key.length), e.getValue());
    }

    @Override
    public void seek(byte[] key) {
        inner.seek(StoreDatabase.dataKey(key));
    }

    @Override
    public void seekToFirst() {
        inner.seekToFirst();
    }

    @Override
    public void seekToLast() {
        inner.seekToLast();
    }

    @Override
    public boolean hasNext() {
        return inner.hasNext();
    }

    @Override
    public Map.Entry<byte[], byte[]> next() {
        return strip(inner.next());
    }

    @Override
    public Map.Entry<byte[], byte[]> peekNext() {
        return strip(inner.peekNext());
    }

    @Override
    public boolean hasPrev() {
        return inner.hasPrev();
    }

    @Override
    public Map.Entry<byte[], byte[]> prev() {
        return strip(inner.prev());
    }

    @Override
    public Map.Entry<byte[], byte[]> peekPrev() {
        return strip(inner.peekPrev());
    }

    /**
     * Sets what runs once when this iterator closes, by its user or because the store closes.
     *
     * @param action the action
     */
    void onClose(Runnable action) {
        onClose = action;
    }

    /** @return whether this iterator is still open */
    boolean isOpen() {
        return open;
    }

    @Override
    public void close() throws IOException {
        if (open) {
            open = false;
            database.untrack(this);
            try {
                inner.close();
            } finally {
                onClose.run();
            }
        }
    }
}
