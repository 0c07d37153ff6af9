package org.leveldbj.benchmark.jmh;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.TimeUnit;

import org.iq80.leveldb.DBIterator;
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
import org.openjdk.jmh.infra.Blackhole;

/**
 * A full forward scan (Next) against a full backward scan (Prev) of a compacted database: the
 * documented analysis of why LevelDB's Prev is slower than Next (a block, like the memtable, is
 * only linked forwards, so each step back searches again from a restart point).
 *
 * <p>The trial puts {@code keys} keys and compacts the whole database, so with
 * {@code layout=compacted} the scans read tables only. {@code layout=memtable} then rewrites every
 * 32nd key, so that the memtable holds about 3% of the entries and every scan merges it with the
 * tables, as a scan right after writes does ({@code layout=shuffled} writes the keys in a random
 * order first, so that compactions of level-0 tables have run in the same JVM, as they have
 * before db_bench's first scan); {@code layout=tail} puts a single key after all the others, so
 * the merge costs its per-step work and nothing more. Time per full scan; each scan checks that
 * it saw every key.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class IterationBenchmark {
    /** How many keys the database holds. */
    @Param("100000")
    public int keys;

    /** The value length in bytes. */
    @Param("100")
    public int valueSize;

    /**
     * {@code compacted}: tables only; {@code memtable}: tables and a memtable with 1 key in 32;
     * {@code tail}: tables and a memtable with one key after them all;
     * {@code shuffled}: as {@code memtable}, but the keys were first written in a random order,
     * so that compactions merged level-0 tables in this JVM before the scans, as they have by the
     * time db_bench's first scan runs.
     */
    @Param({"compacted", "memtable", "tail"})
    public String layout;

    /**
     * {@code default}: the default 8 MiB block cache, which admits a block on its second miss,
     * and once full only as often as its hits pay for it (repeated scans of a database larger
     * than the cache soon admit few blocks);
     * {@code none}: a cache too small to hold a block, so every block is decoded into the
     * reader's reused buffer.
     */
    @Param({"default"})
    public String cache;

    private Fixture fixture;

    /** Builds and compacts the database. */
    @Setup(Level.Trial)
    public void open() {
        Options options = new Options();
        switch (cache) {
            case "default":
                break;
            case "none":
                options.cacheSize(1);
                break;
            default:
                throw new IllegalArgumentException("cache must be default or none: " + cache);
        }
        fixture = Fixture.open(options);
        if (layout.equals("shuffled")) {
            Fixture.fillShuffled(fixture.db(), keys, 1, valueSize);
        } else {
            Fixture.fill(fixture.db(), keys, 1, valueSize);
        }
        fixture.db().compactRange(null, null);
        switch (layout) {
            case "compacted":
                break;
            case "memtable":
            case "shuffled":
                Fixture.fill(fixture.db(), keys / 32, 32, valueSize);
                break;
            case "tail":
                fixture.db().put(Fixture.key(keys + 5L), new byte[valueSize]);
                break;
            default:
                throw new IllegalArgumentException("layout must be compacted, memtable, shuffled or tail: "
                        + layout);
        }
    }

    /** Closes and deletes the database. */
    @TearDown(Level.Trial)
    public void close() {
        fixture.close();
    }

    /**
     * Scans from the first key to the last: {@code seekToFirst}, then {@code next} while
     * {@code hasNext}.
     *
     * @param sink consumes the entries
     * @return the number of entries
     */
    @Benchmark
    public long forward(Blackhole sink) {
        long count = 0;
        try (DBIterator it = fixture.db().iterator()) {
            for (it.seekToFirst(); it.hasNext(); count++) {
                sink.consume(it.next());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return checked(count);
    }

    /**
     * Scans from the last key to the first with leveldbjni's cursor: {@code seekToLast}, the
     * last entry with {@code peekNext}, then {@code prev} while {@code hasPrev}.
     *
     * @param sink consumes the entries
     * @return the number of entries
     */
    @Benchmark
    public long backward(Blackhole sink) {
        long count = 0;
        try (DBIterator it = fixture.db().iterator()) {
            it.seekToLast();
            if (it.hasNext()) {
                sink.consume(it.peekNext());
                count++;
                while (it.hasPrev()) {
                    sink.consume(it.prev());
                    count++;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return checked(count);
    }

    private long checked(long count) {
        if (count != keys + (layout.equals("tail") ? 1 : 0)) {
            throw new IllegalStateException("scanned " + count + " entries of " + keys);
        }
        return count;
    }
}
