package org.fusesource.leveldbjni.internal;

import java.io.IOException;
import java.util.Map;
import org.iq80.leveldb.DBIterator;
import org.iq80.leveldb.IOErrorException;

/**
 * leveldbjni 1.8's iterator class, the type of the iterators {@link JniDB} returns, around an
 * iterator of this project's engine. Its methods are leveldbjni's; the cursor semantics, results
 * and exceptions are the engine's, which follow leveldbjni's (see {@link DBIterator}). As in
 * leveldbjni, no application creates one: its constructor is not public.
 *
 * <p>Thread safety: not safe for concurrent use, as the engine's iterator. Lifetime: closed by
 * {@link #close()}, before its database.
 */
public class JniDBIterator implements DBIterator {
    private final DBIterator iterator;

    JniDBIterator(DBIterator iterator) {
        this.iterator = iterator;
    }

    /**
     * Closes the iterator; as in leveldbjni it declares no checked exception.
     *
     * @throws org.iq80.leveldb.DBException if the engine fails to close it
     */
    @Override
    public void close() {
        try {
            iterator.close();
        } catch (IOException e) {
            throw new IOErrorException("IO error: " + e.getMessage(), e);
        }
    }

    @Override
    public void remove() {
        iterator.remove();
    }

    @Override
    public void seek(byte[] key) {
        iterator.seek(key);
    }

    @Override
    public void seekToFirst() {
        iterator.seekToFirst();
    }

    @Override
    public void seekToLast() {
        iterator.seekToLast();
    }

    @Override
    public Map.Entry<byte[], byte[]> peekNext() {
        return iterator.peekNext();
    }

    @Override
    public boolean hasNext() {
        return iterator.hasNext();
    }

    @Override
    public Map.Entry<byte[], byte[]> next() {
        return iterator.next();
    }

    @Override
    public boolean hasPrev() {
        return iterator.hasPrev();
    }

    @Override
    public Map.Entry<byte[], byte[]> peekPrev() {
        return iterator.peekPrev();
    }

    @Override
    public Map.Entry<byte[], byte[]> prev() {
        return iterator.prev();
    }

    @Override
    public String toString() {
        return "JniDBIterator(" + iterator + ")";
    }
}
