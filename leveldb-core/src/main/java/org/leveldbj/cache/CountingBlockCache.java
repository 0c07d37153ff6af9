package org.leveldbj.cache;

import org.leveldbj.stats.Counters;
import org.leveldbj.table.Block;
import org.leveldbj.table.BlockCache;

/**
 * One database's view of a block cache that may be shared: every lookup is passed on and counted
 * as a hit or a miss in that database's {@link Counters}, so that each database sees its own
 * figures while the cache's own count covers all of them.
 *
 * <p>Thread safety: as safe as the cache; the counters are lock-free.
 */
public final class CountingBlockCache implements BlockCache {
    private final BlockCache cache;
    private final Counters counters;

    /**
     * Wraps a cache.
     *
     * @param cache the cache, possibly shared
     * @param counters the database's counters
     */
    public CountingBlockCache(BlockCache cache, Counters counters) {
        this.cache = cache;
        this.counters = counters;
    }

    @Override
    public long newId() {
        return cache.newId();
    }

    @Override
    public Block lookup(long cacheId, long blockOffset) {
        Block block = cache.lookup(cacheId, blockOffset);
        counters.countBlockLookup(block != null);
        return block;
    }

    @Override
    public void insert(long cacheId, long blockOffset, Block block) {
        cache.insert(cacheId, blockOffset, block);
    }

    @Override
    public boolean admit(long cacheId, long blockOffset, long storedSize) {
        return cache.admit(cacheId, blockOffset, storedSize);
    }

    @Override
    public String toString() {
        return "CountingBlockCache(" + cache + ")";
    }
}
