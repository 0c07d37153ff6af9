/**
 * A thin adapter that lets the runner drive RocksDB through the {@code org.iq80.leveldb} API:
 * the subset of {@link org.iq80.leveldb.DB} the workloads call (get, put, delete, batches,
 * iterators with leveldbjni's cursor semantics, compactRange, properties). Other methods throw
 * {@link java.lang.UnsupportedOperationException}.
 * <p>The classes of this package link against rocksdbjni, which is not on the runner's class
 * path: the runner loads them in RocksDB's own class loader.
 */
package org.leveldbj.benchmark.rocksdb;
