package org.leveldbj.kafka.streams;

import java.io.IOException;
import java.util.Arrays;
import java.util.Map;
import java.util.NoSuchElementException;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.iq80.leveldb.DBIterator;

/**
 * The entries of a store between two inclusive bounds (either may be open), forwards or
 * backwards, over one database iterator: the iterator of {@code range}, {@code reverseRange},
 * {@code all}, {@code reverseAll} and {@code prefixScan}.
 *
 * <p>Keys compare as unsigned bytes, the order of {@link Bytes} and of the database.
 *
 * <p>Thread safety: one thread at a time, as every {@link KeyValueIterator}. Lifetime: must be
 * closed; closing the store closes it too, and then every call but {@link #close()} throws
 * {@link InvalidStateStoreException}.
 */
final class StoreIterator implements KeyValueIterator<Bytes, byte[]> {
    private final LeveldbKeyValueStore store;
    private final DBIterator cursor;
    private final byte[] from;
    private final byte[] to;
    private final boolean forward;
    private KeyValue<Bytes, byte[]> pending;
    private boolean open = true;

    /**
     * @param store the store, told when this iterator closes
     * @param cursor a new database iterator, owned from now on
     * @param from the smallest key to include, or {@code null}
     * @param to the largest key to include, or {@code null}
     * @param forward ascending when {@code true}
     * @param empty whether the range is empty (its lower bound above its upper bound)
     */
    StoreIterator(LeveldbKeyValueStore store, DBIterator cursor, byte[] from, byte[] to, boolean forward, boolean empty) {
        this.store = store;
        this.cursor = cursor;
        this.from = from;
        this.to = to;
        this.forward = forward;
        if (!empty) {
            pending = forward ? first() : last();
        }
    }

    private KeyValue<Bytes, byte[]> first() {
        if (from == null) {
            cursor.seekToFirst();
        } else {
            cursor.seek(from);
        }
        return cursor.hasNext() ? bounded(cursor.next()) : null;
    }

    private KeyValue<Bytes, byte[]> last() {
        Map.Entry<byte[], byte[]> e;
        if (to == null) {
            cursor.seekToLast();
            e = cursor.hasNext() ? cursor.peekNext() : null;
        } else {
            cursor.seek(to);
            if (!cursor.hasNext()) {
                cursor.seekToLast();
                e = cursor.hasNext() ? cursor.peekNext() : null;
            } else if (Arrays.compareUnsigned(cursor.peekNext().getKey(), to) <= 0) {
                e = cursor.peekNext();
            } else {
                e = cursor.hasPrev() ? cursor.prev() : null;
            }
        }
        return e == null ? null : bounded(e);
    }

    /** The entry as a key-value pair, or {@code null} when it lies beyond the far bound. */
    private KeyValue<Bytes, byte[]> bounded(Map.Entry<byte[], byte[]> e) {
        byte[] key = e.getKey();
        if (forward ? to != null && Arrays.compareUnsigned(key, to) > 0
                : from != null && Arrays.compareUnsigned(key, from) < 0) {
            return null;
        }
        return KeyValue.pair(Bytes.wrap(key), e.getValue());
    }

    private void checkOpen() {
        if (!open) {
            throw new InvalidStateStoreException("leveldbj iterator of store " + store.name() + " is closed");
        }
    }

    @Override
    public boolean hasNext() {
        checkOpen();
        return pending != null;
    }

    @Override
    public KeyValue<Bytes, byte[]> next() {
        checkOpen();
        if (pending == null) {
            throw new NoSuchElementException("no more entries in store " + store.name());
        }
        KeyValue<Bytes, byte[]> out = pending;
        if (forward) {
            pending = cursor.hasNext() ? bounded(cursor.next()) : null;
        } else {
            pending = cursor.hasPrev() ? bounded(cursor.prev()) : null;
        }
        return out;
    }

    @Override
    public Bytes peekNextKey() {
        checkOpen();
        if (pending == null) {
            throw new NoSuchElementException("no more entries in store " + store.name());
        }
        return pending.key;
    }

    @Override
    public void close() {
        if (release()) {
            store.iteratorClosed(this);
        }
    }

    /** Closes this iterator because its store closes; the store forgets it itself. */
    void closeWithStore() {
        try {
            release();
        } catch (InvalidStateStoreException e) {
            // The store is closing anyway; its database reports what matters.
        }
    }

    /** Releases the database iterator once; tells whether this call did. */
    private boolean release() {
        if (!open) {
            return false;
        }
        open = false;
        pending = null;
        try {
            cursor.close();
        } catch (IOException | RuntimeException e) {
            throw new InvalidStateStoreException("closing an iterator of store " + store.name() + " failed", e);
        }
        return true;
    }
}
