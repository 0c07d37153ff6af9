package org.leveldbj.kafka.streams;

import java.io.IOException;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.function.Function;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.state.KeyValueIterator;

/**
 * The iterator of a window or session store's fetches: the entries of one {@link SegmentScan},
 * their schema keys decoded into Kafka's keys ({@code Windowed<Bytes>}, or a window's start time
 * for a single key's fetch).
 *
 * <p>Thread safety: one thread at a time. Lifetime: must be closed; closing the store closes
 * it, and then every call but {@link #close()} throws {@link InvalidStateStoreException}.
 *
 * @param <K> the key type
 */
class SegmentIterator<K> implements KeyValueIterator<K, byte[]> {
    private final String storeName;
    private final DataIterator cursor;
    private final SegmentScan scan;
    private final Function<byte[], K> decode;
    private KeyValue<K, byte[]> pending;

    /**
     * @param storeName the store's name, for messages
     * @param cursor the scan's cursor, owned from now on; {@code null} for an empty iterator
     * @param scan the scan, or {@code null} for an empty iterator
     * @param decode turns a schema key into the iterator's key
     */
    SegmentIterator(String storeName, DataIterator cursor, SegmentScan scan, Function<byte[], K> decode) {
        this.storeName = storeName;
        this.cursor = cursor;
        this.scan = scan;
        this.decode = decode;
        advance();
    }

    private void advance() {
        Map.Entry<byte[], byte[]> e = scan == null ? null : scan.next();
        pending = e == null ? null : KeyValue.pair(decode.apply(e.getKey()), e.getValue());
    }

    private void checkOpen() {
        if (cursor != null && !cursor.isOpen()) {
            throw new InvalidStateStoreException("leveldbj iterator of store " + storeName + " is closed");
        }
    }

    @Override
    public boolean hasNext() {
        checkOpen();
        return pending != null;
    }

    @Override
    public KeyValue<K, byte[]> next() {
        checkOpen();
        if (pending == null) {
            throw new NoSuchElementException("no more entries in store " + storeName);
        }
        KeyValue<K, byte[]> out = pending;
        advance();
        return out;
    }

    @Override
    public K peekNextKey() {
        checkOpen();
        if (pending == null) {
            throw new NoSuchElementException("no more entries in store " + storeName);
        }
        return pending.key;
    }

    @Override
    public void close() {
        pending = null;
        if (cursor != null) {
            try {
                cursor.close();
            } catch (IOException | RuntimeException e) {
                throw new InvalidStateStoreException("closing an iterator of store " + storeName + " failed", e);
            }
        }
    }
}
