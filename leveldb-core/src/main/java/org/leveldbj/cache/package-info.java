/**
 * The database's caches: {@link org.leveldbj.cache.ClockBlockCache}, uncompressed table blocks
 * bounded by their size in bytes, admitted on their second miss and, once the cache is full,
 * only as often as its hits pay for it; and {@link org.leveldbj.cache.TableCache}, open table
 * files bounded by their number.
 *
 * <h2>Lifetimes</h2>
 * Open tables are reference-counted: the table cache holds one reference per cached table, and
 * every iterator or lookup holds one while it reads. A table file is closed, and unmapped when
 * it was memory-mapped, exactly when its last reference is released, never by the garbage
 * collector. Cached blocks need no count: they are immutable heap buffers, never views of a
 * mapping, so evicting one only drops the cache's reference and a reader still holding it keeps
 * it alive.
 *
 * <p>Thread safety: both caches are safe for concurrent use, each split into independent shards.
 * A block cache hit takes no lock; inserting a block and every table cache operation take their
 * shard's lock only to find and link entries, never during I/O.
 */
package org.leveldbj.cache;
