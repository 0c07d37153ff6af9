package org.leveldbj.kafka.streams;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.internals.ManagedKeyValueIterator;

/**
 * The entries of a store between two inclusive bounds (either may be open), forwards or
 * backwards, over one data iterator: the iterator of {@code range}, {@code reverseRange},
 * {@code all}, {@code reverseAll} and {@code prefixScan}. It is Kafka's
 * {@link ManagedKeyValueIterator}, so Kafka's store layers can learn when it closes.
 *
 * <p>Keys compare as unsigned bytes, the order of {@link Bytes} and of the database.
 *
 * <p>Thread safety: one thread at a time, as every {@link KeyValueIterator}. Lifetime: must be
 * closed; closing the store closes it too (its close actions run then), and then every call but
 * {@link #close()} throws {@link InvalidStateStoreException}.
 */
final class StoreIterator implements ManagedKeyValueIterator<Bytes, byte[]> {
    private final String storeName;
    private final DataIterator cursor;
    private final byte[] from;
    private final byte[] to;
    private final boolean forward;
    private final List<Runnable> closeActions = new ArrayList<>();
    private byte[] stopBefore;
    private KeyValue<Bytes, byte[]> pending;
    private boolean closed;

    /**
     * @param storeName the store's name, for messages
     * @param cursor a new data iterator, owned from now on
     * @param from the smallest key to include, or {@code null}
     * @param to the largest key to include, or {@code null}
     * @param forward ascending when {@code true}
     * @param empty whether the range is empty (its lower bound above its upper bound)
     */
    StoreIterator(String storeName, DataIterator cursor, byte[] from, byte[] to, boolean forward, boolean empty) {
        this.storeName = storeName;
        this.cursor = cursor;
        this.from = from;
        this.to = to;
        this.forward = forward;
        cursor.onClose(this::runCloseActions);
        if (!empty) {
            pending = forward ? first() : last();
        }
    }

    /**
     * Ends a forward iteration before {@code limit}: the exclusive bound of a prefix scan.
     *
     * @param limit the first key not to return, or {@code null} for none
     */
    void stopBefore(Bytes limit) {
        stopBefore = limit == null ? null : limit.get();
        if (pending != null && stopBefore != null && Arrays.compareUnsigned(pending.key.get(), stopBefore) >= 0) {
            pending = null;
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
                || stopBefore != null && Arrays.compareUnsigned(key, stopBefore) >= 0
                : from != null && Arrays.compareUnsigned(key, from) < 0) {
            return null;
        }
        return KeyValue.pair(Bytes.wrap(key), e.getValue());
    }

    private void checkOpen() {
        if (closed || !cursor.isOpen()) {
            throw new InvalidStateStoreException("leveldbj iterator of store " + storeName + " is closed");
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
            throw new NoSuchElementException("no more entries in store " + storeName);
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
            throw new NoSuchElementException("no more entries in store " + storeName);
        }
        return pending.key;
    }

    @Override
    public void onClose(Runnable action) {
        closeActions.add(action);
    }

    private void runCloseActions() {
        closed = true;
        pending = null;
        for (Runnable action : closeActions) {
            action.run();
        }
    }

    @Override
    public void close() {
        try {
            cursor.close();
        } catch (IOException | RuntimeException e) {
            throw new InvalidStateStoreException("closing an iterator of store " + storeName + " failed", e);
        }
    }
}
