package org.leveldbj.benchmark.jmh;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

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
 * Put, get and delete over {@code keys} keys, with the block cache off and at 100 MB: the
 * documented experiment that puts, reads back and deletes a million small entries and finds
 * random reads slower than sequential ones without a cache, and a 100 MB cache closing the gap.
 *
 * <p>One operation per call (ops/s). The database holds all {@code keys} keys, compacted into
 * tables at the start of the trial, before every iteration: {@code put} overwrites them in order, the gets read them in key order or at
 * random, and {@code delete} deletes them in order (the keys are put back before the next
 * iteration; once an iteration has deleted them all, it goes on deleting absent keys, which
 * costs the same write of a deletion marker).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class PutGetDeleteBenchmark {
    /** How many keys the database holds. */
    @Param("100000")
    public int keys;

    /** The value length in bytes (the experiment's values are short strings). */
    @Param("16")
    public int valueSize;

    /** The block cache: {@code off} (1 byte, caching nothing) or {@code 100MB}. */
    @Param({"off", "100MB"})
    public String cache;

    private Fixture fixture;
    private final SplittableRandom random = new SplittableRandom(17);
    private byte[] value;
    private int cursor;
    private long deleted;

    /**
     * Opens the database, puts every key and compacts it, so that reads go to the tables (and
     * the block cache) rather than the memtable, as after the experiment's million puts.
     */
    @Setup(Level.Trial)
    public void open() {
        fixture = Fixture.open(new Options().cacheSize(Fixture.cacheSize(cache)));
        Fixture.fill(fixture.db(), keys, 1, valueSize);
        fixture.db().compactRange(null, null);
        value = Fixture.value(random, valueSize);
    }

    /** Puts back the keys the previous iteration deleted and restarts the key order. */
    @Setup(Level.Iteration)
    public void refill() {
        if (deleted > 0) {
            Fixture.fill(fixture.db(), keys, 1, valueSize);
            deleted = 0;
        }
        cursor = 0;
    }

    /** Closes and deletes the database. */
    @TearDown(Level.Trial)
    public void close() {
        fixture.close();
    }

    private int nextInOrder() {
        int k = cursor;
        cursor = k + 1 == keys ? 0 : k + 1;
        return k;
    }

    /** Overwrites the next key in key order. */
    @Benchmark
    public void put() {
        fixture.db().put(Fixture.key(nextInOrder()), value);
    }

    /**
     * Reads the next key in key order.
     *
     * @return the value read
     */
    @Benchmark
    public byte[] getSequential() {
        return fixture.db().get(Fixture.key(nextInOrder()));
    }

    /**
     * Reads a key drawn at random.
     *
     * @return the value read
     */
    @Benchmark
    public byte[] getRandom() {
        return fixture.db().get(Fixture.key(random.nextInt(keys)));
    }

    /** Deletes the next key in key order. */
    @Benchmark
    public void delete() {
        fixture.db().delete(Fixture.key(nextInOrder()));
        deleted++;
    }
}
