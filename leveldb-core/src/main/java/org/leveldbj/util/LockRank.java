package org.leveldbj.util;

/**
 * The engine's locks, in the one order in which a thread may take them: a thread holding a lock
 * may take only locks of a later rank (and the one it holds again, reentrantly). Two locks of the
 * same rank (two shards of a cache, two databases' locks) are never held together. The order is
 * written once more, with what each lock guards, in {@code doc/impl.md} (Locks, and their order),
 * and a test checks that the table and this enum agree.
 *
 * <p>Every lock of the engine is an {@link OrderedLock} of one of these ranks; with
 * {@link LockOrder#ENABLED} on, taking one against the order fails at once.
 */
public enum LockRank {
    /** The value collector's lock: one collection at a time; a collection takes the database lock. */
    VALUE_COLLECTOR,
    /** The database lock ({@code DbState.mutex}, and the repairer's own). */
    DATABASE,
    /** The write-ahead log's lock: the current and previous log and their numbers. */
    WRITE_AHEAD_LOG,
    /** The pending outputs of flushes and compactions. */
    OBSOLETE_FILES,
    /** The list of open snapshots. */
    SNAPSHOTS,
    /** The value log: the value file being written and the full files not yet synced. */
    VALUE_LOG,
    /** The readers of value files, reopened after a file grew. */
    VALUE_FILES,
    /** A version's file whose seek budget ran out. */
    VERSION,
    /**
     * One table of the table cache, while it is opened (a failed open evicts its entry, taking
     * the shard's lock) or closed.
     */
    TABLE_HANDLE,
    /** A shard of the table cache: its map and LRU lists. */
    TABLE_CACHE_SHARD,
    /** A shard of the block cache, for insertions and evictions. */
    BLOCK_CACHE_SHARD,
    /** A scope of off-heap memory and mappings. */
    MEMORY_SCOPE,
    /** A file's own lock: positional reads of a shared channel, a released file lock. */
    FILE,
    /** The database's {@code LOG} file. */
    INFO_LOG,
    /** The reports of resources reclaimed without being closed. */
    LEAK_REPORTS,
    /** The per-thread cells of a database's read-path counters: registering one, adding them up. */
    STATISTICS,
    /**
     * A background pool's queues: taken by databases holding their own locks (to ask for a
     * step), never held while calling into a database.
     */
    BACKGROUND_POOL,
    /** The table files this process's table writers finished, for ingestions to check by checksum. */
    WRITTEN_TABLES
}
