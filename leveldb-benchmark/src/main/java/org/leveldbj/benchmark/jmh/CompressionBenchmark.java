package org.leveldbj.benchmark.jmh;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import org.iq80.leveldb.CompressionType;
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
 * The cost of each block compression: random writes, random reads with the block cache off (so
 * every read decompresses a block), and the size on disk.
 *
 * <p>Each trial puts {@code keys} keys with values that compress to about half their size and
 * compacts the whole database, then measures one operation per call (ops/s): {@code write}
 * overwrites random keys, {@code readRandom} reads random keys. The size of the compacted
 * database's tables goes to standard error at the end of the trial and to {@code compression-<type>.json} in the
 * results directory (the system property {@code leveldbj.jmh.dir}, {@code target/jmh} by
 * default), as JMH's own results have no room for it.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class CompressionBenchmark {
    /** The block compression. */
    @Param({"NONE", "SNAPPY", "ZSTD"})
    public CompressionType compression;

    /** How many keys the database holds. */
    @Param("100000")
    public int keys;

    /** The value length in bytes. */
    @Param("100")
    public int valueSize;

    /** The block cache: {@code off} (1 byte, caching nothing) or {@code 100MB}. */
    @Param("off")
    public String cache;

    private Fixture fixture;
    private final SplittableRandom random = new SplittableRandom(13);
    private byte[] value;
    private long compactedBytes;

    /** Builds and compacts the database and measures its size. */
    @Setup(Level.Trial)
    public void open() {
        fixture = Fixture.open(new Options().compressionType(compression).cacheSize(Fixture.cacheSize(cache)));
        Fixture.fill(fixture.db(), keys, 1, valueSize);
        fixture.db().compactRange(null, null);
        compactedBytes = fixture.tableBytes();
        value = Fixture.value(random, valueSize);
    }

    /** Reports the compacted size, then closes and deletes the database. */
    @TearDown(Level.Trial)
    public void close() {
        long raw = (long) keys * (16 + valueSize);
        System.err.printf("CompressionBenchmark: %s: %d keys of %d + %d bytes (%d bytes) take %d bytes of tables after a full compaction%n",
                compression, keys, 16, valueSize, raw, compactedBytes);
        Fixture.writeResult("compression-" + compression,
                "{\"compression\": \"" + compression + "\", \"keys\": " + keys + ", \"valueSize\": " + valueSize
                        + ", \"rawBytes\": " + raw + ", \"tableBytes\": " + compactedBytes + "}");
        fixture.close();
    }

    /** Overwrites a random key. */
    @Benchmark
    public void write() {
        fixture.db().put(Fixture.key(random.nextInt(keys)), value);
    }

    /**
     * Reads a random key.
     *
     * @return the value read
     */
    @Benchmark
    public byte[] readRandom() {
        return fixture.db().get(Fixture.key(random.nextInt(keys)));
    }
}
