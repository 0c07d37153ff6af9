package org.leveldbj.kafka.streams;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.LongConsumer;
import org.iq80.leveldb.ExtendedDB;
import org.iq80.leveldb.Options;
import org.iq80.leveldb.WriteBatch;
import org.leveldbj.db.LevelDbFactory;

/**
 * How close the engine's entry count ({@code leveldb.approximate-num-entries}, which a store's
 * {@code approximateNumEntries()} returns beyond {@value EntryCount#EXACT_LIMIT} entries) stays to
 * the true count at sizes too large for a unit test: distinct small (4-byte) keys, distinct large
 * (1 KiB) keys, half of them deleted, and a set of keys rewritten many times with flushes and
 * compactions as they come. Prints, per case, the true count, the estimate and their ratio (the
 * lowest and highest ratio seen at the checkpoints of the rewrites), and the time a call took.
 *
 * <p>Run with {@code bin/kafka-store-bench --suite=entries [--records=N] [--large-records=M]
 * [--rewritten-keys=K] [--rewrites=R] [--verbose]}: N distinct small keys (default 10,000,000), M distinct
 * large keys (default N / 10), and K keys (default N / 50) written R times each (default 50).
 * Default options (4 MiB memtable, 2 MiB tables). Writes batches of 1,000. {@code --verbose}
 * prints every checkpoint of the rewrites.
 */
public final class EntryCountBenchmark {
    /** Whether to print every checkpoint of the rewrites ({@code --verbose}). */
    private static boolean verbose;

    private EntryCountBenchmark() {
    }

    private record Row(String workload, long live, long estimate, String ratio, double callMicros) {
    }

    public static void main(String[] args) throws Exception {
        verbose = java.util.Arrays.asList(args).contains("--verbose");
        BenchArgs a = BenchArgs.parse(java.util.Arrays.stream(args).filter(x -> !x.equals("--verbose")).toArray(String[]::new),
                "records", 10_000_000L, "large-records", -1L, "rewritten-keys", -1L, "rewrites", 50L);
        long records = a.longValue("records");
        long large = a.longValue("large-records");
        long rewrittenKeys = a.longValue("rewritten-keys");
        int rewrites = a.intValue("rewrites");
        if (large < 0) {
            large = records / 10;
        }
        if (rewrittenKeys < 0) {
            rewrittenKeys = Math.max(1, records / 50);
        }
        List<Row> rows = new ArrayList<>();
        Path root = Files.createTempDirectory("entry-count-bench");
        try {
            distinct(root.resolve("small"), records, false, rows);
            distinct(root.resolve("large"), large, true, rows);
            rewritten(root.resolve("rewrites"), rewrittenKeys, rewrites, rows);
        } finally {
            ScratchDirectory.delete(root);
        }
        System.out.println();
        System.out.println("| workload | live keys | estimate | estimate / live | µs per call |");
        System.out.println("|---|---:|---:|---:|---:|");
        for (Row r : rows) {
            System.out.printf("| %s | %,d | %,d | %s | %.2f |%n", r.workload(), r.live(), r.estimate(), r.ratio(),
                    r.callMicros());
        }
    }

    /** Key {@code i}: 4 bytes big-endian, or 1 KiB whose first 4 bytes are those. */
    static byte[] key(long i, boolean large) {
        byte[] k = new byte[large ? 1024 : 4];
        if (large) {
            new Random(i).nextBytes(k);
        }
        k[0] = (byte) (i >>> 24);
        k[1] = (byte) (i >>> 16);
        k[2] = (byte) (i >>> 8);
        k[3] = (byte) i;
        return k;
    }

    /** A permutation of 0..n-1 visited in a scattered order (i * a prime, mod n). */
    private static long scattered(long i, long n) {
        long prime = 1_000_000_007L;
        while (n % prime == 0 || prime % n == 0) {
            prime += 2;
        }
        return Math.floorMod(i * (prime % n), n);
    }

    private static void distinct(Path dir, long n, boolean large, List<Row> rows) throws IOException {
        if (n == 0) {
            return;
        }
        String what = large ? "1 KiB keys" : "4-byte keys";
        byte[] value = new byte[8];
        try (ExtendedDB db = LevelDbFactory.factory.open(dir.toFile(), new Options())) {
            inBatches(db, n, 1, (batch, i) -> batch.put(key(scattered(i, n), large), value), last -> { });
            rows.add(row(String.format("%,d distinct %s", n, what), n, db));
            inBatches(db, n, 2, (batch, i) -> batch.delete(key(i, large)), last -> { });
            long live = n - (n + 1) / 2;
            rows.add(row(String.format("%,d distinct %s, half deleted", n, what), live, db));
        } finally {
            ScratchDirectory.delete(dir);
        }
    }

    /** Adds the write of entry {@code i} to a batch. */
    private interface BatchWrite {
        void add(WriteBatch batch, long i);
    }

    /**
     * Writes entries {@code 0, step, 2 step, ...} below {@code n}, 1,000 to a batch, and calls
     * {@code afterFullBatch} with the last entry of each full batch written.
     */
    private static void inBatches(ExtendedDB db, long n, long step, BatchWrite write, LongConsumer afterFullBatch)
            throws IOException {
        for (long first = 0; first < n; first += 1000 * step) {
            long end = Math.min(n, first + 1000 * step);
            long last = first;
            try (WriteBatch batch = db.createWriteBatch()) {
                for (long i = first; i < end; i += step) {
                    write.add(batch, i);
                    last = i;
                }
                db.write(batch);
            }
            if (end - first == 1000 * step) {
                afterFullBatch.accept(last);
            }
        }
    }

    private static void rewritten(Path dir, long keys, int rounds, List<Row> rows) throws IOException {
        Random r = new Random(42);
        double[] range = {Double.MAX_VALUE, 0}; // the lowest and highest ratio seen
        long estimate = 0;
        try (ExtendedDB db = LevelDbFactory.factory.open(dir.toFile(), new Options())) {
            for (int round = 0; round < rounds; round++) {
                long offset = r.nextInt(1 << 20);
                int thisRound = round;
                inBatches(db, keys, 1, (batch, i) -> {
                    byte[] v = new byte[8];
                    r.nextBytes(v);
                    batch.put(key(scattered(i + offset, keys), false), v);
                }, last -> {
                    if (r.nextInt(100) == 0) {
                        // Mid-round: every key was written in the first round.
                        long e = db.approximateNumEntries();
                        double ratio = (double) e / (thisRound == 0 ? last + 1 : keys);
                        if (verbose) {
                            System.out.printf("round %d, %,d written: estimate %,d (%.3f); %s%n", thisRound, last + 1, e,
                                    ratio, db.getProperty("leveldb.num-files-at-level0") + " L0 files");
                        }
                        range[0] = Math.min(range[0], ratio);
                        range[1] = Math.max(range[1], ratio);
                    }
                });
                estimate = db.approximateNumEntries();
                if (verbose) {
                    System.out.printf("round %d done: estimate %,d (%.3f)%n", round, estimate, (double) estimate / keys);
                }
                range[0] = Math.min(range[0], (double) estimate / keys);
                range[1] = Math.max(range[1], (double) estimate / keys);
            }
            Row last = row("", keys, db);
            rows.add(new Row(String.format("%,d 4-byte keys written %d times (%,d writes), at checkpoints", keys,
                    rounds, keys * rounds), keys, last.estimate(),
                    String.format("%.3f to %.3f (last %.3f)", range[0], range[1], (double) last.estimate() / keys),
                    last.callMicros()));
        } finally {
            ScratchDirectory.delete(dir);
        }
    }

    private static Row row(String workload, long live, ExtendedDB db) {
        long estimate = db.approximateNumEntries();
        long start = System.nanoTime();
        int calls = 0;
        while (System.nanoTime() - start < 200_000_000L && calls < 100_000) {
            estimate = db.approximateNumEntries();
            calls++;
        }
        double micros = (System.nanoTime() - start) / 1000.0 / calls;
        return new Row(workload, live, estimate, String.format("%.3f", (double) estimate / live), micros);
    }
}
