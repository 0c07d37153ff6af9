package org.leveldbj.cache;

import java.nio.ByteBuffer;
import org.leveldbj.iterator.SortedIterator;

/**
 * A table's iterator that holds a reference to the table's cache entry and releases it when
 * closed, so that the file stays open while it is read.
 *
 * <p>Thread safety: confined to one thread, like every {@link SortedIterator}.
 */
final class TableCacheIterator implements SortedIterator {
    private final SortedIterator table;
    private final TableCacheShard shard;
    private TableHandle handle;

    TableCacheIterator(SortedIterator table, TableCacheShard shard, TableHandle handle) {
        this.table = table;
        this.shard = shard;
        this.handle = handle;
    }

    @Override
    public boolean valid() {
        return table.valid();
    }

    @Override
    public void seekToFirst() {
        table.seekToFirst();
    }

    @Override
    public void seekToLast() {
        table.seekToLast();
    }

    @Override
    public void seek(ByteBuffer target) {
        table.seek(target);
    }

    @Override
    public void next() {
        table.next();
    }

    @Override
    public void prev() {
        table.prev();
    }

    @Override
    public ByteBuffer key() {
        return table.key();
    }

    @Override
    public ByteBuffer value() {
        return table.value();
    }

    @Override
    public String source() {
        return table.source();
    }

    @Override
    public long sourceOffset() {
        return table.sourceOffset();
    }

    @Override
    public void close() {
        TableHandle h = handle;
        if (h == null) {
            return;
        }
        handle = null;
        try {
            table.close();
        } finally {
            shard.release(h);
        }
    }
}
