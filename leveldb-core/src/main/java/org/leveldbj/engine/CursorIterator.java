package org.leveldbj.engine;

import java.nio.ByteBuffer;
import java.util.AbstractMap;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.function.BooleanSupplier;
import org.iq80.leveldb.DBException;
import org.iq80.leveldb.DBIterator;
import org.iq80.leveldb.ExtendedDBIterator;
import org.leveldbj.iterator.SortedIterator;
import org.leveldbj.util.LeakDetector;

/**
 * The API's {@link DBIterator} over an iterator of user entries (a {@link DbIterator}), with
 * leveldbjni's cursor semantics exactly as the {@link DBIterator} documentation describes them:
 * the cursor sits on an entry, {@code next()} returns it and moves on, {@code prev()} steps back
 * and returns the entry it lands on, {@code seekToLast()} puts the cursor on the last entry,
 * and a new iterator starts on the first entry. Entries hold fresh copies of key and value;
 * {@link #key(ByteBuffer)} and {@link #value(ByteBuffer)} copy them into the caller's buffers
 * instead ({@link ExtendedDBIterator}), a separated value straight from the view of its value
 * file that the {@link DbIterator} holds until it moves to another value or closes.
 *
 * <p>How the cursor maps onto the underlying iterator: normally the underlying iterator is on
 * the cursor's entry, or unpositioned when the cursor is past the end. Asking about the
 * previous entry ({@link #hasPrev()}, {@link #peekPrev()}) steps the underlying iterator back
 * and leaves it there, one entry behind the cursor, until an operation needs the cursor's entry
 * again; so a backward scan ({@code while (hasPrev()) prev()}) costs one backward step per entry
 * rather than three. The first positioning of a new iterator is deferred until it is used, so
 * that an immediate {@code seek} does not pay for a {@code seekToFirst} as well.
 *
 * <p>Errors: {@code next()}, {@code peekNext()}, {@code prev()} and {@code peekPrev()} throw
 * {@link NoSuchElementException} when there is no entry to return, leaving the cursor where it
 * was; failures of the underlying iterator propagate as {@link DBException}s. After
 * {@link #close()}, every method but {@code close()} throws {@link DBException} with the message
 * {@value #CLOSED_MESSAGE} and touches nothing else; after the database is closed, every method
 * but {@code close()} throws {@link DBException} ("database is closed"), every time, although
 * the iterator still holds what it read until it is closed itself.
 *
 * <p>Thread safety: not safe for concurrent use; one thread uses it at a time.
 *
 * <p>Lifetime: owns the underlying iterator. {@link #close()} closes it and then runs the
 * release action the database passed (for instance unreferencing the version and memtables
 * the iterator reads); closing again does nothing. With {@link LeakDetector} on, an iterator
 * reclaimed without {@code close()} is reported with the stack that created it.
 */
public final class CursorIterator implements ExtendedDBIterator {
    /** The message of the exception thrown when a closed iterator is used. */
    public static final String CLOSED_MESSAGE = "iterator is closed";
    /** The message of the exception thrown when an iterator of a closed database is used. */
    public static final String DATABASE_CLOSED_MESSAGE = "database is closed";

    /** Where the underlying iterator is relative to the cursor. */
    private enum State {
        /** Not positioned yet: the cursor is on the first entry. */
        PENDING,
        /** On the cursor's entry, or unpositioned when the cursor is past the end. */
        ON,
        /** On the entry before the cursor's, or unpositioned when the cursor is on the first. */
        BEHIND
    }

    private final SortedIterator it;
    private final Runnable release;
    private final BooleanSupplier databaseOpen;
    private final LeakDetector.Tracked tracked;
    private State state = State.PENDING;
    private boolean closed;

    /**
     * Creates a cursor on the first entry.
     *
     * @param entries an iterator over user keys and values, owned from now on
     * @param release run once when this iterator is closed, after {@code entries} is closed
     * @param databaseOpen tells whether the database the entries come from is still open
     * @param what names the iterator in a leak report, e.g. the database directory
     */
    public CursorIterator(SortedIterator entries, Runnable release, BooleanSupplier databaseOpen, String what) {
        this.it = entries;
        this.release = release;
        this.databaseOpen = databaseOpen;
        // The description is built only when leaks are tracked: iterators and snapshots are
        // made at the rate of reads.
        this.tracked = LeakDetector.enabled() ? LeakDetector.track(this, "iterator of " + what) : null;
    }

    @Override
    public boolean hasNext() {
        ensureOpen();
        settle();
        return it.valid();
    }

    @Override
    public Map.Entry<byte[], byte[]> peekNext() {
        onEntry();
        return entry();
    }

    @Override
    public Map.Entry<byte[], byte[]> next() {
        Map.Entry<byte[], byte[]> e = peekNext();
        it.next();
        return e;
    }

    @Override
    public int key(ByteBuffer dst) {
        Arguments.checkNotNull(dst, "dst");
        onEntry();
        return copyInto(it.key(), dst);
    }

    @Override
    public int value(ByteBuffer dst) {
        Arguments.checkNotNull(dst, "dst");
        onEntry();
        return copyInto(it.value(), dst);
    }

    /** Copies what fits of {@code view} (not moved) into {@code dst}; returns the view's length. */
    private static int copyInto(ByteBuffer view, ByteBuffer dst) {
        if (dst.isReadOnly()) {
            throw new java.nio.ReadOnlyBufferException();
        }
        int length = view.remaining();
        int n = Math.min(length, dst.remaining());
        dst.put(dst.position(), view, view.position(), n);
        dst.position(dst.position() + n);
        return length;
    }

    @Override
    public void moveNext() {
        onEntry();
        it.next();
    }

    @Override
    public void movePrev() {
        if (!hasPrev()) {
            throw new NoSuchElementException("no entry before the cursor");
        }
        state = State.ON;
    }

    /** Puts the underlying iterator on the cursor's entry; throws when the cursor is past the end. */
    private void onEntry() {
        ensureOpen();
        settle();
        if (!it.valid()) {
            throw new NoSuchElementException("the cursor is past the last entry");
        }
    }

    @Override
    public boolean hasPrev() {
        ensureOpen();
        if (state == State.PENDING) {
            settle();
        }
        if (state == State.BEHIND) {
            return it.valid();
        }
        if (!it.valid()) {
            return false; // past the end: leveldbjni has no previous entry there
        }
        it.prev();
        state = State.BEHIND;
        return it.valid();
    }

    @Override
    public Map.Entry<byte[], byte[]> prev() {
        if (!hasPrev()) {
            throw new NoSuchElementException("no entry before the cursor");
        }
        state = State.ON;
        return entry();
    }

    @Override
    public Map.Entry<byte[], byte[]> peekPrev() {
        if (!hasPrev()) {
            throw new NoSuchElementException("no entry before the cursor");
        }
        return entry();
    }

    @Override
    public void seek(byte[] key) {
        Arguments.checkNotNull(key, "key");
        ensureOpen();
        state = State.ON;
        it.seek(ByteBuffer.wrap(key));
    }

    @Override
    public void seekToFirst() {
        ensureOpen();
        state = State.ON;
        it.seekToFirst();
    }

    @Override
    public void seekToLast() {
        ensureOpen();
        state = State.ON;
        it.seekToLast();
    }

    /**
     * Not supported: an iterator reads a snapshot.
     *
     * @throws UnsupportedOperationException always
     */
    @Override
    public void remove() {
        ensureOpen();
        throw new UnsupportedOperationException("remove");
    }

    /**
     * An extension for backward scans: an iterator over the cursor's entry and then every entry
     * before it, last to first, moving this cursor as it goes. After {@code seekToLast()} it
     * walks the whole database backwards:
     *
     * <pre>{@code
     * it.seekToLast();
     * for (Iterator<Map.Entry<byte[], byte[]>> back = it.descending(); back.hasNext(); ) {
     *     visit(back.next());
     * }
     * }</pre>
     *
     * <p>It is the {@code peekNext()}-then-{@code prev()} loop of the {@link DBIterator}
     * documentation; it yields nothing when the cursor is past the end.
     *
     * @return an iterator sharing this cursor, valid while this iterator is not moved otherwise
     */
    public Iterator<Map.Entry<byte[], byte[]>> descending() {
        ensureOpen();
        return new Iterator<>() {
            private boolean started;

            @Override
            public boolean hasNext() {
                return started ? hasPrev() : CursorIterator.this.hasNext();
            }

            @Override
            public Map.Entry<byte[], byte[]> next() {
                if (started) {
                    return prev();
                }
                Map.Entry<byte[], byte[]> e = peekNext();
                started = true;
                return e;
            }
        };
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (tracked != null) {
            tracked.closed();
        }
        try {
            it.close();
        } finally {
            release.run();
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw new DBException(CLOSED_MESSAGE);
        }
        if (!databaseOpen.getAsBoolean()) {
            throw new DBException(DATABASE_CLOSED_MESSAGE);
        }
    }

    /** Puts the underlying iterator back on the cursor's entry. */
    private void settle() {
        State was = state;
        if (was == State.ON) {
            return;
        }
        state = State.ON; // also if the move fails: the cursor is then past the end
        if (was == State.BEHIND && it.valid()) {
            it.next();
        } else {
            it.seekToFirst();
        }
    }

    /** The underlying iterator's entry, copied. */
    private Map.Entry<byte[], byte[]> entry() {
        return new AbstractMap.SimpleImmutableEntry<>(copy(it.key()), copy(it.value()));
    }

    private static byte[] copy(ByteBuffer b) {
        if (b.hasArray()) {
            // A copy the JIT makes without zeroing the new array first.
            int from = b.arrayOffset() + b.position();
            return Arrays.copyOfRange(b.array(), from, from + b.remaining());
        }
        byte[] out = new byte[b.remaining()];
        b.get(b.position(), out);
        return out;
    }

    @Override
    public String toString() {
        return closed ? "CursorIterator(closed)" : "CursorIterator(" + state + ")";
    }
}
