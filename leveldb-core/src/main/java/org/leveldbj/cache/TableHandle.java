package org.leveldbj.cache;

import java.io.IOException;
import org.iq80.leveldb.Env;
import org.leveldbj.table.Table;
import org.leveldbj.util.LockRank;
import org.leveldbj.util.OrderedLock;

/**
 * An entry of the {@link TableCache}: one table file, opened once by whichever thread first
 * needs it, and reference-counted: the cache holds one reference while the entry is cached, and
 * every iterator or lookup using the table holds one. The file is closed (unmapped, for a mapped
 * file) when the count drops to zero, which cannot happen while anything still reads it.
 *
 * <p>Thread safety: the reference count, cache membership and list links are guarded by the
 * owning {@link TableCacheShard}'s lock; the table and file are guarded by this object's lock (rank
 * {@link org.leveldbj.util.LockRank#TABLE_HANDLE}),
 * which is held while opening (so concurrent users of a new entry wait for one open) and
 * closing.
 */
final class TableHandle {
    /** This object's lock (doc/impl.md, Locks). */
    private final OrderedLock lock = new OrderedLock(LockRank.TABLE_HANDLE);
    private static final System.Logger LOG = System.getLogger(TableHandle.class.getName());

    final long fileNumber;

    // Guarded by the shard's lock.
    int refs;
    boolean inCache;
    TableHandle chain;
    TableHandle older;
    TableHandle newer;

    // Guarded by this (written under it; the table is also read without it once published).
    private volatile Table table;
    /** The file's size once opened, 0 before; read without the lock for events. */
    private volatile long fileSize;
    private Env.RandomAccessFile file;
    private RuntimeException failure;
    private boolean closed;

    TableHandle(long fileNumber) {
        this.fileNumber = fileNumber;
    }

    /** The way a cache opens a table file. */
    @FunctionalInterface
    interface Opener {
        /**
         * Opens the file and the table in it.
         *
         * @param fileNumber the table's number
         * @param fileSize the file's size in bytes
         * @param opened receives the file and table on success
         */
        void open(long fileNumber, long fileSize, TableHandle opened);
    }

    /**
     * Returns the open table, opening it first if no one has. Requires: the caller holds a
     * reference.
     *
     * @param opener opens the file when this is the first use
     * @param fileSize the file's size in bytes
     * @return the table
     * @throws RuntimeException what opening threw, to this caller and every caller that was
     *     waiting for the same open
     */
    Table table(Opener opener, long fileSize) {
        Table t = table;
        return t != null ? t : openOnce(opener, fileSize);
    }

    private Table openOnce(Opener opener, long fileSize) {
        lock.lock();
        try {
            if (table != null) {
                return table;
            }
            if (failure != null) {
                throw failure;
            }
            if (closed) {
                throw new IllegalStateException("table " + fileNumber + " used after its last reference was released");
            }
            try {
                opener.open(fileNumber, fileSize, this);
            } catch (RuntimeException e) {
                failure = e;
                throw e;
            }
            return table;
        } finally {
            lock.unlock();
        }
    }

    /** Records the result of a successful open. Requires: called by {@link #table}'s opener. */
    void opened(Env.RandomAccessFile openedFile, Table openedTable, long size) {
        assert lock.isHeldByCurrentThread();
        this.fileSize = size;
        this.file = openedFile;
        this.table = openedTable; // publishes the table to readers that do not lock
    }

    /** @return the file's size once it was opened, else 0 */
    long fileSize() {
        return fileSize;
    }

    /** Whether opening failed; the entry is then dropped from the cache. */
    boolean failed() {
        lock.lock();
        try {
            return failure != null;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Closes the file. Requires: the last reference was released.
     *
     * @return {@code true} if a file was open and is now closed
     */
    boolean closeFile() {
        lock.lock();
        try {
            closed = true;
            Env.RandomAccessFile f = file;
            file = null;
            table = null;
            if (f == null) {
                return false;
            }
            try {
                f.close();
            } catch (IOException e) {
                LOG.log(System.Logger.Level.WARNING, () -> "closing table file " + fileNumber + " failed", e);
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public String toString() {
        return "TableHandle(" + fileNumber + ")";
    }
}
