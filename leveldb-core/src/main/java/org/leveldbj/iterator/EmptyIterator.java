package org.leveldbj.iterator;

import java.nio.ByteBuffer;

/**
 * An iterator over no entries: never positioned, whatever it is asked.
 *
 * <p>Thread safety: stateless; the single {@link #INSTANCE} may be shared by any number of
 * threads, and closing it has no effect.
 */
public final class EmptyIterator implements SortedIterator {
    /** The single instance. */
    public static final EmptyIterator INSTANCE = new EmptyIterator();

    private EmptyIterator() {
    }

    @Override
    public boolean valid() {
        return false;
    }

    @Override
    public void seekToFirst() {
        // nothing to position on
    }

    @Override
    public void seekToLast() {
        // nothing to position on
    }

    @Override
    public void seek(ByteBuffer target) {
        // nothing to position on
    }

    @Override
    public void next() {
        throw new IllegalStateException("an empty iterator is never positioned");
    }

    @Override
    public void prev() {
        throw new IllegalStateException("an empty iterator is never positioned");
    }

    @Override
    public ByteBuffer key() {
        throw new IllegalStateException("an empty iterator is never positioned");
    }

    @Override
    public ByteBuffer value() {
        throw new IllegalStateException("an empty iterator is never positioned");
    }

    @Override
    public void close() {
        // holds nothing
    }

    @Override
    public String toString() {
        return "EmptyIterator";
    }
}
