package org.leveldbj.benchmark.jmh;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import org.iq80.leveldb.ExtendedDB;
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
 * {@code ExtendedDB.multiGet} of {@code batch} random keys against a loop of {@code get} on the
 * same keys, on a compacted database of {@code keys} entries (16-byte keys, {@code valueSize}
 * byte values compressible to about half). Both read the same pre-drawn batches, in the same
 * order; every key is present. The score is the time of one whole batch.
 *
 * <p>{@code cache=default} is the default 8 MiB block cache (most blocks are read and
 * decompressed); {@code cache=100MB} holds about three quarters of the uncompressed blocks;
 * {@code cache=1GB} holds them all, leaving the lookups' own cost.
 * {@code spread=all} draws each batch's keys from the whole database (few share a block);
 * {@code spread=10000} from a random run of 10,000 consecutive keys (about 300 blocks), as when
 * an application reads the related rows of one entity.
 *
 * <p>On a shared machine the wall-clock score moves with the other processes' load; each
 * iteration therefore also prints the benchmark thread's own CPU time per batch
 * ({@code ThreadMXBean.getCurrentThreadCpuTime}), which time spent waiting for a core does not
 * inflate.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class MultiGetBenchmark {
    /** How many keys the database holds. */
    @Param("1000000")
    public int keys;

    /** How many keys one call reads. */
    @Param("100")
    public int batch;

    /** The value length in bytes. */
    @Param("100")
    public int valueSize;

    /** Where a batch's keys come from: {@code all} keys, or a run of that many consecutive keys. */
    @Param("all")
    public String spread;

    /** The block cache: {@code default} (8 MiB), {@code 100MB} or {@code 1GB}. */
    @Param({"default", "100MB", "1GB"})
    public String cache;

    private Fixture fixture;
    private ExtendedDB db;

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    /** Pre-drawn batches of random keys, read in turn, and the thread's CPU time spent on them. */
    @State(Scope.Thread)
    public static class Batches {
        private final List<List<byte[]>> batches = new ArrayList<>();
        private final List<List<byte[]>> sortedBatches = new ArrayList<>();
        private int next;
        private long cpuNanos;
        private long calls;

        /**
         * Draws the batches.
         *
         * @param b the benchmark's parameters
         */
        @Setup(Level.Trial)
        public void draw(MultiGetBenchmark b) {
            SplittableRandom random = new SplittableRandom(Thread.currentThread().getId());
            int run = b.spread.equals("all") ? b.keys : Math.min(b.keys, Integer.parseInt(b.spread));
            for (int n = 0; n < 1024; n++) {
                List<byte[]> keys = new ArrayList<>(b.batch);
                int first = random.nextInt(b.keys - run + 1);
                for (int i = 0; i < b.batch; i++) {
                    keys.add(Fixture.key(first + random.nextInt(run)));
                }
                batches.add(keys);
                List<byte[]> sorted = new ArrayList<>(keys);
                sorted.sort(java.util.Arrays::compareUnsigned);
                sortedBatches.add(sorted);
            }
        }

        /** Prints the CPU time per batch of the iteration that ended. */
        @TearDown(Level.Iteration)
        public void report() {
            if (calls > 0) {
                System.out.printf("  (thread CPU time per batch: %.1f us)%n", cpuNanos / 1e3 / calls);
            }
            cpuNanos = 0;
            calls = 0;
        }

        List<byte[]> next() {
            return next(batches);
        }

        List<byte[]> nextSorted() {
            return next(sortedBatches);
        }

        private List<byte[]> next(List<List<byte[]>> from) {
            List<byte[]> keys = from.get(next);
            next = (next + 1) & 1023;
            return keys;
        }
    }

    /** Builds and compacts the database. */
    @Setup(Level.Trial)
    public void open() {
        Options options = new Options();
        if (!cache.equals("default")) {
            options.cacheSize(Fixture.cacheSize(cache));
        }
        fixture = Fixture.open(options);
        db = (ExtendedDB) fixture.db();
        Fixture.fill(db, keys, 1, valueSize);
        db.compactRange(null, null);
    }

    /** Closes and deletes the database. */
    @TearDown(Level.Trial)
    public void close() {
        fixture.close();
    }

    /**
     * Reads a batch with one {@code multiGet}.
     *
     * @param b the thread's batches
     * @return the values
     */
    @Benchmark
    public List<byte[]> multiGet(Batches b) {
        long start = THREADS.getCurrentThreadCpuTime();
        List<byte[]> values = db.multiGet(b.next());
        b.cpuNanos += THREADS.getCurrentThreadCpuTime() - start;
        b.calls++;
        if (values.get(0) == null) {
            throw new IllegalStateException("a present key was not found");
        }
        return values;
    }

    /**
     * Reads a batch with one {@code get} per key, in key order: tells the cost of visiting the
     * keys in the order {@code multiGet} does from the cost of {@code multiGet} itself.
     *
     * @param b the thread's batches
     * @return the values
     */
    @Benchmark
    public List<byte[]> loopOfGetSorted(Batches b) {
        long start = THREADS.getCurrentThreadCpuTime();
        List<byte[]> keys = b.nextSorted();
        List<byte[]> values = new ArrayList<>(keys.size());
        for (byte[] key : keys) {
            values.add(db.get(key));
        }
        b.cpuNanos += THREADS.getCurrentThreadCpuTime() - start;
        b.calls++;
        if (values.get(0) == null) {
            throw new IllegalStateException("a present key was not found");
        }
        return values;
    }

    /**
     * Reads a batch with one {@code get} per key.
     *
     * @param b the thread's batches
     * @return the values
     */
    @Benchmark
    public List<byte[]> loopOfGet(Batches b) {
        long start = THREADS.getCurrentThreadCpuTime();
        List<byte[]> keys = b.next();
        List<byte[]> values = new ArrayList<>(keys.size());
        for (byte[] key : keys) {
            values.add(db.get(key));
        }
        b.cpuNanos += THREADS.getCurrentThreadCpuTime() - start;
        b.calls++;
        if (values.get(0) == null) {
            throw new IllegalStateException("a present key was not found");
        }
        return values;
    }
}
