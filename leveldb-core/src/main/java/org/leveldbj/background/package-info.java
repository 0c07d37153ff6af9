/**
 * Threads for the background work of many databases: a {@link org.leveldbj.background.Pool} of a
 * bounded number of threads, and for each database a {@link org.leveldbj.background.Lane}
 * through which it asks for its background steps (memtable flushes, compactions, the deletion
 * of obsolete files) and hands over independent tasks (syncs of full value files).
 *
 * <h2>Scheduling</h2>
 * A lane runs at most one step at a time, on whichever thread of the pool takes it: the
 * engine's rule that one thread at a time applies a database's version edits and deletes its
 * files holds per database, not per thread. A lane waits in one of two queues, both first in,
 * first out: <em>flushes</em>, when its database has an immutable memtable (or a sweep of
 * obsolete files a caller waits for), and <em>compactions</em> otherwise; a lane asked for
 * again while it waits for a compaction and now flushing moves to the flush queue. A free
 * thread takes the first lane of the flush queue, else the oldest independent task, else the
 * first lane of the compaction queue. A lane that wants another step when its step ends goes to
 * the back of its queue, so databases that all want compactions take turns.
 *
 * <h2>Flushes do not wait for compactions</h2>
 * A compaction step can take seconds. While it merges its inputs it calls
 * {@link org.leveldbj.background.Lane#help()} at every entry (a volatile read when no flush
 * waits): when a flush waits, the compacting thread runs that database's flush step itself
 * (a flush step never compacts, so this nests once at most) and then goes on with its
 * compaction. So a database whose memtable is full waits for a thread at most as long as the
 * shortest of: one flush on a thread flushing, one value-file sync on a thread syncing, or the
 * part of a compaction step that does not merge (opening its inputs, the last syncs of its
 * outputs and directory, and its MANIFEST write) on a thread compacting; and never for a whole
 * compaction.
 *
 * <h2>Locks</h2>
 * The pool's lock ({@link org.leveldbj.util.LockRank#BACKGROUND_POOL}, the last rank) guards its
 * queues and the state of every lane. Databases take it with their own locks held (asking for a
 * step happens under the database lock, handing over a value-file sync under the value log's);
 * the pool never holds it while it runs a step or a task, and takes no other lock under it. It
 * reads a database's volatile flag ({@code urgent}) under it, which takes no lock.
 *
 * <h2>Threads</h2>
 * Daemon threads, started when work arrives and fewer than the limit run, ended after
 * {@link org.leveldbj.background.Pool#KEEP_ALIVE_SECONDS} seconds without work or when the pool
 * closes.
 */
package org.leveldbj.background;
