package org.iq80.leveldb;

/**
 * Options for one write: {@link DB#put(byte[], byte[], WriteOptions)},
 * {@link DB#delete(byte[], WriteOptions)} or {@link DB#write(WriteBatch, WriteOptions)}.
 *
 * <p>The defaults are: {@link #sync()} {@code false}, {@link #snapshot()} {@code false},
 * {@link #disableWal()} {@code false} (an extension of the 0.12 API). Setters
 * return {@code this} so that calls can be chained. Thread safety: not safe for concurrent
 * modification; the database only reads an instance during the call it is passed to, so one
 * instance may be reused for many writes.
 */
public class WriteOptions {
    private boolean sync;
    private boolean snapshot;
    private boolean disableWal;

    /** Creates options with the defaults listed in the class description. */
    public WriteOptions() {
    }

    /**
     * Tells whether the write is made durable (the log file is synced) before the call returns.
     * Default {@code false}: the write survives a crash of the process but may be lost if the
     * machine fails.
     *
     * @return {@code true} when the write is synced
     */
    public boolean sync() {
        return sync;
    }

    /**
     * Sets whether the write is made durable before the call returns. Synced writes are much
     * slower; a synced write also makes every earlier write durable.
     *
     * @param sync {@code true} to sync
     * @return this object
     */
    public WriteOptions sync(boolean sync) {
        this.sync = sync;
        return this;
    }

    /**
     * Tells whether the write returns a snapshot of the database as it is just after the write.
     * Default {@code false}.
     *
     * @return {@code true} when a snapshot is returned
     */
    public boolean snapshot() {
        return snapshot;
    }

    /**
     * Sets whether the write returns a {@link Snapshot} of the database as it is just after the
     * write; the caller must close that snapshot.
     *
     * @param snapshot {@code true} to return a snapshot, {@code false} to return {@code null}
     * @return this object
     */
    public WriteOptions snapshot(boolean snapshot) {
        this.snapshot = snapshot;
        return this;
    }

    /**
     * Tells whether the write skips the write-ahead log. Default {@code false}.
     *
     * @return {@code true} when the write is not logged
     */
    public boolean disableWal() {
        return disableWal;
    }

    /**
     * Sets whether the write skips the write-ahead log, as RocksDB's {@code disableWAL} does: the
     * write costs no log append, and lives only in the memtable until that is written to a table
     * (when it fills, at {@code DbImpl.flushMemTable()}, or when the database closes: a clean
     * close keeps every such write). A crash of the process or the machine before then loses it,
     * and so does a failure to write that table (a {@code close()} that meets one throws, after
     * closing). Meant for data that can be rebuilt from
     * elsewhere, such as a Kafka Streams store restored from its changelog. An extension of the
     * 0.12 API; a write that asks for both this and {@link #sync(boolean)} is refused.
     *
     * @param disableWal {@code true} to skip the log
     * @return this object
     */
    public WriteOptions disableWal(boolean disableWal) {
        this.disableWal = disableWal;
        return this;
    }
}
