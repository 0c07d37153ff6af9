package org.iq80.leveldb;

/**
 * One limit on the memtable memory of several databases (RocksDB's {@code WriteBufferManager}):
 * when the memtables of the databases sharing it hold more than the budget, the database with
 * the largest memtable writes it to a table, even if it is smaller than its
 * {@link Options#writeBufferSize()}. The engine creates it (leveldbj:
 * {@code LevelDbFactory.newWriteBufferBudget(bytes)}) and
 * {@link Options#writeBufferBudget(WriteBufferBudget)} hands it to each database. A database
 * without one is limited by its own write buffer size only. An extension of the 0.12 API.
 *
 * <p>The budget is a target, not a hard cap: writes are never stopped for it. Memtables being
 * written out still count until they are tables, and each database keeps its own
 * {@link Options#writeBufferSize()} as an upper limit of its memtable.
 *
 * <p>Thread safety: safe for concurrent use by any number of databases. Lifetime: the budget
 * outlives the databases that use it; a closed database's memtables no longer count.
 */
public interface WriteBufferBudget {
    /**
     * The memtable memory the databases sharing the budget aim to stay under.
     *
     * @return the budget in bytes
     */
    long capacity();

    /**
     * The memory the memtables of the databases sharing the budget hold now, those being
     * written out included.
     *
     * @return the usage in bytes
     */
    long usage();
}
