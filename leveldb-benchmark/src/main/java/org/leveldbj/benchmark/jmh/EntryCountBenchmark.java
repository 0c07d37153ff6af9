package org.leveldbj.benchmark.jmh;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.TimeUnit;

import org.iq80.leveldb.ExtendedDB;
import org.iq80.leveldb.Options;
import org.leveldbj.db.LevelDbFactory;
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
 * What {@code ExtendedDB.approximateNumEntries()} costs on a database of {@code keys} keys
 * written in a random order (tables on several levels, a memtable holding some): {@code warm},
 * a call once every table's counts are known (a loop over the files, no I/O); {@code afterOpen},
 * the first call after the database was reopened, which reads the stats block of every table
 * through the table cache (the database is closed and reopened before each call, untimed).
 * Each call's result is checked against the number of keys (within a factor of 2).
 */
@State(Scope.Benchmark)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class EntryCountBenchmark {
    /** How many keys the database holds. */
    @Param("1000000")
    public int keys;

    /** The value length in bytes. */
    @Param("100")
    public int valueSize;

    private Fixture fixture;
    private ExtendedDB db;

    /** Fills the database, then reopens it: the counts then come from the tables. */
    @Setup(Level.Trial)
    public void open() {
        fixture = Fixture.open(new Options());
        Fixture.fillShuffled(fixture.db(), keys, 1, valueSize);
        reopen();
        System.err.println("EntryCountBenchmark: " + db.getProperty("leveldbj.num-files") + " tables, estimate "
                + db.approximateNumEntries() + " of " + keys);
    }

    /** Closes the database (the fixture's handle first) and opens it again. */
    void reopen() {
        try {
            if (db != null) {
                db.close();
            } else {
                fixture.db().close();
            }
            db = LevelDbFactory.factory.open(fixture.directory().toFile(), new Options());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Closes and deletes the database. */
    @TearDown(Level.Trial)
    public void close() {
        db.close();
        Fixture.delete(fixture.directory());
    }

    /** Reopens the database before each call of {@link #afterOpen}. */
    @State(Scope.Thread)
    public static class Reopened {
        /**
         * Closes and reopens the benchmark's database.
         *
         * @param bench the benchmark's state
         */
        @Setup(Level.Invocation)
        public void reopen(EntryCountBenchmark bench) {
            bench.reopen();
        }
    }

    private long checked(long estimate) {
        if (estimate * 2 < keys || estimate > 2L * keys) {
            throw new IllegalStateException("estimate " + estimate + " of " + keys + " keys");
        }
        return estimate;
    }

    /**
     * A call with every table's counts known.
     *
     * @return the estimate
     */
    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    public long warm() {
        return checked(db.approximateNumEntries());
    }

    /**
     * The first call after an open.
     *
     * @param reopened reopens the database before the call
     * @return the estimate
     */
    @Benchmark
    @BenchmarkMode(Mode.SingleShotTime)
    public long afterOpen(Reopened reopened) {
        return checked(db.approximateNumEntries());
    }
}
