package org.leveldbj.table;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/** An unbounded in-test block cache counting hits. */
final class MapBlockCache implements BlockCache {
    private final ConcurrentHashMap<String, Block> blocks = new ConcurrentHashMap<>();
    private final AtomicLong ids = new AtomicLong();
    final AtomicLong hits = new AtomicLong();

    @Override
    public long newId() {
        return ids.incrementAndGet();
    }

    @Override
    public Block lookup(long cacheId, long blockOffset) {
        Block b = blocks.get(cacheId + "/" + blockOffset);
        if (b != null) {
            hits.incrementAndGet();
        }
        return b;
    }

    @Override
    public void insert(long cacheId, long blockOffset, Block block) {
        blocks.put(cacheId + "/" + blockOffset, block);
    }

    int size() {
        return blocks.size();
    }
}
