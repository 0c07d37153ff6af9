package org.leveldbj.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.leveldbj.comparator.BytewiseComparator;
import org.leveldbj.table.Block;
import org.leveldbj.table.BlockBuilder;
import org.leveldbj.testing.Seed;
import org.leveldbj.testing.SeedExtension;

/** Capacity in bytes, CLOCK eviction, table growth, counters and a concurrency test. */
@ExtendWith(SeedExtension.class)
class ClockBlockCacheTest {
    /** A block of about {@code size} bytes. */
    private static Block block(int size) {
        BlockBuilder b = new BlockBuilder(16, BytewiseComparator.INSTANCE);
        b.add(new byte[] {'k'}, new byte[Math.max(0, size - 12)]);
        ByteBuffer done = b.finish();
        byte[] copy = new byte[done.remaining()];
        done.get(copy);
        return new Block(ByteBuffer.wrap(copy));
    }

    /** Offsets whose keys (with cache id 1) fall in the same shard as offset 0. */
    private static List<Long> sameShardOffsets(int n) {
        List<Long> out = new ArrayList<>();
        long shard = ClockBlockCache.hash(1, 0) >>> 60;
        for (long off = 0; out.size() < n; off++) {
            if (ClockBlockCache.hash(1, off) >>> 60 == shard) {
                out.add(off);
            }
        }
        return out;
    }

    @Test
    void evictsInInsertionOrderGivingReadBlocksASecondChance() {
        Block b = block(1000);
        int size = b.size();
        // 16 shards of room for exactly three blocks each.
        ClockBlockCache cache = new ClockBlockCache(16L * 3 * size);
        List<Long> offs = sameShardOffsets(7);
        cache.insert(1, offs.get(0), b);
        cache.insert(1, offs.get(1), b);
        cache.insert(1, offs.get(2), b);
        assertEquals(3L * size, cache.usage());
        assertSame(b, cache.lookup(1, offs.get(0)));   // marks offs[0]
        cache.insert(1, offs.get(3), b);                // spares offs[0] (clearing its mark), evicts offs[1]
        assertNull(cache.lookup(1, offs.get(1)));
        assertEquals(3L * size, cache.usage());
        assertEquals(3, cache.entries());
        cache.insert(1, offs.get(4), b);                // the hand is at offs[2], unread: it goes
        assertNull(cache.lookup(1, offs.get(2)));
        assertSame(b, cache.lookup(1, offs.get(3)));   // marks offs[3]
        cache.insert(1, offs.get(5), b);                // spares offs[3], evicts offs[0] (mark cleared)
        assertNull(cache.lookup(1, offs.get(0)));
        // All three marked: the hand clears every mark, skips the block being inserted, and
        // evicts the first block it cleared.
        assertSame(b, cache.lookup(1, offs.get(3)));
        assertSame(b, cache.lookup(1, offs.get(4)));
        assertSame(b, cache.lookup(1, offs.get(5)));
        cache.insert(1, offs.get(6), b);
        assertNull(cache.lookup(1, offs.get(4)));
        assertSame(b, cache.lookup(1, offs.get(3)));
        assertSame(b, cache.lookup(1, offs.get(5)));
        assertSame(b, cache.lookup(1, offs.get(6)));
        assertEquals(3, cache.entries());
        assertEquals(3L * size, cache.usage());
    }

    @Test
    void admitsABlockOnItsSecondMiss() {
        ClockBlockCache cache = new ClockBlockCache(1 << 20);
        assertFalse(cache.admit(1, 0, 4096), "first miss");
        assertFalse(cache.admit(1, 4096, 4096), "another block's first miss");
        assertTrue(cache.admit(1, 0, 4096), "second miss");
        assertFalse(cache.admit(1, 0, 4096), "the admission is used up");
        assertTrue(cache.admit(1, 4096, 4096));
        assertFalse(cache.admit(2, 0, 4096), "another table's block");
        ClockBlockCache none = new ClockBlockCache(0);
        assertFalse(none.admit(1, 0, 4096));
        assertFalse(none.admit(1, 0, 4096), "a cache that keeps nothing wants nothing");
        ClockBlockCache tiny = new ClockBlockCache(16 * 4000);
        assertFalse(tiny.admit(1, 0, 4096));
        assertFalse(tiny.admit(1, 0, 4096), "shards smaller than a 4 KiB block want none");
        assertFalse(org.leveldbj.table.BlockCache.NONE.admit(1, 0, 4096));
        ClockBlockCache small = new ClockBlockCache(16 * 8192);
        assertFalse(small.admit(1, 0, 8193));
        assertFalse(small.admit(1, 0, 8193), "a block larger than a shard is never wanted");
        assertFalse(small.admit(1, 0, 8192));
        assertTrue(small.admit(1, 0, 8192), "one that fits is, on its second miss");
    }

    /** A cache of 16 shards with room for {@code blocksPerShard} 4 KiB blocks each, filled. */
    private static ClockBlockCache fullCache(int blocksPerShard) {
        Block b = block(ClockBlockCache.TYPICAL_BLOCK);
        ClockBlockCache cache = new ClockBlockCache(16L * blocksPerShard * b.size());
        for (long off = 0; off < 4096; off++) {
            cache.insert(1, off, b); // about 256 per shard: every shard full
        }
        assertEquals(16L * blocksPerShard * b.size(), cache.usage());
        return cache;
    }

    /**
     * Offers {@code n} blocks never seen before, each missed twice, to the cache, reading
     * {@code hitsPerCandidate} cached blocks between two; returns how many it admitted.
     */
    private static int offer(ClockBlockCache cache, long firstOffset, int n, int hitsPerCandidate) {
        int admitted = 0;
        long cached = 0;
        for (long off = firstOffset; off < firstOffset + n; off++) {
            assertFalse(cache.admit(2, off, 4096), "first miss");
            if (cache.admit(2, off, 4096)) {
                admitted++;
            }
            for (int i = 0; i < hitsPerCandidate; ) {
                if (cache.lookup(1, cached++ % 4096) != null) {
                    i++;
                }
            }
        }
        return admitted;
    }

    @Test
    void aFullCacheWhoseBlocksAreNotReadAgainAdmitsFewOfThem() {
        ClockBlockCache cache = fullCache(8);
        int period = ClockBlockCache.ADMISSION_PERIOD;
        assertEquals(period - 1, offer(cache, 1_000_000, period - 1, 0), "admits every candidate at first");
        offer(cache, 2_000_000, period * (ClockBlockCache.MAX_ADMISSION_SHIFT + 1), 0);
        assertEquals(ClockBlockCache.MAX_ADMISSION_SHIFT, cache.admissionShift(), "no hits: the lowest rate");
        int n = 16 * period;
        int admitted = offer(cache, 3_000_000, n, 0);
        int expected = n >> ClockBlockCache.MAX_ADMISSION_SHIFT;
        assertTrue(admitted > expected / 4 && admitted < expected * 4,
                admitted + " of " + n + " admitted, about " + expected + " expected");
    }

    @Test
    void aFullCacheWhoseHitsPayForItsAdmissionsAdmitsEveryCandidate() {
        ClockBlockCache cache = fullCache(8);
        int n = 8 * ClockBlockCache.ADMISSION_PERIOD;
        assertEquals(n, offer(cache, 1_000_000, n, ClockBlockCache.HITS_PER_ADMISSION + 1));
        assertEquals(0, cache.admissionShift());
    }

    @Test
    void theAdmissionRateComesBackWithTheHits() {
        ClockBlockCache cache = fullCache(8);
        int period = ClockBlockCache.ADMISSION_PERIOD;
        offer(cache, 1_000_000, period * (ClockBlockCache.MAX_ADMISSION_SHIFT + 1), 0);
        assertEquals(ClockBlockCache.MAX_ADMISSION_SHIFT, cache.admissionShift());
        // More than twice the hits asked of every candidate: the rate doubles every period.
        int hits = 2 * ClockBlockCache.HITS_PER_ADMISSION + 1;
        offer(cache, 2_000_000, period * (ClockBlockCache.MAX_ADMISSION_SHIFT + 1), hits);
        assertEquals(0, cache.admissionShift());
        int n = 2 * period;
        assertEquals(n, offer(cache, 3_000_000, n, hits));
    }

    @Test
    void aShardWithRoomAdmitsEverySecondMissWhateverTheRate() {
        ClockBlockCache cache = fullCache(8);
        offer(cache, 1_000_000, ClockBlockCache.ADMISSION_PERIOD * (ClockBlockCache.MAX_ADMISSION_SHIFT + 1), 0);
        assertEquals(ClockBlockCache.MAX_ADMISSION_SHIFT, cache.admissionShift());
        cache.clear();
        int n = 1000;
        assertEquals(n, offer(cache, 2_000_000, n, 0));
    }

    @Test
    void keepsEveryBlockWhileTheTableGrows() {
        ClockBlockCache cache = new ClockBlockCache(64L << 20);
        Block[] blocks = new Block[5000];
        for (int i = 0; i < blocks.length; i++) {
            blocks[i] = block(20);
            cache.insert(3, i * 4096L, blocks[i]);
        }
        assertEquals(blocks.length, cache.entries());
        for (int i = 0; i < blocks.length; i++) {
            assertSame(blocks[i], cache.lookup(3, i * 4096L), "block " + i);
        }
        assertEquals(blocks.length, cache.hits());
    }

    @Test
    void chargesBlockSizesAndReplacesAKeysBlock() {
        ClockBlockCache cache = new ClockBlockCache(1 << 20);
        Block small = block(100);
        Block big = block(5000);
        cache.insert(7, 0, small);
        assertEquals(small.size(), cache.usage());
        cache.insert(7, 0, big);
        assertEquals(big.size(), cache.usage());
        assertEquals(1, cache.entries());
        assertSame(big, cache.lookup(7, 0));
        assertNull(cache.lookup(8, 0), "another table's block");
        cache.clear();
        assertEquals(0, cache.usage());
        assertNull(cache.lookup(7, 0));
    }

    @Test
    void neverHoldsMoreThanItsCapacity() {
        long capacity = 64 * 1024;
        ClockBlockCache cache = new ClockBlockCache(capacity);
        Random r = new Random(1);
        for (int i = 0; i < 2000; i++) {
            cache.insert(1 + r.nextInt(3), r.nextInt(100_000), block(100 + r.nextInt(3000)));
            assertTrue(cache.usage() <= capacity + 15, "usage " + cache.usage());
        }
        assertTrue(cache.usage() > capacity / 2, "a full cache should be mostly used: " + cache.usage());
    }

    @Test
    void blocksLargerThanAShardAndZeroCapacityAreNotCached() {
        ClockBlockCache cache = new ClockBlockCache(16 * 1000);
        cache.insert(1, 0, block(2000));
        assertNull(cache.lookup(1, 0));
        assertEquals(0, cache.usage());
        ClockBlockCache none = new ClockBlockCache(0);
        none.insert(1, 0, block(10));
        assertNull(none.lookup(1, 0));
    }

    @Test
    void defaultsAndValidation() {
        assertEquals(8L << 20, ClockBlockCache.forCacheSize(0).capacity());
        assertEquals(12345, ClockBlockCache.forCacheSize(12345).capacity());
        assertThrows(IllegalArgumentException.class, () -> ClockBlockCache.forCacheSize(-1));
        ClockBlockCache cache = new ClockBlockCache(100);
        assertNotEquals(cache.newId(), cache.newId());
    }

    @Test
    void countsHitsAndMisses() {
        ClockBlockCache cache = new ClockBlockCache(1 << 20);
        Block b = block(100);
        assertNull(cache.lookup(1, 0));
        cache.insert(1, 0, b);
        cache.lookup(1, 0);
        cache.lookup(1, 0);
        cache.lookup(1, 4096);
        assertEquals(2, cache.hits());
        assertEquals(2, cache.misses());
    }

    @Test
    void concurrentUseKeepsEveryKeyWithItsBlock(@Seed long seed) throws InterruptedException {
        long capacity = 256 * 1024;
        ClockBlockCache cache = new ClockBlockCache(capacity);
        int keys = 2000;
        Block[] blocks = new Block[keys];
        Random setup = new Random(seed);
        for (int i = 0; i < keys; i++) {
            blocks[i] = block(50 + setup.nextInt(2000));
        }
        AtomicReference<Throwable> failure = new AtomicReference<>();
        AtomicLong missed = new AtomicLong();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            long threadSeed = seed + t;
            threads.add(new Thread(() -> {
                try {
                    Random r = new Random(threadSeed);
                    for (int i = 0; i < 50_000; i++) {
                        int k = r.nextInt(keys);
                        Block found = cache.lookup(k % 7, k);
                        if (found == null) {
                            missed.incrementAndGet();
                            cache.insert(k % 7, k, blocks[k]);
                        } else if (found != blocks[k]) {
                            throw new AssertionError("key " + k + " returned another key's block");
                        }
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            }));
        }
        threads.forEach(Thread::start);
        for (Thread t : threads) {
            t.join();
        }
        if (failure.get() != null) {
            throw new AssertionError("seed " + seed, failure.get());
        }
        assertTrue(cache.usage() <= capacity + 15);
        // Misses are counted exactly; hits without synchronization, so racing ones may be lost.
        assertEquals(missed.get(), cache.misses());
        assertTrue(cache.misses() >= keys, "misses " + cache.misses());
        assertTrue(cache.hits() > 0 && cache.hits() + cache.misses() <= 4 * 50_000L, "hits " + cache.hits());
    }
}
