package org.leveldbj.benchmark.jmh;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import org.iq80.leveldb.CompressionType;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.FilterPolicy;
import org.iq80.leveldb.Options;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Reads of absent keys in a database of several levels, with and without a bloom filter, with
 * the block cache off and at 100 MB: the documented experiment that writes even keys, reads odd
 * ones, and finds the misses about three times faster with a 10-bit bloom filter.
 *
 * <p>The database is built once per trial with a 64 KiB write buffer and 256 KiB tables,
 * uncompressed, the keys put in a random order (keys put in order would never overlap and all
 * land in one level), so that {@code keys} entries of {@code valueSize} bytes spread over
 * several levels (level 1 holds 10 MB before level 2 is used); the files per level go to
 * standard error. One read per call (ops/s), each of a random odd key within the range of the even
 * keys written.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class BloomFilterBenchmark {
    /** Bloom filter bits per key; 0 for no filter. */
    @Param({"0", "10"})
    public int bloomBits;

    /** The block cache: {@code off} (1 byte, caching nothing) or {@code 100MB}. */
    @Param({"off", "100MB"})
    public String cache;

    /** How many (even) keys the database holds. */
    @Param("200000")
    public int keys;

    /** The value length in bytes. */
    @Param("100")
    public int valueSize;

    private static final int LEVELS = 7;

    private Fixture fixture;
    private final SplittableRandom random = new SplittableRandom(11);

    /**
     * Builds the database and waits (up to a minute) for level 0 to drain below its compaction
     * trigger, so that the reads find the shape compactions give it.
     *
     * @throws InterruptedException if interrupted while waiting
     */
    @Setup(Level.Trial)
    public void open() throws InterruptedException {
        Options options = new Options()
                .writeBufferSize(64 << 10)
                .maxFileSize(256 << 10)
                .compressionType(CompressionType.NONE)
                .cacheSize(Fixture.cacheSize(cache));
        if (bloomBits > 0) {
            options.filterPolicy(FilterPolicy.bloom(bloomBits));
        }
        fixture = Fixture.open(options);
        DB db = fixture.db();
        Fixture.fillShuffled(db, keys, 2, valueSize);
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        while (filesAt(db, 0) >= 4 && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        StringBuilder shape = new StringBuilder();
        for (int level = 0; level < LEVELS; level++) {
            shape.append(level == 0 ? "" : " ").append(filesAt(db, level));
        }
        System.err.println("BloomFilterBenchmark: files per level: " + shape);
    }

    private static int filesAt(DB db, int level) {
        return Integer.parseInt(db.getProperty("leveldb.num-files-at-level" + level).trim());
    }

    /** Closes and deletes the database. */
    @TearDown(Level.Trial)
    public void close() {
        fixture.close();
    }

    /**
     * Reads an absent key.
     *
     * @return the value read, always {@code null}
     */
    @Benchmark
    public byte[] readMissing() {
        return fixture.db().get(Fixture.key(2L * random.nextInt(keys) + 1));
    }
}
