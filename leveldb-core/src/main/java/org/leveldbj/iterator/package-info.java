/**
 * The engine's internal iterators: {@link org.leveldbj.iterator.SortedIterator}, a two-way
 * cursor over sorted entries exposing keys and values as buffer views, and iterators composed
 * from others: {@link org.leveldbj.iterator.TwoLevelIterator} (an index whose values name inner
 * iterators, e.g. a table's index block over its data blocks),
 * {@link org.leveldbj.iterator.MergingIterator} (the sorted union of several iterators, e.g. the
 * memtables and tables of a database) and {@link org.leveldbj.iterator.EmptyIterator}.
 *
 * <p>Composition and ownership: a composed iterator owns the iterators it is built from and
 * closes them when it is closed. Key and value views are valid until the iterator that returned
 * them moves.
 *
 * <p>Thread safety: every iterator is confined to one thread at a time.
 */
package org.leveldbj.iterator;
