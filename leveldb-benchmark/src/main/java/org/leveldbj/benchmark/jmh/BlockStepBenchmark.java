package org.leveldbj.benchmark.jmh;

import java.nio.ByteBuffer;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import org.leveldbj.comparator.BytewiseComparator;
import org.leveldbj.key.InternalKeys;
import org.leveldbj.key.ValueType;
import org.leveldbj.table.Block;
import org.leveldbj.table.BlockBuilder;
import org.leveldbj.table.BlockIterator;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The innermost loop of a scan: one {@link BlockIterator} stepping through the entries of data
 * blocks, forwards ({@code seekToFirst}, then {@code next}) and backwards ({@code seekToLast},
 * then {@code prev}), reading each key and value. No file, cache, decompression or merge: what
 * is left is decoding entries (and, backwards, filling and reading back the decoded restart
 * intervals).
 *
 * <p>The blocks are 64 blocks of about 4 KiB built as tables build them (restart interval 16):
 * db_bench's keys (16 decimal digits, consecutive) with an 8-byte trailer, and 100-byte random
 * values, about 34 entries per block. {@code storage=heap}: blocks in arrays, as decompressed
 * blocks are; {@code direct}: blocks in direct buffers, as blocks stored uncompressed are read
 * from a mapped file. Time per pass over all 64 blocks.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class BlockStepBenchmark {
    private static final int BLOCKS = 64;
    private static final int BLOCK_SIZE = 4096;

    /** Where the blocks live: {@code heap} or {@code direct}. */
    @Param({"heap", "direct"})
    public String storage;

    private Block[] blocks;
    private BlockIterator iterator;
    private long entries;

    /** Builds the blocks. */
    @Setup(Level.Trial)
    public void build() {
        Random random = new Random(301);
        blocks = new Block[BLOCKS];
        long key = 0;
        for (int b = 0; b < BLOCKS; b++) {
            BlockBuilder builder = new BlockBuilder(16, BytewiseComparator.INSTANCE);
            while (builder.currentSizeEstimate() < BLOCK_SIZE) {
                byte[] value = new byte[100];
                random.nextBytes(value);
                builder.add(InternalKeys.encode(Fixture.key(key++), 1, ValueType.VALUE), value);
                entries++;
            }
            ByteBuffer built = builder.finish();
            ByteBuffer contents;
            switch (storage) {
                case "heap":
                    contents = ByteBuffer.allocate(built.remaining());
                    break;
                case "direct":
                    contents = ByteBuffer.allocateDirect(built.remaining());
                    break;
                default:
                    throw new IllegalArgumentException("storage must be heap or direct: " + storage);
            }
            contents.put(built).flip();
            blocks[b] = new Block(contents);
        }
        iterator = new BlockIterator(BytewiseComparator.INSTANCE, blocks[0]);
    }

    /**
     * Steps forwards through every block.
     *
     * @param sink consumes a byte of each key and value
     * @return the number of entries
     */
    @Benchmark
    public long forward(Blackhole sink) {
        long n = 0;
        BlockIterator it = iterator;
        for (Block block : blocks) {
            it.reset(block);
            for (it.seekToFirst(); it.valid(); it.next()) {
                consume(sink, it);
                n++;
            }
        }
        return checked(n);
    }

    /**
     * Steps backwards through every block.
     *
     * @param sink consumes a byte of each key and value
     * @return the number of entries
     */
    @Benchmark
    public long backward(Blackhole sink) {
        long n = 0;
        BlockIterator it = iterator;
        for (Block block : blocks) {
            it.reset(block);
            for (it.seekToLast(); it.valid(); it.prev()) {
                consume(sink, it);
                n++;
            }
        }
        return checked(n);
    }

    private static void consume(Blackhole sink, BlockIterator it) {
        ByteBuffer k = it.key();
        ByteBuffer v = it.value();
        sink.consume(k.get(k.limit() - 1) + v.get(v.position()));
    }

    private long checked(long n) {
        if (n != entries) {
            throw new IllegalStateException("stepped over " + n + " entries of " + entries);
        }
        return n;
    }
}
