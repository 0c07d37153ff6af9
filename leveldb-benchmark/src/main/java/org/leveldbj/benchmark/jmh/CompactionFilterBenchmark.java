package org.leveldbj.benchmark.jmh;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.iq80.leveldb.CompactionFilter;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.Options;
import org.leveldbj.ttl.ExpiryFilter;
import org.leveldbj.ttl.TtlValues;
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
 * What a compaction filter costs, and how much an expiry filter takes away: a full
 * {@code compactRange(null, null)} of a copy of the same files every time, as
 * {@link CompactionBenchmark} does, with {@code filter} = {@code none} (no filter),
 * {@code keep} (a filter that keeps everything: the cost of asking, plus the rewrite of the
 * deepest level that {@code compactRange} adds with a filter) or {@code expiry} (the TTL
 * databases' filter, with half the values expired: they are removed).
 *
 * <p>The trial writes {@code keys} keys in a random order, each value a TTL value
 * ({@code valueSize} bytes with the 8-byte expiry suffix): even keys expired at the
 * benchmark's clock, odd keys never. The first invocation prints the table bytes before and
 * after the compaction. Single-shot: run several iterations and read the median.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class CompactionFilterBenchmark {
    /** How many keys the database holds. */
    @Param("200000")
    public int keys;

    /** The value length in bytes, suffix included. */
    @Param("100")
    public int valueSize;

    /** The filter: none, keep or expiry. */
    @Param({"none", "keep", "expiry"})
    public String filter;

    /** The benchmark's clock: even keys expired at 1000 ms, this is later. */
    private static final long NOW = 2_000;

    private Path template;
    private Fixture fixture;
    private boolean reported;

    /** Writes the database every invocation starts from. */
    @Setup(Level.Trial)
    public void writeTemplate() {
        Fixture f = Fixture.open(new Options());
        fillTtl(f.db(), keys, valueSize);
        template = f.closeKeepingFiles();
    }

    /** Puts keys in a random order (the same every run); even keys expired, odd keys never. */
    static void fillTtl(DB db, int count, int valueSize) {
        SplittableRandom random = new SplittableRandom(303);
        for (int i : Fixture.shuffledOrder(random, count)) {
            long expiry = i % 2 == 0 ? 1_000 : TtlValues.NEVER;
            db.put(Fixture.key(i), TtlValues.encode(Fixture.value(random, Math.max(0, valueSize - 8)), expiry));
        }
    }

    /** Deletes the template. */
    @TearDown(Level.Trial)
    public void deleteTemplate() {
        Fixture.delete(template);
    }

    /** Opens a fresh copy of the template with the filter. */
    @Setup(Level.Invocation)
    public void openCopy() {
        fixture = Fixture.openCopy(template, new Options().compactionFilter(filter()));
    }

    private CompactionFilter filter() {
        switch (filter) {
            case "none":
                return null;
            case "keep":
                return new CompactionFilter() {
                    @Override
                    public String name() {
                        return "bench.KeepAll";
                    }

                    @Override
                    public Decision filter(int level, byte[] key, byte[] value) {
                        return Decision.KEEP;
                    }
                };
            case "expiry":
                return new ExpiryFilter(() -> Instant.ofEpochMilli(NOW));
            default:
                throw new IllegalArgumentException("filter: none, keep or expiry, not " + filter);
        }
    }

    /** Closes and deletes the copy (the first time, prints its table bytes before and after). */
    @TearDown(Level.Invocation)
    public void closeCopy() {
        if (!reported) {
            reported = true;
            System.out.printf("%nfilter=%s: table bytes before %,d, after %,d%n", filter, tableBytes(template),
                    tableBytes(fixture.directory()));
        }
        fixture.close();
    }

    private static long tableBytes(Path dir) {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.toString().endsWith(".sst") || p.toString().endsWith(".ldb"))
                    .mapToLong(p -> p.toFile().length()).sum();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Compacts the whole key range (and, with a filter, rewrites the deepest level). */
    @Benchmark
    public void compactAll() {
        fixture.db().compactRange(null, null);
    }
}
