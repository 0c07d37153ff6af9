package org.leveldbj.cache;

import org.leveldbj.table.Block;

/**
 * One shard of {@link LruBlockCache}: a chained hash table of entries that are also linked in
 * a list from least to most recently used, bounded by the total charge of its entries.
 *
 * <p>Thread safety: every method locks the shard (its own monitor); the fields below are
 * guarded by it.
 */
final class LruShard {
    /** A cached block; linked in its bucket's chain and in the recency list. */
    private static final class Node {
        final long cacheId;
        final long offset;
        final int hash;
        Block block;
        int charge;
        Node chain;
        Node older;
        Node newer;

        Node(long cacheId, long offset, int hash) {
            this.cacheId = cacheId;
            this.offset = offset;
            this.hash = hash;
        }
    }

    private final long capacity;
    // Guarded by this.
    private Node[] table = new Node[16];
    private int count;
    private long usage;
    private long hits;
    private long misses;
    /** Sentinel of the circular recency list: {@code lru.newer} is the oldest entry. */
    private final Node lru = new Node(0, 0, 0);

    LruShard(long capacity) {
        this.capacity = capacity;
        lru.older = lru;
        lru.newer = lru;
    }

    synchronized Block lookup(long cacheId, long offset, int hash) {
        Node n = find(cacheId, offset, hash);
        if (n == null) {
            misses++;
            return null;
        }
        hits++;
        unlink(n);
        linkNewest(n);
        return n.block;
    }

    synchronized void insert(long cacheId, long offset, int hash, Block block, int charge) {
        if (charge > capacity) {
            return; // would evict everything and still not fit (and capacity 0 caches nothing)
        }
        Node n = find(cacheId, offset, hash);
        if (n != null) {
            usage += charge - n.charge;
            n.block = block;
            n.charge = charge;
            unlink(n);
        } else {
            n = new Node(cacheId, offset, hash);
            n.block = block;
            n.charge = charge;
            usage += charge;
            addToTable(n);
        }
        linkNewest(n);
        while (usage > capacity) {
            Node oldest = lru.newer;
            assert oldest != lru && oldest != n;
            remove(oldest);
        }
    }

    synchronized long usage() {
        return usage;
    }

    synchronized long entries() {
        return count;
    }

    synchronized long hits() {
        return hits;
    }

    synchronized long misses() {
        return misses;
    }

    synchronized void clear() {
        table = new Node[16];
        count = 0;
        usage = 0;
        lru.older = lru;
        lru.newer = lru;
    }

    private Node find(long cacheId, long offset, int hash) {
        Node n = table[hash & (table.length - 1)];
        while (n != null && (n.hash != hash || n.cacheId != cacheId || n.offset != offset)) {
            n = n.chain;
        }
        return n;
    }

    private void addToTable(Node n) {
        if (count >= table.length) {
            grow();
        }
        int i = n.hash & (table.length - 1);
        n.chain = table[i];
        table[i] = n;
        count++;
    }

    private void grow() {
        Node[] old = table;
        Node[] bigger = new Node[old.length * 2];
        for (Node head : old) {
            Node n = head;
            while (n != null) {
                Node next = n.chain;
                int i = n.hash & (bigger.length - 1);
                n.chain = bigger[i];
                bigger[i] = n;
                n = next;
            }
        }
        table = bigger;
    }

    private void remove(Node victim) {
        unlink(victim);
        int i = victim.hash & (table.length - 1);
        Node n = table[i];
        Node before = null;
        while (n != victim) {
            before = n;
            n = n.chain;
        }
        if (before == null) {
            table[i] = victim.chain;
        } else {
            before.chain = victim.chain;
        }
        victim.chain = null;
        victim.block = null;
        count--;
        usage -= victim.charge;
    }

    private void unlink(Node n) {
        n.older.newer = n.newer;
        n.newer.older = n.older;
    }

    private void linkNewest(Node n) {
        n.newer = lru;
        n.older = lru.older;
        lru.older.newer = n;
        lru.older = n;
    }
}
