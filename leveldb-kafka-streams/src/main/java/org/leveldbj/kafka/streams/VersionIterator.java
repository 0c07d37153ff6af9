package org.leveldbj.kafka.streams;

import java.io.IOException;
import java.util.Arrays;
import java.util.Map;
import java.util.NoSuchElementException;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.state.VersionedRecord;
import org.apache.kafka.streams.state.VersionedRecordIterator;

/**
 * The result of a {@code MultiVersionedKeyQuery}: one key's value versions valid at some time in
 * {@code [fromTime, toTime]} (validFrom at or before toTime, validTo after fromTime) that have not
 * expired, read lazily from one data iterator over the key's entries ({@link VersionLayout}),
 * ascending or descending by timestamp. A replaced version carries its validTo, the latest none.
 *
 * <p>Thread safety: one thread at a time. Lifetime: must be closed; closing the store closes it,
 * and then every call but {@link #close()} throws {@link InvalidStateStoreException}. After its
 * own close, {@link #hasNext()} throws {@link IllegalStateException}, as Kafka's does.
 */
final class VersionIterator implements VersionedRecordIterator<byte[]> {
    private final String storeName;
    private final DataIterator cursor;
    private final byte[] latestKey;
    private final byte[] group;
    private final long fromTime;
    private final long toTime;
    private final boolean latestOnly;
    private final long horizon;
    private final boolean descending;
    private VersionedRecord<byte[]> pending;
    private Map.Entry<byte[], byte[]> latest;
    private boolean latestRead;
    private boolean latestDone;
    private boolean historyStarted;
    private boolean historyDone;
    private boolean exhausted;
    private volatile boolean closed;
    private volatile boolean storeClosed;

    /**
     * @param storeName the store's name, for messages
     * @param cursor a new data iterator over a range holding the key's latest and replaced
     *     versions, owned from now on
     * @param latestKey the key's latest version's key
     * @param group the key's {@link VersionLayout#group}
     * @param fromTime the earliest time
     * @param toTime the latest time
     * @param latestOnly whether only the latest version may answer (toTime beyond retention)
     * @param horizon stream time minus history retention: a replaced version whose validTo is
     *     at or before it expired
     * @param descending newest first when {@code true}
     */
    VersionIterator(String storeName, DataIterator cursor, byte[] latestKey, byte[] group, long fromTime, long toTime,
                    boolean latestOnly, long horizon, boolean descending) {
        this.storeName = storeName;
        this.cursor = cursor;
        this.latestKey = latestKey;
        this.group = group;
        this.fromTime = fromTime;
        this.toTime = toTime;
        this.latestOnly = latestOnly;
        this.horizon = horizon;
        this.descending = descending;
        cursor.onClose(() -> storeClosed = !closed);
    }

    @Override
    public boolean hasNext() {
        if (closed) {
            throw new IllegalStateException("The iterator is out of scope.");
        }
        if (storeClosed) {
            throw new InvalidStateStoreException("store " + storeName + " is closed");
        }
        if (pending == null && !exhausted) {
            pending = advance();
            exhausted = pending == null;
        }
        return pending != null;
    }

    @Override
    public VersionedRecord<byte[]> next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        VersionedRecord<byte[]> r = pending;
        pending = null;
        return r;
    }

    /** The key's entries in order: the latest first when descending, last when ascending. */
    private Map.Entry<byte[], byte[]> step() {
        if (!latestRead) {
            latestRead = true;
            cursor.seek(latestKey);
            if (cursor.hasNext() && Arrays.equals(cursor.peekNext().getKey(), latestKey)) {
                latest = cursor.peekNext();
            }
        }
        if (descending && !latestDone) {
            latestDone = true;
            if (latest != null) {
                return latest;
            }
        }
        if (!historyDone) {
            Map.Entry<byte[], byte[]> e;
            if (!historyStarted) {
                historyStarted = true;
                if (descending) {
                    cursor.seekToLast();
                    e = cursor.hasNext() ? cursor.peekNext() : null;
                } else {
                    cursor.seek(VersionLayout.historyStart(group));
                    e = cursor.hasNext() ? cursor.next() : null;
                }
            } else if (descending) {
                e = cursor.hasPrev() ? cursor.prev() : null;
            } else {
                e = cursor.hasNext() ? cursor.next() : null;
            }
            if (e != null && VersionLayout.inHistory(e.getKey(), group)) {
                return e;
            }
            historyDone = true;
        }
        if (!latestDone) {
            latestDone = true;
            return latest;
        }
        return null;
    }

    private VersionedRecord<byte[]> advance() {
        for (Map.Entry<byte[], byte[]> e = step(); e != null; e = step()) {
            boolean latest = VersionLayout.isLatest(e.getKey(), 0);
            byte[] entry = VersionLayout.checked(storeName, e.getValue());
            long validFrom = VersionLayout.validFrom(entry);
            long validTo = latest ? Long.MAX_VALUE : VersionLayout.validTo(e.getKey());
            if (descending) {
                if (!latest && (latestOnly || validTo <= fromTime || validTo <= horizon)) {
                    return null; // every older version ends earlier still
                }
            } else if (validFrom > toTime) {
                return null; // every newer version starts later still
            }
            boolean wanted = !VersionLayout.isTombstone(entry) && validFrom <= toTime && validTo > fromTime
                    && (latest || (!latestOnly && validTo > horizon));
            if (wanted) {
                byte[] value = VersionLayout.value(entry);
                return latest ? new VersionedRecord<>(value, validFrom) : new VersionedRecord<>(value, validFrom, validTo);
            }
        }
        return null;
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            pending = null;
            try {
                cursor.close();
            } catch (IOException e) {
                // nothing is lost: the iterator only read
            }
        }
    }
}
