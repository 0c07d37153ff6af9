package org.leveldbj.iterator;

import java.nio.ByteBuffer;
import java.util.function.ToLongFunction;

/**
 * Iterates over the entries of a sequence of inner iterators named by an index iterator: each
 * index value (for instance an encoded block handle) is turned into an inner iterator by a
 * {@link InnerOpener}, and the entries of the inner iterators, taken in index order, form one
 * sorted sequence. This is how a table iterates over its data blocks.
 *
 * <p>Requires: the index is sorted so that every key of the inner iterator of entry {@code i}
 * is at most the index key of entry {@code i} and after the index key of entry {@code i - 1};
 * then {@code seek} on the index finds the only inner iterator that may hold the target.
 *
 * <p>Inner iterators that are empty are skipped in both directions. Consecutive index entries
 * with identical values share one inner iterator, which is not reopened.
 *
 * <p>Thread safety: confined to one thread, like every {@link SortedIterator}.
 *
 * <p>Lifetime: owns the index iterator and the current inner iterator, and closes them when it
 * is closed (once: closing again does nothing), then runs its release action if it has one.
 */
public final class TwoLevelIterator implements SortedIterator {
    /** Turns an index value into an iterator over the entries it names. */
    @FunctionalInterface
    public interface InnerOpener {
        /**
         * Opens the inner iterator an index value names.
         *
         * @param indexValue the index entry's value (a view valid only during this call)
         * @param reuse the inner iterator being abandoned, or {@code null}; the opener may reset
         *     and return it instead of creating a new one, otherwise the caller closes it
         * @return an unpositioned iterator over the entries
         */
        SortedIterator open(ByteBuffer indexValue, SortedIterator reuse);
    }

    private final SortedIterator index;
    private final InnerOpener opener;
    /** The file all inner iterators read, or {@code null} when they report their own. */
    private final String file;
    /** The offset an index value names, or {@code null} when the inner iterators report it. */
    private final ToLongFunction<ByteBuffer> offsetOf;
    /** The inner iterator of the current index entry, or {@code null}. */
    private SortedIterator data;
    /** The index value {@link #data} was opened from; {@code dataValueLength < 0} when none. */
    private byte[] dataValue = new byte[32];
    /** Views {@link #dataValue} for comparisons. */
    private ByteBuffer dataValueView = ByteBuffer.wrap(dataValue);
    private int dataValueLength = -1;
    /** Counts the index moves that may have changed the inner iterator: the run stamp. */
    private long runs;
    /** Run once by {@link #close()}; {@code null} when there is nothing to release. */
    private final Runnable onClose;
    private boolean closed;

    /**
     * Creates an iterator.
     *
     * @param index the index iterator, owned from now on
     * @param opener turns index values into inner iterators
     */
    public TwoLevelIterator(SortedIterator index, InnerOpener opener) {
        this(index, opener, null, null);
    }

    /**
     * Creates an iterator over one file whose index values name blocks of it, so that
     * {@link #source()} and {@link #sourceOffset()} can name where an entry is stored.
     *
     * @param index the index iterator, owned from now on
     * @param opener turns index values into inner iterators
     * @param file the file's name
     * @param offsetOf the offset of the block an index value names
     */
    public TwoLevelIterator(SortedIterator index, InnerOpener opener, String file, ToLongFunction<ByteBuffer> offsetOf) {
        this(index, opener, file, offsetOf, null);
    }

    /**
     * Creates an iterator over one file, as {@link #TwoLevelIterator(SortedIterator, InnerOpener,
     * String, ToLongFunction)} does, that also releases a resource (the file itself) when closed:
     * a reader of a cached file needs no wrapper around the iterator to give the file back.
     *
     * @param index the index iterator, owned from now on
     * @param opener turns index values into inner iterators
     * @param file the file's name
     * @param offsetOf the offset of the block an index value names
     * @param onClose run once, after the inner iterators are closed, or {@code null}
     */
    public TwoLevelIterator(SortedIterator index, InnerOpener opener, String file, ToLongFunction<ByteBuffer> offsetOf,
                            Runnable onClose) {
        this.index = index;
        this.opener = opener;
        this.file = file;
        this.offsetOf = offsetOf;
        this.onClose = onClose;
    }

    @Override
    public String source() {
        return file != null ? file : data.source();
    }

    @Override
    public long sourceOffset() {
        if (offsetOf == null) {
            return data.sourceOffset();
        }
        try {
            return offsetOf.applyAsLong(ByteBuffer.wrap(dataValue, 0, dataValueLength));
        } catch (RuntimeException undecodable) {
            return -1;
        }
    }

    @Override
    public boolean valid() {
        return data != null && data.valid();
    }

    @Override
    public void seekToFirst() {
        index.seekToFirst();
        openData();
        if (data != null) {
            data.seekToFirst();
        }
        skipEmptyForward();
    }

    @Override
    public void seekToLast() {
        index.seekToLast();
        openData();
        if (data != null) {
            data.seekToLast();
        }
        skipEmptyBackward();
    }

    @Override
    public void seek(ByteBuffer target) {
        index.seek(target);
        openData();
        if (data != null) {
            data.seek(target);
        }
        skipEmptyForward();
    }

    @Override
    public void next() {
        assert valid();
        data.next();
        if (!data.valid()) {
            skipEmptyForward();
        }
    }

    @Override
    public void prev() {
        assert valid();
        data.prev();
        if (!data.valid()) {
            skipEmptyBackward();
        }
    }

    @Override
    public ByteBuffer key() {
        assert valid();
        return data.key();
    }

    @Override
    public ByteBuffer value() {
        assert valid();
        return data.value();
    }

    /**
     * Each index entry's inner iterator is a run, bounded by the index key (this class's
     * requirement on the index); the stamp changes at every index move.
     */
    @Override
    public long runStamp() {
        assert valid();
        return runs;
    }

    @Override
    public ByteBuffer runLimit() {
        assert valid();
        return index.key();
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            try {
                index.close();
            } finally {
                dropData();
            }
        } finally {
            if (onClose != null) {
                onClose.run();
            }
        }
    }

    private void skipEmptyForward() {
        while (data == null || !data.valid()) {
            if (!index.valid()) {
                dropData();
                return;
            }
            index.next();
            openData();
            if (data != null) {
                data.seekToFirst();
            }
        }
    }

    private void skipEmptyBackward() {
        while (data == null || !data.valid()) {
            if (!index.valid()) {
                dropData();
                return;
            }
            index.prev();
            openData();
            if (data != null) {
                data.seekToLast();
            }
        }
    }

    /** Makes {@link #data} the inner iterator of the current index entry (none if unpositioned). */
    private void openData() {
        runs++;
        if (!index.valid()) {
            dropData();
            return;
        }
        ByteBuffer v = index.value();
        int n = v.remaining();
        if (data != null && n == dataValueLength
                && v.mismatch(dataValueView.limit(n).position(0)) < 0) {
            return;
        }
        SortedIterator old = data;
        data = null;
        dataValueLength = -1;
        SortedIterator opened;
        try {
            opened = opener.open(v, old);
        } catch (RuntimeException | Error e) {
            if (old != null) {
                old.close();
            }
            throw e;
        }
        if (old != null && old != opened) {
            old.close();
        }
        data = opened;
        if (dataValue.length < n) {
            dataValue = new byte[Math.max(n, 2 * dataValue.length)];
            dataValueView = ByteBuffer.wrap(dataValue);
        }
        v.get(v.position(), dataValue, 0, n);
        dataValueLength = n;
    }

    private void dropData() {
        SortedIterator old = data;
        data = null;
        dataValueLength = -1;
        if (old != null) {
            old.close();
        }
    }
}
