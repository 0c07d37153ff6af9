/**
 * Time to live: a database whose values expire ({@link org.leveldbj.ttl.TtlDB}), hidden from
 * reads as soon as the application's clock passes their expiry and removed by compactions
 * through a {@link org.iq80.leveldb.CompactionFilter} ({@link org.leveldbj.ttl.ExpiryFilter}).
 *
 * <p>Byte layout, written by {@link org.leveldbj.ttl.TtlValues}: every value stored is the
 * application's value followed by an 8-byte suffix, its expiry as milliseconds since the epoch
 * (UTC), a signed 64-bit integer in big-endian order; {@link Long#MAX_VALUE} means never. The
 * keys are the application's, unchanged. The database is a LevelDB database like any other: C++
 * LevelDB, goleveldb or a plain open of this engine read it, and see each value with its
 * suffix.
 */
package org.leveldbj.ttl;
