package org.leveldbj.benchmark.jmh;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import org.iq80.leveldb.DBIterator;
import org.iq80.leveldb.Options;
import org.iq80.leveldb.Snapshot;
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
 * The read path's entry points on a compacted database, the calls that take no database lock:
 * a point lookup of a present key and of an absent one, opening an iterator and seeking, and
 * taking and releasing a snapshot. Run with {@code -t 2} (or more) to see how they scale with
 * threads; every thread draws its own keys.
 *
 * <p>The trial puts {@code keys} keys (even indexes, so odd indexes are absent) and compacts.
 * With the default 8 MiB cache most lookups decompress a block; {@code cache=100MB} keeps the
 * whole database in the cache, leaving the lookup's own cost.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ReadPathBenchmark {
    /** How many keys the database holds. */
    @Param("100000")
    public int keys;

    /** The value length in bytes. */
    @Param("100")
    public int valueSize;

    /** The block cache: {@code off} or {@code 100MB}. */
    @Param({"off", "100MB"})
    public String cache;

    private Fixture fixture;

    /** A thread's own random keys. */
    @State(Scope.Thread)
    public static class Keys {
        private final SplittableRandom random = new SplittableRandom(Thread.currentThread().getId());

        byte[] present(int keys) {
            return Fixture.key(2L * random.nextInt(keys));
        }

        byte[] absent(int keys) {
            return Fixture.key(2L * random.nextInt(keys) + 1);
        }
    }

    /** Builds and compacts the database. */
    @Setup(Level.Trial)
    public void open() {
        fixture = Fixture.open(new Options().cacheSize(Fixture.cacheSize(cache)));
        Fixture.fill(fixture.db(), keys, 2, valueSize);
        fixture.db().compactRange(null, null);
    }

    /** Closes and deletes the database. */
    @TearDown(Level.Trial)
    public void close() {
        fixture.close();
    }

    /**
     * Looks up a key the database holds.
     *
     * @param k the thread's keys
     * @return the value
     */
    @Benchmark
    public byte[] getPresent(Keys k) {
        byte[] value = fixture.db().get(k.present(keys));
        if (value == null) {
            throw new IllegalStateException("a present key was not found");
        }
        return value;
    }

    /**
     * Looks up a key the database does not hold.
     *
     * @param k the thread's keys
     * @return {@code null}
     */
    @Benchmark
    public byte[] getAbsent(Keys k) {
        byte[] value = fixture.db().get(k.absent(keys));
        if (value != null) {
            throw new IllegalStateException("an absent key was found");
        }
        return value;
    }

    /**
     * Opens an iterator, seeks to a key and reads the entry there (db_bench's seekrandom).
     *
     * @param k the thread's keys
     * @return the key found
     */
    @Benchmark
    public byte[] seek(Keys k) {
        try (DBIterator it = fixture.db().iterator()) {
            it.seek(k.absent(keys));
            return it.hasNext() ? it.peekNext().getKey() : null;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Takes a snapshot and releases it.
     *
     * @return the snapshot
     */
    @Benchmark
    public Snapshot snapshot() {
        Snapshot s = fixture.db().getSnapshot();
        try {
            s.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return s;
    }
}
