/**
 * The engine's internal iterators: {@link org.leveldbj.iterator.SortedIterator}, a two-way
 * cursor over sorted entries exposing keys and values as buffer views, and iterators composed
 * from others, such as {@link org.leveldbj.iterator.TwoLevelIterator} (an index whose values
 * name inner iterators, e.g. a table's index block over its data blocks).
 *
 * <p>Thread safety: every iterator is confined to one thread at a time.
 */
package org.leveldbj.iterator;
