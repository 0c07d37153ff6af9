package org.leveldbj.iterator;

import java.nio.ByteBuffer;
import java.util.function.Consumer;

/**
 * A sorted iterator that tells a watcher every key it hands out: what an optimistic
 * transaction uses to note the keys its iterators read. Everything else is the wrapped
 * iterator's.
 *
 * <p>Thread safety: confined to one thread at a time. Lifetime: owns the wrapped iterator.
 */
public final class KeyWatchingIterator implements SortedIterator {
    private final SortedIterator it;
    private final Consumer<ByteBuffer> watcher;

    /**
     * Wraps an iterator.
     *
     * @param it the iterator, owned from now on
     * @param watcher receives each key {@link #key()} returns, a view it must not keep or move
     */
    public KeyWatchingIterator(SortedIterator it, Consumer<ByteBuffer> watcher) {
        this.it = it;
        this.watcher = watcher;
    }

    @Override
    public boolean valid() {
        return it.valid();
    }

    @Override
    public void seekToFirst() {
        it.seekToFirst();
    }

    @Override
    public void seekToLast() {
        it.seekToLast();
    }

    @Override
    public void seek(ByteBuffer target) {
        it.seek(target);
    }

    @Override
    public void next() {
        it.next();
    }

    @Override
    public void prev() {
        it.prev();
    }

    @Override
    public ByteBuffer key() {
        ByteBuffer k = it.key();
        watcher.accept(k.duplicate());
        return k;
    }

    @Override
    public ByteBuffer value() {
        return it.value();
    }

    @Override
    public void close() {
        it.close();
    }
}
