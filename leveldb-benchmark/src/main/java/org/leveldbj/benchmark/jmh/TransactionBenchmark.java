package org.leveldbj.benchmark.jmh;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import org.iq80.leveldb.DB;
import org.iq80.leveldb.ExtendedDB;
import org.iq80.leveldb.Options;
import org.iq80.leveldb.Transaction;
import org.iq80.leveldb.TransactionConflictException;
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
 * Read-modify-write of two keys, as optimistic transactions against plain writes, under
 * contention: every thread picks two of {@code keys} keys at random, reads both and writes
 * both. {@code plainBatch} reads with {@code get} and writes one batch (no isolation: updates
 * are lost under contention); {@code transaction} reads in a transaction and commits, the
 * commit checking both keys in the write path. Run with several threads ({@code -t 4}) to
 * contend; few keys contend more.
 *
 * <p>The primary score counts attempts per second; the secondary scores count commits and
 * conflicts per second ({@code plainBatch} commits every attempt and has none). A conflict is not
 * retried: it is one attempt that wrote nothing.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class TransactionBenchmark {
    /** How many distinct keys the threads pick from. */
    @Param({"16", "100000"})
    public int keys;

    /** The value length in bytes. */
    @Param("16")
    public int valueSize;

    private Fixture fixture;
    private byte[] value;

    /** A thread's random choice of keys. */
    @State(Scope.Thread)
    public static class Picks {
        final SplittableRandom random = new SplittableRandom(Thread.currentThread().getId());
    }

    /** Commits and conflicts, reported per second next to the attempts. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class Outcomes {
        /** Attempts that wrote. */
        public long commits;
        /** Attempts refused by a conflict. */
        public long conflicts;

        /** Starts each iteration's count at 0. */
        @Setup(Level.Iteration)
        public void reset() {
            commits = 0;
            conflicts = 0;
        }
    }

    /** Opens a database holding every key, compacted. */
    @Setup(Level.Trial)
    public void open() {
        fixture = Fixture.open(new Options());
        value = Fixture.value(new SplittableRandom(7), valueSize);
        for (int k = 0; k < keys; k++) {
            fixture.db().put(Fixture.key(k), value);
        }
        // Settled before measuring: no compaction of the fill runs under the first iterations.
        ((ExtendedDB) fixture.db()).flushMemTable();
        fixture.db().compactRange(null, null);
    }

    /** Closes and deletes the database. */
    @TearDown(Level.Trial)
    public void close() {
        fixture.close();
    }

    /**
     * Reads two keys with {@code get} and writes both in one batch.
     *
     * @param picks the thread's random keys
     * @param outcomes the counters
     * @return the bytes read, so that the reads are not optimised away
     */
    @Benchmark
    public int plainBatch(Picks picks, Outcomes outcomes) throws Exception {
        DB db = fixture.db();
        byte[] a = Fixture.key(picks.random.nextInt(keys));
        byte[] b = Fixture.key(picks.random.nextInt(keys));
        int read = db.get(a).length + db.get(b).length;
        try (WriteBatch batch = db.createWriteBatch()) {
            batch.put(a, value);
            batch.put(b, value);
            db.write(batch);
        }
        outcomes.commits++;
        return read;
    }

    /**
     * Reads two keys in a transaction, writes both and commits.
     *
     * @param picks the thread's random keys
     * @param outcomes the counters
     * @return the bytes read
     */
    @Benchmark
    public int transaction(Picks picks, Outcomes outcomes) {
        ExtendedDB db = (ExtendedDB) fixture.db();
        byte[] a = Fixture.key(picks.random.nextInt(keys));
        byte[] b = Fixture.key(picks.random.nextInt(keys));
        try (Transaction txn = db.beginTransaction()) {
            int read = txn.get(a).length + txn.get(b).length;
            txn.put(a, value);
            txn.put(b, value);
            try {
                txn.commit();
                outcomes.commits++;
            } catch (TransactionConflictException e) {
                outcomes.conflicts++;
            }
            return read;
        }
    }
}
