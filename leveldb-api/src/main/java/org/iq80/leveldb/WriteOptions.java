package org.iq80.leveldb;

/**
 * Options for one write: {@link DB#put(byte[], byte[], WriteOptions)},
 * {@link DB#delete(byte[], WriteOptions)} or {@link DB#write(WriteBatch, WriteOptions)}.
 *
 * <p>The defaults are: {@link #sync()} {@code false}, {@link #snapshot()} {@code false}. Setters
 * return {@code this} so that calls can be chained. Thread safety: not safe for concurrent
 * modification; the database only reads an instance during the call it is passed to, so one
 * instance may be reused for many writes.
 */
public class WriteOptions {
    private boolean sync;
    private boolean snapshot;

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
}
