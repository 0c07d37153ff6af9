package org.leveldbj.cache;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicLong;
import org.leveldbj.table.Block;
import org.leveldbj.util.LockRank;
import org.leveldbj.util.OrderedLock;

/**
 * One shard of the {@link ClockBlockCache}: a hash table of chained entries that lookups read
 * without a lock, and a ring of the same entries that a clock hand sweeps, under the shard's
 * lock, to choose what to evict.
 *
 * <p>Publication: an entry's key, block and charge are final; it reaches readers through a
 * release store (a bucket slot or a predecessor's {@code next}), and readers load with acquire,
 * so a reader that finds an entry sees it whole. Unlinking an entry leaves its own
 * {@code next} as it was, so a reader standing on it walks on to the rest of the chain. Growing
 * the table builds new entries in a new array and publishes the array; readers still walking
 * the old one find what it held, at worst a block just evicted (blocks are immutable and
 * garbage-collected, see {@link ClockBlockCache}), or miss a block just inserted.
 *
 * <p>Eviction (CLOCK, the usual approximation of least-recently-used): a hit sets the entry's
 * reference bit, a plain store done only when the bit is clear, so hot entries cost readers no
 * writes. The hand clears set bits as it passes and evicts the first entry whose bit is clear;
 * an entry read since the hand last passed it survives one more sweep. A new entry starts with
 * its bit clear, so a block read once by a scan is the first to go, and is never the victim of
 * its own insertion.
 *
 * <p>Thread safety: {@link #lookup} runs without a lock; everything else holds this shard's
 * lock (rank {@link LockRank#BLOCK_CACHE_SHARD}).
 */
final class ClockShard {
    /** This object's lock (doc/impl.md, Locks). */
    private final OrderedLock lock = new OrderedLock(LockRank.BLOCK_CACHE_SHARD);
    private static final VarHandle SLOTS = MethodHandles.arrayElementVarHandle(Entry[].class);

    private static final class Entry {
        private static final VarHandle NEXT;

        static {
            try {
                NEXT = MethodHandles.lookup().findVarHandle(Entry.class, "next", Entry.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        final long cacheId;
        final long offset;
        final int hash;
        final Block block;
        final int charge;
        /** The next entry of the bucket's chain; written with release, read with acquire. */
        @SuppressWarnings("unused") // accessed through NEXT
        private Entry next;
        /** Set by hits, cleared by the clock hand; racy by design. */
        boolean referenced;
        /** Neighbours in the clock's ring; guarded by the shard. */
        Entry ringPrev;
        Entry ringNext;

        Entry(long cacheId, long offset, int hash, Block block, int charge) {
            this.cacheId = cacheId;
            this.offset = offset;
            this.hash = hash;
            this.block = block;
            this.charge = charge;
        }

        Entry next() {
            return (Entry) NEXT.getAcquire(this);
        }

        void setNext(Entry e) {
            NEXT.setRelease(this, e);
        }

        boolean matches(long id, long off, int h) {
            return hash == h && cacheId == id && offset == off;
        }
    }

    private final long capacity;
    /** Lookups that found their block; incremented without synchronization (see hits()). */
    private long hits;
    /**
     * Lookups that did not find their block, counted exactly. An atomic add rather than a
     * {@code LongAdder}: the adder's code takes another path once two threads have contended on
     * it, and the JIT, which compiled the lookup into a scan's loop for the uncontended path,
     * then throws that compiled loop away in the middle of the scan (JFR showed a scan beside a
     * compaction deoptimized there, its merge step recompiled by C2 for 0.6 s while it ran).
     */
    private final AtomicLong misses = new AtomicLong();
    /** The buckets; replaced whole when the table grows. */
    private volatile Entry[] table = new Entry[16];
    // Guarded by this: the ring, in the order the hand visits it, starts at the hand (null when
    // empty); a new entry joins just behind the hand, so it is examined last.
    private Entry hand;
    private int count;
    /** Written under the lock; read without it by {@link #hasRoomFor}. */
    private volatile long usage;

    ClockShard(long capacity) {
        this.capacity = capacity;
    }

    /**
     * Finds a cached block without taking the lock.
     *
     * @return the block, or {@code null}
     */
    Block lookup(long cacheId, long offset, int hash) {
        Entry[] t = table;
        Entry e = (Entry) SLOTS.getAcquire(t, hash & (t.length - 1));
        while (e != null) {
            if (e.matches(cacheId, offset, hash)) {
                if (!e.referenced) {
                    e.referenced = true;
                }
                hits++;
                return e.block;
            }
            e = e.next();
        }
        misses.incrementAndGet();
        return null;
    }

    void insert(long cacheId, long offset, int hash, Block block, int charge) {
        lock.lock();
        try {
            if (charge > capacity) {
                return; // would evict everything and still not fit (and capacity 0 caches nothing)
            }
            Entry[] t = table;
            int i = hash & (t.length - 1);
            Entry added = new Entry(cacheId, offset, hash, block, charge);
            Entry before = null;
            Entry e = (Entry) SLOTS.getAcquire(t, i);
            while (e != null && !e.matches(cacheId, offset, hash)) {
                before = e;
                e = e.next();
            }
            if (e != null) {
                // Replace in place: same chain position, same place in the ring.
                added.setNext(e.next());
                link(t, i, before, added);
                replaceInRing(e, added);
                usage += charge - e.charge;
            } else {
                added.setNext((Entry) SLOTS.getAcquire(t, i));
                SLOTS.setRelease(t, i, added);
                addToRing(added);
                count++;
                usage += charge;
                if (count > t.length) {
                    added = grow(added);
                }
            }
            while (usage > capacity) {
                evictOne(added);
            }
        } finally {
            lock.unlock();
        }
    }

    private void addToRing(Entry e) {
        if (hand == null) {
            e.ringPrev = e;
            e.ringNext = e;
            hand = e;
        } else {
            e.ringNext = hand;
            e.ringPrev = hand.ringPrev;
            hand.ringPrev.ringNext = e;
            hand.ringPrev = e;
        }
    }

    private void replaceInRing(Entry old, Entry e) {
        if (old.ringNext == old) {
            e.ringPrev = e;
            e.ringNext = e;
        } else {
            e.ringPrev = old.ringPrev;
            e.ringNext = old.ringNext;
            old.ringPrev.ringNext = e;
            old.ringNext.ringPrev = e;
        }
        if (hand == old) {
            hand = e;
        }
    }

    private void removeFromRing(Entry e) {
        if (e.ringNext == e) {
            hand = null;
            return;
        }
        e.ringPrev.ringNext = e.ringNext;
        e.ringNext.ringPrev = e.ringPrev;
        if (hand == e) {
            hand = e.ringNext;
        }
    }

    private static void link(Entry[] t, int i, Entry before, Entry e) {
        if (before == null) {
            SLOTS.setRelease(t, i, e);
        } else {
            before.setNext(e);
        }
    }

    /** Advances the hand to the first unreferenced entry other than {@code keep} and evicts it. */
    private void evictOne(Entry keep) {
        while (true) {
            Entry victim = hand;
            if (victim == keep || victim.referenced) {
                victim.referenced = false;
                hand = victim.ringNext;
                continue;
            }
            remove(victim);
            return;
        }
    }

    private void remove(Entry victim) {
        Entry[] t = table;
        int i = victim.hash & (t.length - 1);
        Entry before = null;
        Entry e = (Entry) SLOTS.getAcquire(t, i);
        while (e != victim) {
            before = e;
            e = e.next();
        }
        link(t, i, before, victim.next());
        removeFromRing(victim);
        count--;
        usage -= victim.charge;
    }

    /**
     * Doubles the table with new entries, in the same ring order, leaving the old table intact
     * for readers on it.
     *
     * @return the new entry standing for {@code wanted}
     */
    private Entry grow(Entry wanted) {
        Entry[] bigger = new Entry[table.length * 2];
        Entry old = hand;
        Entry first = null;
        Entry last = null;
        Entry found = null;
        for (int n = 0; n < count; n++, old = old.ringNext) {
            Entry copy = new Entry(old.cacheId, old.offset, old.hash, old.block, old.charge);
            copy.referenced = old.referenced;
            int i = copy.hash & (bigger.length - 1);
            copy.setNext(bigger[i]);
            bigger[i] = copy;
            if (first == null) {
                first = copy;
            } else {
                last.ringNext = copy;
                copy.ringPrev = last;
            }
            last = copy;
            if (old == wanted) {
                found = copy;
            }
        }
        last.ringNext = first;
        first.ringPrev = last;
        hand = first;
        table = bigger;
        return found;
    }

    /** @return the hits counted; increments racing on other threads may be lost */
    long hits() {
        return hits;
    }

    /** @return the misses counted */
    long misses() {
        return misses.get();
    }

    /**
     * Tells, without the lock, whether a block of {@code charge} bytes would fit without
     * evicting another (a hint: it may change at once).
     */
    boolean hasRoomFor(long charge) {
        return usage + charge <= capacity;
    }

    long usage() {
        lock.lock();
        try {
            return usage;
        } finally {
            lock.unlock();
        }
    }

    long entries() {
        lock.lock();
        try {
            return count;
        } finally {
            lock.unlock();
        }
    }

    void clear() {
        lock.lock();
        try {
            table = new Entry[16];
            hand = null;
            count = 0;
            usage = 0;
        } finally {
            lock.unlock();
        }
    }
}
