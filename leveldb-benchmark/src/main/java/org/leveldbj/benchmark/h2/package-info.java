/**
 * A thin adapter that lets the runner drive H2's MVStore, the pure-Java ordered store JVM
 * applications pick instead of an LSM tree, through the {@code org.iq80.leveldb} API: one
 * {@code MVMap} of byte-array keys in LevelDB's unsigned bytewise order. It covers what the
 * workloads call (get, put, delete, batches, iterators in both directions with leveldbjni's cursor
 * semantics, compactRange, properties); other methods throw
 * {@link java.lang.UnsupportedOperationException}.
 *
 * <p>Settings, as {@link org.leveldbj.benchmark.h2.H2Factory} applies them: the store is the file
 * {@code data.mv.db} in the database directory; pages are LZF-compressed unless the options ask
 * for no compression; the page cache is the options' cache size (at least 1 MiB, 8 MiB by
 * default, as LevelDB's block cache); MVStore's background auto-commit writes changes every
 * second or after 1 MiB of unsaved pages, so a write not marked sync survives a process crash
 * only once committed (LevelDB's log keeps it), and a sync write commits and fsyncs the store.
 *
 * <p>The classes of this package link against H2, which is not on the runner's class path: the
 * runner loads them in H2's own class loader.
 */
package org.leveldbj.benchmark.h2;
