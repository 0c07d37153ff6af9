/**
 * The engine of leveldbj, in packages named for what they hold (see each package's overview,
 * and {@code doc/impl.md} for threads, locks and file lifetime).
 *
 * <h2>Layers</h2>
 * The packages form layers, listed bottom to top; a package uses only packages of lower layers,
 * never one of its own layer or above, as in google/leveldb, where {@code table/} knows nothing
 * of internal keys and {@code db/filename.h} is a leaf. {@code LayeringTest} reads this list and
 * fails the build on any other dependency.
 *
 * <ol>
 *   <li>layer: util</li>
 *   <li>layer: comparator, compress, env, filename, log</li>
 *   <li>layer: iterator</li>
 *   <li>layer: key, table</li>
 *   <li>layer: memtable</li>
 *   <li>layer: cache, version</li>
 *   <li>layer: compaction</li>
 *   <li>layer: db</li>
 * </ol>
 */
package org.leveldbj;
