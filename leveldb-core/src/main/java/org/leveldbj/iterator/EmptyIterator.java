package org.leveldbj.iterator;

import java.nio.ByteBuffer;

/**
 * An iterator over no entries: never positioned, whatever it is asked.
 *
 * <p>Thread safety: {@link #INSTANCE} is stateless and may be shared by any number of threads;
 * closing it has no effect. One made by {@link #closing(Runnable)} is confined to its thread,
 * like any iterator, and runs its action at the first close.
 */
public final class EmptyIterator implements SortedIterator {
    /** The shared instance, holding nothing. */
    public static final EmptyIterator INSTANCE = new EmptyIterator(null);

    /** What the first close runs, then {@code null}; always {@code null} for {@link #INSTANCE}. */
    private Runnable onClose;

    private EmptyIterator(Runnable onClose) {
        this.onClose = onClose;
    }

    /**
     * An empty iterator that stands for a resource: its first close runs the action (e.g. gives
     * back a table it was made from).
     *
     * @param onClose the action, run once
     * @return a new empty iterator
     */
    public static EmptyIterator closing(Runnable onClose) {
        return new EmptyIterator(onClose);
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
        Runnable r = onClose;
        if (r != null) {
            onClose = null;
            r.run();
        }
    }

    @Override
    public String toString() {
        return "EmptyIterator";
    }
}
