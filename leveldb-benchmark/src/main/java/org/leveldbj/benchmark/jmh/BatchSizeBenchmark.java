package org.leveldbj.benchmark.jmh;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import org.iq80.leveldb.DB;
import org.iq80.leveldb.Options;
import org.iq80.leveldb.WriteBatch;
import org.openjdk.jmh.annotations.AuxCounters;
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
 * Puts written in batches of {@code batchSize} keys: the documented experiment finding batches
 * of 2 to 5 keys somewhat faster than single puts, and larger batches no faster still.
 *
 * <p>The primary score counts batches per second; the secondary score {@code keys} counts keys
 * per second, the figure to compare across batch sizes. Keys are written in order over
 * {@code keys} keys, overwritten once all exist.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class BatchSizeBenchmark {
    /** Keys per batch. */
    @Param({"1", "2", "5", "10", "100", "1000"})
    public int batchSize;

    /** How many distinct keys the batches cycle over. */
    @Param("100000")
    public int keys;

    /** The value length in bytes. */
    @Param("16")
    public int valueSize;

    private Fixture fixture;
    private byte[] value;
    private long next;

    /** The keys written, reported per second next to the batches. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class Keys {
        /** Keys written in this iteration. */
        public long keys;

        /** Starts each iteration's count at 0. */
        @Setup(Level.Iteration)
        public void reset() {
            keys = 0;
        }
    }

    /** Opens an empty database. */
    @Setup(Level.Trial)
    public void open() {
        fixture = Fixture.open(new Options());
        value = Fixture.value(new SplittableRandom(7), valueSize);
    }

    /** Closes and deletes the database. */
    @TearDown(Level.Trial)
    public void close() {
        fixture.close();
    }

    /**
     * Writes one batch of {@code batchSize} puts.
     *
     * @param counted the key counter
     */
    @Benchmark
    public void write(Keys counted) {
        DB db = fixture.db();
        try (WriteBatch batch = db.createWriteBatch()) {
            for (int i = 0; i < batchSize; i++) {
                batch.put(Fixture.key(next++ % keys), value);
            }
            db.write(batch);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        counted.keys += batchSize;
    }
}
