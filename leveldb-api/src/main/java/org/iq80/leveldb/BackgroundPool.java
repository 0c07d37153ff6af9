package org.iq80.leveldb;

/**
 * Threads that run the background work of several databases (memtable flushes and compactions),
 * so that a process with many databases runs a bounded number of threads (RocksDB's shared
 * {@code Env} thread pools; C++ LevelDB's {@code Env} runs one background thread for the whole
 * process). The engine creates it (leveldbj: {@code LevelDbFactory.newBackgroundPool(threads)})
 * and {@link Options#backgroundPool(BackgroundPool)} hands it to each database. A database
 * without one shares the engine's default pool with every other such database of the process.
 * An extension of the 0.12 API.
 *
 * <p>Scheduling: each database still runs one background step at a time; the pool's threads
 * serve the databases that wait, memtable flushes before compactions, and compactions in the
 * order they were asked for, so that one busy database cannot keep the others' memtables from
 * being written out.
 *
 * <p>Thread safety: safe for concurrent use by any number of databases. Lifetime: the pool
 * outlives the databases that use it. {@link #close()} ends its threads once no open database
 * uses it; while any does, it throws {@link IllegalStateException} and leaves the pool working.
 * Opening a database with a closed pool fails.
 */
public interface BackgroundPool extends AutoCloseable {
    /**
     * The most threads the pool runs at once. Threads are started when work arrives and end
     * after a while without work.
     *
     * @return the thread limit
     */
    int threads();

    /**
     * How many open databases use the pool now.
     *
     * @return the count
     */
    int databases();

    /**
     * Ends the pool's threads; afterwards no database can be opened with it. Closing a closed
     * pool does nothing.
     *
     * @throws IllegalStateException if open databases still use the pool (it then keeps
     *     working); the message names one of them
     */
    @Override
    void close();
}
