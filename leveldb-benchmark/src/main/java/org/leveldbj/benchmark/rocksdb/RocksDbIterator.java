package org.leveldbj.benchmark.rocksdb;

import java.util.AbstractMap;
import java.util.Map;
import java.util.NoSuchElementException;
import org.iq80.leveldb.DBIterator;
import org.rocksdb.RocksIterator;

/**
 * A RocksDB iterator with the cursor semantics of {@link DBIterator}: the cursor sits on an
 * entry, {@code next()} returns it and advances, {@code prev()} steps back and returns the
 * entry it lands on.
 */
final class RocksDbIterator implements DBIterator {
    private final RocksIterator it;

    RocksDbIterator(RocksIterator it) {
        this.it = it;
        it.seekToFirst();
    }

    @Override
    public void seek(byte[] key) {
        it.seek(key);
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
    public boolean hasNext() {
        return it.isValid();
    }

    @Override
    public Map.Entry<byte[], byte[]> peekNext() {
        if (!it.isValid()) {
            throw new NoSuchElementException();
        }
        return new AbstractMap.SimpleImmutableEntry<>(it.key(), it.value());
    }

    @Override
    public Map.Entry<byte[], byte[]> next() {
        Map.Entry<byte[], byte[]> entry = peekNext();
        it.next();
        return entry;
    }

    @Override
    public boolean hasPrev() {
        if (!it.isValid()) {
            return false;
        }
        it.prev();
        boolean before = it.isValid();
        if (before) {
            it.next();
        } else {
            it.seekToFirst();
        }
        return before;
    }

    @Override
    public Map.Entry<byte[], byte[]> prev() {
        if (!it.isValid()) {
            throw new NoSuchElementException();
        }
        it.prev();
        if (!it.isValid()) {
            it.seekToFirst();
            throw new NoSuchElementException();
        }
        return peekNext();
    }

    @Override
    public Map.Entry<byte[], byte[]> peekPrev() {
        Map.Entry<byte[], byte[]> entry = prev();
        it.next();
        return entry;
    }

    @Override
    public void close() {
        it.close();
    }
}
