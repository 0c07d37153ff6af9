package org.leveldbj.benchmark.jmh;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import org.iq80.leveldb.Options;
import org.iq80.leveldb.WriteOptions;
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
 * Puts with a synchronous write (the log forced to disk before the put returns) every
 * {@code syncEvery} puts, or never ({@code 0}): the documented experiment comparing synchronous
 * writes, writes synchronised every 10 or 100 puts, and plain writes.
 *
 * <p>One put per call (ops/s), over {@code keys} keys in order, overwritten once all exist.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class SyncBenchmark {
    /** A synchronous write every this many puts; 0 for never. */
    @Param({"1", "10", "100", "0"})
    public int syncEvery;

    /** How many distinct keys the puts cycle over. */
    @Param("100000")
    public int keys;

    /** The value length in bytes. */
    @Param("16")
    public int valueSize;

    private static final WriteOptions SYNC = new WriteOptions().sync(true);
    private static final WriteOptions NO_SYNC = new WriteOptions().sync(false);

    private Fixture fixture;
    private byte[] value;
    private long puts;

    /** Opens an empty database. */
    @Setup(Level.Trial)
    public void open() {
        if (syncEvery < 0) {
            throw new IllegalArgumentException("syncEvery must be at least 0: " + syncEvery);
        }
        fixture = Fixture.open(new Options());
        value = Fixture.value(new SplittableRandom(5), valueSize);
    }

    /** Closes and deletes the database. */
    @TearDown(Level.Trial)
    public void close() {
        fixture.close();
    }

    /** Puts the next key, synchronously when it is the {@code syncEvery}-th. */
    @Benchmark
    public void put() {
        long n = puts++;
        boolean sync = syncEvery > 0 && n % syncEvery == 0;
        fixture.db().put(Fixture.key(n % keys), value, sync ? SYNC : NO_SYNC);
    }
}
