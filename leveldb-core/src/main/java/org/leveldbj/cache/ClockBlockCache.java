package org.leveldbj.cache;

import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.leveldbj.table.Block;
import org.leveldbj.table.BlockCache;

/**
 * The block cache: uncompressed table blocks, keyed by table cache id and block offset, bounded
 * by the total size in bytes of the cached blocks (a block is charged {@link Block#size()}),
 * evicting blocks not read recently first (CLOCK, see {@link ClockShard}), and admitting a block
 * only when it is missed a second time soon after the first and, once the cache is full, only as
 * often as its hits pay for it ({@link #admit}).
 *
 * <p>Structure: 16 shards chosen by a hash of the key, each with a sixteenth of the capacity
 * (rounded up, as in C++ LevelDB). A lookup takes no lock and allocates nothing: it walks a
 * hash chain published with release stores and, on a hit, sets the entry's reference bit if it
 * is clear. Inserting and evicting take the shard's lock, never while reading or
 * decompressing. A block larger than a shard's capacity is not cached; a capacity of 0 caches
 * nothing.
 *
 * <p>Why no reference counts are needed (unlike C++ LevelDB's cache handles): the tables offer
 * this cache only blocks in heap buffers they own (decompressed blocks, or copies read with
 * positional reads), never views of a memory-mapped file (see {@link BlockCache}). A block is
 * immutable; evicting it only drops the cache's reference, and an iterator still reading it
 * keeps it reachable, so its memory is reclaimed by the garbage collector only once nothing can
 * read it. There is no explicit free, hence no use after free. Closing a table file does not
 * affect its cached blocks, which simply age out (table cache ids are never reused).
 *
 * <p>Sharing: the same cache may serve several databases ({@link org.iq80.leveldb.Cache}): table
 * cache ids come from {@link #newId()}, unique per cache, so their blocks never collide.
 *
 * <p>Thread safety: safe for concurrent use; every table of a database shares one cache. The
 * miss count is exact; the hit count is kept without synchronization, so that a hit writes
 * nothing shared, and may lose increments made at the same moment by other threads; usage and
 * entries are read shard by shard.
 */
public final class ClockBlockCache implements BlockCache, org.iq80.leveldb.Cache {
    /** The capacity used when the options ask for the default (C++ LevelDB's 8 MiB). */
    public static final long DEFAULT_CAPACITY = 8L << 20;

    private static final int SHARD_BITS = 4;
    /** The block size {@link #admit} sizes its memory of misses for (C++ LevelDB's default). */
    static final int TYPICAL_BLOCK = 4096;
    /** How many misses {@link #admit} remembers per block the cache can hold. */
    static final int MISSES_PER_BLOCK = 4;
    /** Admission candidates of a full cache between two adjustments of the admission rate. */
    static final int ADMISSION_PERIOD = 1024;
    /** The lowest admission rate of a full cache: one candidate in 2^this. */
    static final int MAX_ADMISSION_SHIFT = 6;
    /** How many hits each block admitted into a full cache must be matched by. */
    static final int HITS_PER_ADMISSION = 4;
    private static final int SHARDS = 1 << SHARD_BITS;

    private final long capacity;
    /** The capacity of each shard: no larger block is cached. */
    private final long shardCapacity;
    private final ClockShard[] shards = new ClockShard[SHARDS];
    private final AtomicLong ids = new AtomicLong();
    /** The size of {@link #recentMisses}; 0 for a cache that admits nothing. */
    private final int missSlots;
    /**
     * Fingerprints of recently missed blocks, for {@link #admit}; racy by design, and made at
     * the first miss rather than with the cache (a database opened, read little and closed
     * would zero 128 KiB of an 8 MiB cache's memory for nothing). Two threads missing first at
     * once may each make one; the misses one of them records are then forgotten.
     */
    private long[] recentMisses;
    // The admission budget of a full cache (see admit), racy by design: a lost update only
    // shifts an adjustment by a few candidates.
    /** A full shard admits one candidate in 2^admissionShift. */
    private int admissionShift;
    private long candidates;
    private long admissions;
    private long hitsAtAdjustment;
    private long admissionsAtAdjustment;

    /**
     * Creates an empty cache.
     *
     * @param capacityBytes the total size of the blocks it may hold, at least 0
     * @throws IllegalArgumentException if {@code capacityBytes} is negative
     */
    public ClockBlockCache(long capacityBytes) {
        if (capacityBytes < 0) {
            throw new IllegalArgumentException("cache capacity must not be negative: " + capacityBytes);
        }
        this.capacity = capacityBytes;
        long slots = capacityBytes / TYPICAL_BLOCK * MISSES_PER_BLOCK;
        // A cache whose shards cannot hold a typical block wants none: reading one into bytes
        // of its own would only make garbage.
        this.missSlots = capacityBytes / SHARDS < TYPICAL_BLOCK ? 0
                : (int) Math.min(1 << 24, Math.max(1024, Long.highestOneBit(slots) * 2));
        long perShard = (capacityBytes + SHARDS - 1) / SHARDS;
        this.shardCapacity = perShard;
        for (int i = 0; i < SHARDS; i++) {
            shards[i] = new ClockShard(perShard);
        }
    }

    /**
     * Creates the cache for the API's {@code Options.cacheSize()}: 0, the API's default, means
     * C++ LevelDB's default of {@value #DEFAULT_CAPACITY} bytes.
     *
     * @param cacheSize the configured size in bytes, or 0 for the default
     * @return a new cache
     * @throws IllegalArgumentException if {@code cacheSize} is negative
     */
    public static ClockBlockCache forCacheSize(long cacheSize) {
        return new ClockBlockCache(cacheSize == 0 ? DEFAULT_CAPACITY : cacheSize);
    }

    @Override
    public long newId() {
        return ids.incrementAndGet();
    }

    @Override
    public Block lookup(long cacheId, long blockOffset) {
        long h = hash(cacheId, blockOffset);
        return shard(h).lookup(cacheId, blockOffset, (int) h);
    }

    /**
     * Admits a block missed for the second time within the memory of recent misses (a table of
     * fingerprints with room for about {@value #MISSES_PER_BLOCK} times as many misses as the
     * cache has blocks of {@value #TYPICAL_BLOCK} bytes): a block read once, by a scan or by a
     * random read in a database many times the cache's size, is read into a reused buffer and
     * costs no allocation and no eviction; a block read again soon is cached from its second
     * read on. The table is read and written without synchronization: a lost update only admits
     * a block one miss later or earlier. A block stored in more bytes than a shard holds is
     * never admitted (it could not be inserted).
     *
     * <p>Into a shard without room, admitting a block costs about as much as a miss (a new
     * array written in memory the processor has not touched lately, an eviction, garbage),
     * and pays only if the cache's hits make up for it. When the reads spread over many times
     * the cache's size, as random reads or scans of a large database do, the hits are few
     * whatever the cache holds, and admitting every candidate only churns it. So a full shard
     * admits a candidate with a probability, 1 in 2^k: every {@value #ADMISSION_PERIOD}
     * candidates, k grows by one (to at most {@value #MAX_ADMISSION_SHIFT}) when the cache had
     * fewer than {@value #HITS_PER_ADMISSION} hits per admission in that period, and shrinks by
     * one when it had more than twice that. A workload whose blocks are read again and again
     * keeps admitting every candidate; a block read often enough gets in at the lowest rate too,
     * and its hits then raise the rate again.
     */
    @Override
    public boolean admit(long cacheId, long blockOffset, long storedSize) {
        if (missSlots == 0 || storedSize > shardCapacity) {
            return false; // a block no shard can hold would be read into a new array for nothing
        }
        long[] recentMisses = this.recentMisses;
        if (recentMisses == null) {
            recentMisses = new long[missSlots];
            this.recentMisses = recentMisses;
        }
        long h = hash(cacheId, blockOffset);
        int slot = (int) h & (recentMisses.length - 1);
        long fingerprint = h | 1; // never 0, the empty slot
        if (recentMisses[slot] != fingerprint) {
            recentMisses[slot] = fingerprint;
            return false;
        }
        recentMisses[slot] = 0;
        return shard(h).hasRoomFor(TYPICAL_BLOCK) || admitIntoFullShard();
    }

    private boolean admitIntoFullShard() {
        if ((++candidates & (ADMISSION_PERIOD - 1)) == 0) {
            adjustAdmission();
        }
        int shift = admissionShift;
        if (shift != 0 && ThreadLocalRandom.current().nextInt() >>> (Integer.SIZE - shift) != 0) {
            return false;
        }
        admissions++;
        return true;
    }

    private void adjustAdmission() {
        long hitsNow = hits();
        long gained = hitsNow - hitsAtAdjustment;
        long spent = admissions - admissionsAtAdjustment;
        hitsAtAdjustment = hitsNow;
        admissionsAtAdjustment = admissions;
        int shift = admissionShift;
        if (gained < spent * HITS_PER_ADMISSION) {
            admissionShift = Math.min(MAX_ADMISSION_SHIFT, shift + 1);
        } else if (gained > 2 * spent * HITS_PER_ADMISSION) {
            admissionShift = Math.max(0, shift - 1);
        }
    }

    /**
     * The current admission rate of full shards.
     *
     * @return k, where a full shard admits one candidate in 2^k
     */
    int admissionShift() {
        return admissionShift;
    }

    /**
     * One line of statistics for operators: capacity and usage in bytes, cached blocks, hits,
     * misses, and how many of its candidates a full shard admits now (see {@link #admit}).
     *
     * @return e.g. {@code "capacity 8388608 usage 8372224 blocks 2044 hits 51230 misses 948770
     *     admits 1/64"}
     */
    public String stats() {
        return "capacity " + capacity + " usage " + usage() + " blocks " + entries() + " hits " + hits()
                + " misses " + misses() + " admits 1/" + (1 << admissionShift);
    }

    @Override
    public void insert(long cacheId, long blockOffset, Block block) {
        long h = hash(cacheId, blockOffset);
        shard(h).insert(cacheId, blockOffset, (int) h, block, block.size());
    }

    /**
     * The configured capacity.
     *
     * @return the capacity in bytes
     */
    public long capacity() {
        return capacity;
    }

    /**
     * The total size of the cached blocks.
     *
     * @return bytes charged, at most {@link #capacity()} rounded up to a multiple of 16
     */
    public long usage() {
        long sum = 0;
        for (ClockShard s : shards) {
            sum += s.usage();
        }
        return sum;
    }

    /**
     * The number of cached blocks.
     *
     * @return the count
     */
    public long entries() {
        long sum = 0;
        for (ClockShard s : shards) {
            sum += s.entries();
        }
        return sum;
    }

    /**
     * How many lookups found their block.
     *
     * @return the count since the cache was created; under concurrent lookups, a lower bound
     */
    public long hits() {
        long sum = 0;
        for (ClockShard s : shards) {
            sum += s.hits();
        }
        return sum;
    }

    /**
     * How many lookups did not find their block.
     *
     * @return the count since the cache was created
     */
    public long misses() {
        long sum = 0;
        for (ClockShard s : shards) {
            sum += s.misses();
        }
        return sum;
    }

    /** Drops every cached block. */
    public void clear() {
        for (ClockShard s : shards) {
            s.clear();
        }
    }

    private ClockShard shard(long hash) {
        return shards[(int) (hash >>> (Long.SIZE - SHARD_BITS))];
    }

    /** Mixes the key's two numbers so that both the shard bits and the bucket bits vary. */
    static long hash(long cacheId, long blockOffset) {
        long h = cacheId * 0x9E3779B97F4A7C15L + blockOffset;
        h ^= h >>> 32;
        h *= 0xD6E8FEB86659FD93L;
        h ^= h >>> 32;
        h *= 0xD6E8FEB86659FD93L;
        return h ^ (h >>> 32);
    }

    @Override
    public String toString() {
        return "ClockBlockCache(capacity " + capacity + ", usage " + usage() + ")";
    }
}
