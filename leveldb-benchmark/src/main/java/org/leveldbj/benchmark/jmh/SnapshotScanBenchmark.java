package org.leveldbj.benchmark.jmh;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.iq80.leveldb.DB;
import org.iq80.leveldb.DBIterator;
import org.iq80.leveldb.Options;
import org.iq80.leveldb.ReadOptions;
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
 * A full scan of a snapshot while another thread rewrites every key over and over: the
 * documented experiment showing that a snapshot isolates a traversal from concurrent writes.
 *
 * <p>Each call takes a snapshot, scans all {@code keys} keys through it and checks what it saw:
 * the writer rewrites the keys in key order, each pass stamping its pass number in the first 8
 * bytes of every value, so a consistent view holds every key, with pass numbers that never rise
 * along the scan and differ by at most one; and reading the first key through the same snapshot
 * after the scan returns the value the scan saw. A violation fails the benchmark. Time per scan.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class SnapshotScanBenchmark {
    /** How many keys the database holds. */
    @Param("100000")
    public int keys;

    /** The value length in bytes, at least 8. */
    @Param("16")
    public int valueSize;

    private Fixture fixture;
    private Thread writer;
    private volatile boolean stop;
    private final AtomicLong passes = new AtomicLong();

    /** Puts every key (pass 0), then starts the writer. */
    @Setup(Level.Trial)
    public void open() {
        if (valueSize < 8) {
            throw new IllegalArgumentException("valueSize must be at least 8: " + valueSize);
        }
        fixture = Fixture.open(new Options());
        DB db = fixture.db();
        writePass(db, 0);
        stop = false;
        writer = new Thread(() -> {
            for (long pass = 1; !stop; pass++) {
                writePass(db, pass);
                passes.set(pass);
            }
        }, "snapshot-scan-writer");
        writer.setDaemon(true);
        writer.start();
    }

    private void writePass(DB db, long pass) {
        byte[] value = new byte[valueSize];
        stamp(value, pass);
        for (int i = 0; i < keys && !stop; i++) {
            db.put(Fixture.key(i), value);
        }
    }

    /**
     * Stops the writer, then closes and deletes the database.
     *
     * @throws InterruptedException if interrupted while waiting for the writer
     */
    @TearDown(Level.Trial)
    public void close() throws InterruptedException {
        stop = true;
        writer.join();
        System.err.println("SnapshotScanBenchmark: the writer completed " + passes.get() + " passes over " + keys + " keys");
        fixture.close();
    }

    /**
     * Scans a new snapshot and checks that it is consistent.
     *
     * @return the number of entries scanned
     */
    @Benchmark
    public long scan() {
        DB db = fixture.db();
        try (Snapshot snapshot = db.getSnapshot()) {
            ReadOptions read = new ReadOptions().snapshot(snapshot);
            long count = 0;
            long highest = -1;
            long lowest = Long.MAX_VALUE;
            long previous = Long.MAX_VALUE;
            byte[] first = null;
            try (DBIterator it = db.iterator(read)) {
                for (it.seekToFirst(); it.hasNext(); ) {
                    Map.Entry<byte[], byte[]> entry = it.next();
                    long pass = stampOf(entry.getValue());
                    if (pass > previous) {
                        throw new IllegalStateException("pass " + pass + " after pass " + previous + " in one snapshot");
                    }
                    previous = pass;
                    highest = Math.max(highest, pass);
                    lowest = Math.min(lowest, pass);
                    if (first == null) {
                        first = entry.getValue();
                    }
                    count++;
                }
            }
            if (count != keys || highest - lowest > 1) {
                throw new IllegalStateException("inconsistent snapshot: " + count + " of " + keys
                        + " keys, passes " + lowest + " to " + highest);
            }
            if (!Arrays.equals(first, db.get(Fixture.key(0), read))) {
                throw new IllegalStateException("the snapshot's first value changed during the scan");
            }
            return count;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void stamp(byte[] value, long pass) {
        for (int i = 0; i < 8; i++) {
            value[i] = (byte) (pass >>> (56 - 8 * i));
        }
    }

    private static long stampOf(byte[] value) {
        long pass = 0;
        for (int i = 0; i < 8; i++) {
            pass = pass << 8 | (value[i] & 0xff);
        }
        return pass;
    }
}
