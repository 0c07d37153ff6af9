package org.leveldbj.benchmark.jmh;

import java.nio.ByteBuffer;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.leveldbj.cache.ClockBlockCache;
import org.leveldbj.comparator.BytewiseComparator;
import org.leveldbj.table.Block;
import org.leveldbj.table.BlockBuilder;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The block cache's two paths: a lookup that hits (no lock, no allocation) and a lookup that
 * misses followed by the insertion that evicts a block, as a read of an uncached block does.
 * Run with {@code -t 2} to see hits scale with threads.
 *
 * <p>The trial fills a cache of {@code capacityMb} MiB with 4 KiB blocks of one table; hits draw
 * among the cached blocks, misses among offsets past them.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class BlockCacheBenchmark {
    private static final int BLOCK = 4096;

    /** The cache's capacity in MiB. */
    @Param("8")
    public int capacityMb;

    private ClockBlockCache cache;
    private Block block;
    private int resident;

    /** A thread's own random offsets. */
    @State(Scope.Thread)
    public static class Offsets {
        private final SplittableRandom random = new SplittableRandom(Thread.currentThread().getId());
    }

    /** Fills the cache. */
    @Setup(Level.Trial)
    public void fill() {
        BlockBuilder builder = new BlockBuilder(16, BytewiseComparator.INSTANCE);
        builder.add(new byte[] {'k'}, new byte[BLOCK - 16]);
        ByteBuffer bytes = builder.finish();
        byte[] copy = new byte[bytes.remaining()];
        bytes.get(copy);
        block = new Block(ByteBuffer.wrap(copy));
        cache = new ClockBlockCache((long) capacityMb << 20);
        // Fill to about 90%: the shards are not evenly loaded, and a hit must find its block.
        resident = (int) ((cache.capacity() * 9 / 10) / block.size());
        for (int i = 0; i < resident; i++) {
            cache.insert(1, (long) i * BLOCK, block);
        }
    }

    /**
     * Looks up a cached block.
     *
     * @param o the thread's offsets
     * @return the block
     */
    @Benchmark
    public Block hit(Offsets o) {
        return cache.lookup(1, (long) o.random.nextInt(resident) * BLOCK);
    }

    /**
     * Looks up an uncached block, then inserts it (evicting another).
     *
     * @param o the thread's offsets
     * @return the block
     */
    @Benchmark
    public Block missThenInsert(Offsets o) {
        long offset = (long) (resident + o.random.nextInt(1 << 20)) * BLOCK;
        Block found = cache.lookup(2, offset);
        if (found == null) {
            cache.insert(2, offset, block);
            return block;
        }
        return found;
    }
}
