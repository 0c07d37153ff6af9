/**
 * What the engine tells about itself while it runs: the counters of an open database
 * ({@link org.leveldbj.stats.Counters}), the Java Flight Recorder events it emits (category
 * {@code LevelDB}, names {@code org.leveldbj.*}), and the JMX bean of an open database
 * ({@link org.leveldbj.stats.DatabaseMBean}, registered by {@link org.leveldbj.stats.JmxRegistration}).
 * The figures themselves, their names and units, are the API's {@link org.iq80.leveldb.Metric}
 * list; the engine assembles them into an {@link org.iq80.leveldb.Statistics} snapshot.
 *
 * <h2>Cost</h2>
 * Counters that several threads bump without a lock (the read path: lookups, seeks, block
 * cache hits and misses) are cells of one thread each ({@code ThreadCells}), bumped with plain
 * (opaque) stores: no atomic instruction, so no cache line shared between readers and no drain
 * of the store buffer; counters bumped where the database lock is
 * held anyway (the write leader, flushes, compactions, stalls) are plain slots written by one
 * thread at a time with opaque stores and read with opaque loads, which compile to ordinary
 * moves. A disabled JFR event costs the allocation the JIT removes and a check of
 * {@code shouldCommit()}: its fields are computed only when it will be recorded.
 *
 * <h2>Events</h2>
 * Every event carries the database directory ({@code directory}):
 * <ul>
 *   <li>{@code org.leveldbj.MemTableFlush}: a memtable written to a table: table number, bytes,
 *       level; duration.</li>
 *   <li>{@code org.leveldbj.Compaction}: input level, output level, input files of each level
 *       and their numbers, output files, bytes read and written, reason ({@code size},
 *       {@code seek}, {@code manual}, {@code trivial-move}); duration.</li>
 *   <li>{@code org.leveldbj.WriteStall}: a write held back: cause ({@code level0-slowdown},
 *       {@code level0-stop}, {@code memtable}); duration.</li>
 *   <li>{@code org.leveldbj.TableOpen} and {@code org.leveldbj.TableEviction}: a table file
 *       entering and leaving the table cache: file number, size; for evictions the reason
 *       ({@code capacity}, {@code obsolete}, {@code close}).</li>
 *   <li>{@code org.leveldbj.Recovery}: an open replaying its logs: logs replayed, entries;
 *       duration.</li>
 *   <li>{@code org.leveldbj.ValueFileCollection}: a pass of the value collector: files
 *       reclaimed, bytes reclaimed; duration.</li>
 *   <li>{@code org.leveldbj.BackgroundError}: the first error that stopped background work:
 *       message, exception type.</li>
 * </ul>
 *
 * <p>Thread safety: {@link org.leveldbj.stats.Counters} says which counters need the database
 * lock to be bumped; events are confined to the thread that fills them.
 */
package org.leveldbj.stats;
