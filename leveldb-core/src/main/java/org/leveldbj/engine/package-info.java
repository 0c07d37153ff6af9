/**
 * The database engine behind {@link org.leveldbj.engine.LevelDbFactory}, not exported: the coordinator that ties the log, memtables, tables and versions together,
 * the naming of the files in a database directory, and the iterators reads go through: a
 * {@link org.leveldbj.engine.DbIterator} turns the merged internal entries into the user entries
 * visible at a snapshot, and a {@link org.leveldbj.engine.CursorIterator} presents those as the
 * API's {@link org.iq80.leveldb.DBIterator} with leveldbjni's cursor semantics.
 *
 * <h2>Directory layout</h2>
 * <pre>
 * CURRENT            name of the live MANIFEST, followed by a newline
 * MANIFEST-NNNNNN    log of version edits (see org.leveldbj.version)
 * NNNNNN.log         write-ahead log of write batches
 * NNNNNN.sst         sorted table (or NNNNNN.ldb; see FileNames.writesSst)
 * NNNNNN.vlog        value file of separated values (see org.leveldbj.vlog)
 * NNNNNN.dbtmp       temporary file
 * LOCK               locked while the database is open
 * LOG, LOG.old       human-readable info log
 * </pre>
 *
 * <h2>Reads without the lock</h2>
 * The memtable, the immutable memtable and the current version are published together as a
 * {@link org.leveldbj.engine.ReadView}, replaced under the database lock whenever one of them
 * changes. {@code get}, {@code iterator} and {@code getApproximateSizes} read the last sequence
 * number, then pin the published view (a reference count that refuses a view already released)
 * and never take the database lock; {@code getSnapshot} reads the sequence and registers it
 * under the snapshot list's own lock, which compaction also holds while it reads the oldest
 * snapshot.
 *
 * <h2>Parts, and the lock</h2>
 * {@link org.leveldbj.engine.DbImpl} owns the parts of an open database: {@code DbState} (settings,
 * the database lock, the memtables and the published view, the sticky background error),
 * {@code WriteAheadLog} (the log files), {@code WriteQueue} (group commit and the memtable
 * switch), {@code BackgroundWork} (the background steps, on a shared pool: what runs next, manual compactions,
 * suspension), {@code MemTableFlush} (memtables to tables), {@code ObsoleteFiles} (pending
 * outputs and the sweep), {@code Recovery} (opening), {@code ValueLog} (value files: appends,
 * their syncs, reads), {@code ValueCollector} (reclaiming value files' garbage) and
 * {@code StatisticsSnapshot} (the figures of {@code ExtendedDB.statistics()}, from the counters
 * in {@code DbState} and the published view, without the lock). Fields the
 * database lock guards are marked {@code @GuardedBy} and the build checks every access with
 * Error Prone; methods that other parts call with the lock held assert it, because the
 * analysis cannot follow the lock from one part's reference to another's ({@code doc/impl.md} has the rules and the lock order).
 *
 * <h2>Read-only mode</h2>
 * With {@link org.iq80.leveldb.Options#readOnly(boolean)} a database opens without changing its
 * directory in any way: no file is created, written, renamed or deleted (not even {@code LOCK}
 * or {@code LOG}), the live logs are replayed into memory only and no compaction runs. It takes
 * the {@code LOCK} exclusively when the file exists, like any open, so it fails while another
 * database holds the directory; writes fail with a {@link org.iq80.leveldb.DBException}. The
 * details are on {@link org.leveldbj.engine.DbImpl}.
 */
package org.leveldbj.engine;
