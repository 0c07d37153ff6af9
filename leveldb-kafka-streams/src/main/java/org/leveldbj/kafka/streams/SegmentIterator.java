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
 * <p>The scan starts at the first call to {@link #hasNext()}, {@link #next()} or
 * {@link #peekNextKey()}, on a consistent snapshot of the store as of that call (so writes made
 * between the fetch and the first use are seen, as with Kafka's stores, whose segment
 * iterators open lazily).
 *
 * <p>Thread safety: one thread at a time. Lifetime: must be closed; closing the store closes
 * it, and then it is exhausted: {@link #hasNext()} returns {@code false}, as Kafka's window
 * and session store iterators do.
 *
 * @param <K> the key type
 */
class SegmentIterator<K> implements KeyValueIterator<K, byte[]> {
    private final String storeName;
    private final StoreDatabase database;
    private final Function<DataIterator, SegmentScan> scanOf;
    private final Function<byte[], K> decode;
    private DataIterator cursor;
    private SegmentScan scan;
    private boolean started;
    private boolean closed;
    private KeyValue<K, byte[]> pending;

    /**
     * @param storeName the store's name, for messages
     * @param database the store's database; {@code null} for an empty iterator
     * @param scanOf the scan to run on a new data iterator
     * @param decode turns a schema key into the iterator's key
     */
    SegmentIterator(String storeName, StoreDatabase database, Function<DataIterator, SegmentScan> scanOf,
                    Function<byte[], K> decode) {
        this.storeName = storeName;
        this.database = database;
        this.scanOf = scanOf;
        this.decode = decode;
    }

    private boolean ready() {
        if (closed) {
            return false;
        }
        if (!started) {
            started = true;
            if (database == null) {
                return false;
            }
            try {
                cursor = database.iterator();
            } catch (InvalidStateStoreException storeClosed) {
                closed = true;
                return false;
            }
            scan = scanOf.apply(cursor);
            advance();
        }
        if (cursor == null) {
            return false; // empty
        }
        if (!cursor.isOpen()) {
            closed = true; // the store closed
            pending = null;
            return false;
        }
        return true;
    }

    private void advance() {
        Map.Entry<byte[], byte[]> e = scan.next();
        pending = e == null ? null : KeyValue.pair(decode.apply(e.getKey()), e.getValue());
    }

    @Override
    public boolean hasNext() {
        return ready() && pending != null;
    }

    @Override
    public KeyValue<K, byte[]> next() {
        if (!hasNext()) {
            throw new NoSuchElementException("no more entries in store " + storeName);
        }
        KeyValue<K, byte[]> out = pending;
        advance();
        return out;
    }

    @Override
    public K peekNextKey() {
        if (!hasNext()) {
            throw new NoSuchElementException("no more entries in store " + storeName);
        }
        return pending.key;
    }

    @Override
    public void close() {
        closed = true;
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
