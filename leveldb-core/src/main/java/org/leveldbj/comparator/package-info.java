/**
 * How keys are ordered: the comparator contract every sorted structure uses
 * ({@link org.leveldbj.comparator.KeyComparator}, comparing byte ranges of buffers and arrays),
 * the byte-wise order that is LevelDB's default
 * ({@link org.leveldbj.comparator.BytewiseComparator}), the adapter of an application's
 * {@link org.iq80.leveldb.DBComparator} ({@link org.leveldbj.comparator.UserComparators}), and
 * the exception that reports an application comparator's failure
 * ({@link org.leveldbj.comparator.ComparatorFailure}). A leaf: blocks, tables, iterators,
 * internal keys and the memtable all use it, and it uses none of them.
 */
package org.leveldbj.comparator;
