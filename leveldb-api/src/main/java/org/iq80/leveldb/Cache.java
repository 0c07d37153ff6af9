package org.iq80.leveldb;

/**
 * A cache of uncompressed table blocks that several databases share, so that one memory budget
 * serves them all (C++ LevelDB's {@code Options::block_cache}, RocksDB's shared {@code Cache}).
 * The engine creates it (leveldbj: {@code LevelDbFactory.newCache(capacity)}) and
 * {@link Options#cache(Cache)} hands it to each database; a database without one gets its own
 * cache of {@link Options#cacheSize()} bytes. An extension of the 0.12 API.
 *
 * <p>Thread safety: safe for concurrent use by any number of databases. Lifetime: the cache
 * outlives the databases that use it; a closed database's blocks age out of it.
 */
public interface Cache {
    /**
     * The most bytes of blocks the cache holds.
     *
     * @return the capacity in bytes
     */
    long capacity();

    /**
     * The bytes of blocks it holds now.
     *
     * @return the usage in bytes
     */
    long usage();
}
