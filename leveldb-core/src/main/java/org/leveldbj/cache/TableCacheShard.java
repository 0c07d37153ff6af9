package org.leveldbj.cache;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.iq80.leveldb.DBException;
import org.leveldbj.stats.TableEvictionEvent;
import org.leveldbj.util.LockRank;
import org.leveldbj.util.OrderedLock;

/**
 * One shard of the {@link TableCache}: a hash table of {@link TableHandle}s by file number,
 * with two recency lists: entries no one but the cache references ({@code idle}, evicted first,
 * least recently used first) and entries in use ({@code inUse}, evicted only when every cached
 * entry is in use, so that the number of cached entries never exceeds the capacity).
 *
 * <p>Evicting an entry drops the cache's reference; the file is closed when the last reference
 * goes, after the shard's lock is released (closing unmaps and may take a while).
 *
 * <p>Thread safety: the fields are guarded by this object's lock (rank
 * {@link LockRank#TABLE_CACHE_SHARD}); table files are closed after it is released.
 */
final class TableCacheShard {
    /** This object's lock (doc/impl.md, Locks). */
    private final OrderedLock lock = new OrderedLock(LockRank.TABLE_CACHE_SHARD);
    private final int capacity;
    private final AtomicInteger openFiles;
    /** The database directory, for events. */
    private final String directory;

    // Guarded by this.
    private TableHandle[] table = new TableHandle[16];
    private int count;
    private boolean closed;
    private final TableHandle idle = sentinel();
    private final TableHandle inUse = sentinel();
    /** Entries whose last reference went during the current locked section. */
    private final List<TableHandle> closing = new ArrayList<>();
    /** Acquisitions that found the table cached, and those that had to add it. */
    private long hits;
    private long misses;

    TableCacheShard(int capacity, AtomicInteger openFiles, String directory) {
        this.capacity = capacity;
        this.openFiles = openFiles;
        this.directory = directory;
    }

    private static TableHandle sentinel() {
        TableHandle s = new TableHandle(-1);
        s.older = s;
        s.newer = s;
        return s;
    }

    /**
     * Returns the entry of a file with a reference taken for the caller, creating it (unopened)
     * when the file is not cached; creating may evict another entry.
     *
     * @throws DBException if the cache is closed
     */
    TableHandle acquire(long fileNumber) {
        TableHandle h;
        TableHandle[] done;
        lock.lock();
        try {
            h = find(fileNumber);
            if (h != null) {
                if (h.refs == 1) {
                    unlink(h);
                    linkNewest(inUse, h);
                }
                h.refs++;
                hits++;
                return h;
            }
            if (closed) {
                throw new DBException("table cache is closed");
            }
            misses++;
            h = new TableHandle(fileNumber);
            h.refs = 2; // the cache's and the caller's
            h.inCache = true;
            add(h);
            linkNewest(inUse, h);
            while (count > capacity) {
                TableHandle victim = idle.newer != idle ? idle.newer : inUse.newer;
                if (victim == h) {
                    break;
                }
                remove(victim, TableEvictionEvent.CAPACITY);
            }
            done = takeClosing();
        } finally {
            lock.unlock();
        }
        closeFiles(done);
        return h;
    }

    /** Drops the caller's reference; the file is closed if it was the last one. */
    void release(TableHandle h) {
        lock.lock();
        try {
            assert h.refs > 0;
            if (--h.refs > 0) {
                if (h.refs == 1 && h.inCache) {
                    unlink(h);
                    linkNewest(idle, h);
                }
                return;
            }
        } finally {
            lock.unlock();
        }
        if (h.closeFile()) {
            openFiles.decrementAndGet();
        }
    }

    /** Drops a file's entry from the cache, if cached. */
    void evict(long fileNumber) {
        TableHandle[] done;
        lock.lock();
        try {
            TableHandle h = find(fileNumber);
            if (h != null) {
                remove(h, TableEvictionEvent.OBSOLETE);
            }
            done = takeClosing();
        } finally {
            lock.unlock();
        }
        closeFiles(done);
    }

    /** Drops an entry whose open failed, so that the next use tries again. */
    void evictFailed(TableHandle failed) {
        TableHandle[] done;
        lock.lock();
        try {
            if (failed.inCache) {
                remove(failed, null);
            }
            done = takeClosing();
        } finally {
            lock.unlock();
        }
        closeFiles(done);
    }

    /** Drops every entry and refuses new ones. */
    void close() {
        TableHandle[] done;
        lock.lock();
        try {
            closed = true;
            for (TableHandle head : table) {
                TableHandle h = head;
                while (h != null) {
                    TableHandle next = h.chain;
                    remove(h, TableEvictionEvent.CLOSE);
                    h = next;
                }
            }
            done = takeClosing();
        } finally {
            lock.unlock();
        }
        closeFiles(done);
    }

    /** @return acquisitions that found the table cached, and those that added it */
    long[] hitsAndMisses() {
        lock.lock();
        try {
            return new long[] {hits, misses};
        } finally {
            lock.unlock();
        }
    }

    int cached() {
        lock.lock();
        try {
            return count;
        } finally {
            lock.unlock();
        }
    }

    private TableHandle[] takeClosing() {
        if (closing.isEmpty()) {
            return null;
        }
        TableHandle[] out = closing.toArray(new TableHandle[0]);
        closing.clear();
        return out;
    }

    private void closeFiles(TableHandle[] handles) {
        if (handles != null) {
            for (TableHandle h : handles) {
                if (h.closeFile()) {
                    openFiles.decrementAndGet();
                }
            }
        }
    }

    private static int bucket(long fileNumber, int length) {
        long x = fileNumber * 0x9E3779B97F4A7C15L;
        return (int) (x >>> 32) & (length - 1);
    }

    private TableHandle find(long fileNumber) {
        TableHandle h = table[bucket(fileNumber, table.length)];
        while (h != null && h.fileNumber != fileNumber) {
            h = h.chain;
        }
        return h;
    }

    private void add(TableHandle h) {
        if (count >= table.length) {
            TableHandle[] bigger = new TableHandle[table.length * 2];
            for (TableHandle head : table) {
                TableHandle e = head;
                while (e != null) {
                    TableHandle next = e.chain;
                    int i = bucket(e.fileNumber, bigger.length);
                    e.chain = bigger[i];
                    bigger[i] = e;
                    e = next;
                }
            }
            table = bigger;
        }
        int i = bucket(h.fileNumber, table.length);
        h.chain = table[i];
        table[i] = h;
        count++;
    }

    /**
     * Removes a cached entry and drops the cache's reference.
     *
     * @param reason why, for the eviction event; {@code null} for an entry whose open failed
     */
    private void remove(TableHandle h, String reason) {
        assert h.inCache;
        if (reason != null) {
            TableEvictionEvent.emit(directory, h.fileNumber, h.fileSize(), reason);
        }
        int i = bucket(h.fileNumber, table.length);
        TableHandle e = table[i];
        TableHandle before = null;
        while (e != h) {
            before = e;
            e = e.chain;
        }
        if (before == null) {
            table[i] = h.chain;
        } else {
            before.chain = h.chain;
        }
        h.chain = null;
        count--;
        unlink(h);
        h.inCache = false;
        if (--h.refs == 0) {
            closing.add(h);
        }
    }

    private static void unlink(TableHandle h) {
        h.older.newer = h.newer;
        h.newer.older = h.older;
        h.older = null;
        h.newer = null;
    }

    private static void linkNewest(TableHandle list, TableHandle h) {
        h.newer = list;
        h.older = list.older;
        list.older.newer = h;
        list.older = h;
    }
}
