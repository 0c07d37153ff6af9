package org.leveldbj.ttl;

import java.io.IOException;
import java.time.InstantSource;
import java.util.AbstractMap;
import java.util.Map;
import java.util.NoSuchElementException;
import org.iq80.leveldb.DBIterator;

/**
 * A {@link TtlDB}'s iterator: the database's iterator with the expired entries skipped and the
 * suffix taken off the values. Expiry is judged at the clock's reading when the iterator is
 * made, read again at each seek; between seeks the entries it shows do not change, whichever
 * way it moves. It has the cursor semantics of {@link DBIterator} over the entries not
 * expired: the underlying cursor is always on such an entry, or past the end; stepping back
 * passes over expired entries (and {@code hasPrev}/{@code peekPrev} step back and return).
 *
 * <p>Thread safety: not safe for concurrent use, as iterators are not.
 */
final class TtlIterator implements DBIterator {
    private final DBIterator raw;
    private final InstantSource clock;
    private long now;

    /** Positions on the first entry not expired, as a new iterator of the database is. */
    TtlIterator(DBIterator raw, InstantSource clock) {
        this.raw = raw;
        this.clock = clock;
        this.now = clock.millis();
        skipForward();
    }

    // Invariant between calls: the underlying cursor is on an entry not expired, or past the end.

    private boolean hidden(Map.Entry<byte[], byte[]> e) {
        TtlDB.checkStored(e.getKey(), e.getValue());
        return TtlValues.expired(e.getValue(), now);
    }

    private static Map.Entry<byte[], byte[]> visible(Map.Entry<byte[], byte[]> e) {
        return new AbstractMap.SimpleImmutableEntry<>(e.getKey(), TtlValues.value(e.getValue()));
    }

    /** Moves the underlying cursor forward over expired entries. */
    private void skipForward() {
        while (raw.hasNext() && hidden(raw.peekNext())) {
            raw.next();
        }
    }

    /**
     * Steps the underlying cursor back to the previous entry not expired.
     *
     * @return how many steps it took, or -1 (the cursor back where it was) when there is none
     */
    private int stepBack() {
        int steps = 0;
        while (raw.hasPrev()) {
            raw.prev();
            steps++;
            if (!hidden(raw.peekNext())) {
                return steps;
            }
        }
        for (int i = 0; i < steps; i++) {
            raw.next();
        }
        return -1;
    }

    @Override
    public void seek(byte[] key) {
        now = clock.millis();
        raw.seek(key);
        skipForward();
    }

    @Override
    public void seekToFirst() {
        now = clock.millis();
        raw.seekToFirst();
        skipForward();
    }

    @Override
    public void seekToLast() {
        now = clock.millis();
        raw.seekToLast();
        if (raw.hasNext() && hidden(raw.peekNext()) && stepBack() < 0) {
            // Nothing before the last entry is visible either: past the end.
            raw.seekToLast();
            raw.next();
        }
    }

    @Override
    public boolean hasNext() {
        return raw.hasNext();
    }

    @Override
    public Map.Entry<byte[], byte[]> peekNext() {
        return visible(raw.peekNext());
    }

    @Override
    public Map.Entry<byte[], byte[]> next() {
        Map.Entry<byte[], byte[]> e = raw.next();
        skipForward();
        return visible(e);
    }

    @Override
    public boolean hasPrev() {
        if (!raw.hasNext()) {
            return false; // past the end, as the database's iterators say
        }
        int steps = stepBack();
        for (int i = 0; i < steps; i++) {
            raw.next();
        }
        return steps > 0;
    }

    @Override
    public Map.Entry<byte[], byte[]> peekPrev() {
        if (!raw.hasNext() || stepBack() < 0) {
            throw new NoSuchElementException();
        }
        Map.Entry<byte[], byte[]> e = raw.peekNext();
        skipForwardOne();
        return visible(e);
    }

    /** Back to the entry the cursor was on before a successful {@link #stepBack()}. */
    private void skipForwardOne() {
        raw.next();
        skipForward();
    }

    @Override
    public Map.Entry<byte[], byte[]> prev() {
        if (!raw.hasNext() || stepBack() < 0) {
            throw new NoSuchElementException();
        }
        return visible(raw.peekNext());
    }

    @Override
    public void close() throws IOException {
        raw.close();
    }
}
