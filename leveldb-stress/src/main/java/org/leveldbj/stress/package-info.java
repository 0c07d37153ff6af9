/**
 * A crash test in the manner of RocksDB's db_crashtest: {@link org.leveldbj.stress.CrashTest}
 * (the driver behind {@code bin/crashtest}) starts {@link org.leveldbj.stress.StressMain} as a
 * child JVM, kills it at a random moment or at a chosen point inside the engine (a memtable
 * flush, a compaction, a MANIFEST update, a repair), reopens the database and checks with
 * {@link org.leveldbj.stress.Verifier} that what survived is exactly what the expected-state
 * logs allow, then carries on with the same database. Each round (one stress process) reopens it
 * with options drawn by {@link org.leveldbj.stress.OptionSpace}, and a
 * {@link org.leveldbj.stress.Watchdog} fails a round whose process deadlocks or stops making
 * progress.
 *
 * <p>The model is a process crash: the operating system keeps every byte the process wrote, so
 * every acknowledged write (synced or not) must survive, and a write in flight may or may not.
 * {@code --require-unsynced=false} checks the weaker power-failure rule instead: only synced
 * writes, and everything before them, must survive. Writes made without the log
 * ({@code WriteOptions.disableWal}) are never required: they survive only when a flush took them.
 */
package org.leveldbj.stress;
