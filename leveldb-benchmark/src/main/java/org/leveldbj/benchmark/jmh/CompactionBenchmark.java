package org.leveldbj.benchmark.jmh;

import java.nio.file.Path;
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
 * A full manual compaction (db_bench's {@code compact}) of the same files every time: the
 * compaction loop (merge, drop shadowed entries, build blocks, compress, write, sync) on its own.
 *
 * <p>The trial writes {@code keys} keys in a random order and closes the database; each
 * invocation, untimed, copies those files and opens the copy, then times
 * {@code compactRange(null, null)}. Single-shot: run several iterations and read the median.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class CompactionBenchmark {
    /** How many keys the database holds. */
    @Param("200000")
    public int keys;

    /** The value length in bytes. */
    @Param("100")
    public int valueSize;

    private Path template;
    private Fixture fixture;

    /** Writes the database every invocation starts from. */
    @Setup(Level.Trial)
    public void writeTemplate() {
        Fixture f = Fixture.open(new Options());
        Fixture.fillShuffled(f.db(), keys, 1, valueSize);
        template = f.closeKeepingFiles();
    }

    /** Deletes the template. */
    @TearDown(Level.Trial)
    public void deleteTemplate() {
        Fixture.delete(template);
    }

    /** Opens a fresh copy of the template. */
    @Setup(Level.Invocation)
    public void openCopy() {
        fixture = Fixture.openCopy(template, new Options());
    }

    /** Closes and deletes the copy. */
    @TearDown(Level.Invocation)
    public void closeCopy() {
        fixture.close();
    }

    /** Compacts the whole key range into the last level with files. */
    @Benchmark
    public void compactAll() {
        fixture.db().compactRange(null, null);
    }
}
