package org.leveldbj.benchmark.jmh;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import org.iq80.leveldb.DBIterator;
import org.iq80.leveldb.ExtendedDB;
import org.iq80.leveldb.Options;
import org.iq80.leveldb.PrefixExtractor;
import org.iq80.leveldb.ReadOptions;
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
 * A scan of the keys that share a prefix, on a compacted database of {@code keys} db_bench keys
 * (sixteen decimal digits) whose first fourteen digits are the prefix: {@code keys / 100}
 * prefixes of 100 keys each. {@code prefixIterator} scans with {@code ExtendedDB.prefixIterator};
 * {@code seekAndCompare} with a plain iterator, a seek to the prefix and a check of every key,
 * as code without bounds does (it reads one entry past the prefix to learn that it ended).
 * {@code absent*} scan a prefix the database does not hold (a present one with its last digit
 * replaced by a letter, which sorts between two present prefixes).
 *
 * <p>{@code prefixFilter=true} opens the database with
 * {@code Options.prefixExtractor(PrefixExtractor.fixedLength(14))}, so that every table keeps
 * a Bloom filter (10 bits per prefix) on its keys' 14-digit prefixes and a scan of one prefix
 * skips the tables whose filter excludes it.
 *
 * <p>Each iteration also prints the benchmark thread's CPU time per scan, which waiting for a
 * core on a loaded machine does not inflate.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class PrefixScanBenchmark {
    /** How many keys the database holds. */
    @Param("1000000")
    public int keys;

    /** The value length in bytes. */
    @Param("100")
    public int valueSize;

    /** Whether the tables keep a prefix filter on the 14-digit prefixes. */
    @Param({"false", "true"})
    public boolean prefixFilter;

    private Fixture fixture;
    private ExtendedDB db;
    private final SplittableRandom random = new SplittableRandom(7);
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private long cpuNanos;
    private long calls;

    /** Prints the CPU time per scan of the iteration that ended. */
    @TearDown(Level.Iteration)
    public void report() {
        if (calls > 0) {
            System.out.printf("  (thread CPU time per scan: %.2f us)%n", cpuNanos / 1e3 / calls);
        }
        cpuNanos = 0;
        calls = 0;
    }

    /** Builds and compacts the database. */
    @Setup(Level.Trial)
    public void open() {
        Options options = new Options();
        if (prefixFilter) {
            options.prefixExtractor(PrefixExtractor.fixedLength(14));
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

    private byte[] prefix(boolean absent) {
        byte[] key = Fixture.key(100L * random.nextInt(keys / 100));
        if (!absent) {
            return Arrays.copyOf(key, 14);
        }
        byte[] prefix = Arrays.copyOf(key, 14);
        prefix[13] = 'x'; // no key has a letter
        return prefix;
    }

    private int scanWithPrefixIterator(byte[] prefix) {
        long start = THREADS.getCurrentThreadCpuTime();
        int n = 0;
        try (DBIterator it = db.prefixIterator(prefix, new ReadOptions())) {
            for (it.seekToFirst(); it.hasNext(); it.next()) {
                n++;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        cpuNanos += THREADS.getCurrentThreadCpuTime() - start;
        calls++;
        return n;
    }

    private int scanWithSeek(byte[] prefix) {
        long start = THREADS.getCurrentThreadCpuTime();
        int n = 0;
        try (DBIterator it = db.iterator()) {
            for (it.seek(prefix); it.hasNext(); ) {
                Map.Entry<byte[], byte[]> e = it.next();
                if (!Arrays.equals(e.getKey(), 0, prefix.length, prefix, 0, prefix.length)) {
                    break;
                }
                n++;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        cpuNanos += THREADS.getCurrentThreadCpuTime() - start;
        calls++;
        return n;
    }

    /**
     * Scans a present prefix with {@code prefixIterator}.
     *
     * @return the keys read
     */
    @Benchmark
    public int prefixIterator() {
        return check(scanWithPrefixIterator(prefix(false)), 100);
    }

    /**
     * Scans a present prefix with a seek and a check of every key.
     *
     * @return the keys read
     */
    @Benchmark
    public int seekAndCompare() {
        return check(scanWithSeek(prefix(false)), 100);
    }

    /**
     * Scans an absent prefix with {@code prefixIterator}.
     *
     * @return the keys read
     */
    @Benchmark
    public int absentPrefixIterator() {
        return check(scanWithPrefixIterator(prefix(true)), 0);
    }

    /**
     * Scans an absent prefix with a seek and a check.
     *
     * @return the keys read
     */
    @Benchmark
    public int absentSeekAndCompare() {
        return check(scanWithSeek(prefix(true)), 0);
    }

    private static int check(int n, int expected) {
        if (n != expected) {
            throw new IllegalStateException("scanned " + n + " keys, expected " + expected);
        }
        return n;
    }
}
