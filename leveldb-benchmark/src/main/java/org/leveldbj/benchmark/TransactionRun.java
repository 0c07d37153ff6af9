package org.leveldbj.benchmark;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Stream;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.ExtendedDB;
import org.iq80.leveldb.Options;
import org.iq80.leveldb.Transaction;
import org.iq80.leveldb.TransactionConflictException;
import org.iq80.leveldb.WriteBatch;
import org.leveldbj.db.LevelDbFactory;

/**
 * Commit throughput of optimistic transactions against plain writes, under contention, in
 * alternating rounds on one database so that a noisy machine slows both alike: each round runs
 * {@code threads} threads for one second doing read-modify-writes of two keys picked among
 * {@code keys}, either plainly (two {@code get}s and a two-put batch, which loses updates under
 * contention) or as a transaction (two reads, two puts, a commit; a conflict is counted and not
 * retried). Prints, per mode, the median and range over the rounds of attempts, commits and
 * conflicts per second.
 *
 * <pre>TransactionRun [keys] [threads] [rounds]</pre> (defaults 16, 4, 10).
 */
public final class TransactionRun {
    private static final byte[] VALUE = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

    private TransactionRun() {
    }

    /**
     * Runs the measurement.
     *
     * @param args keys, threads, rounds
     */
    public static void main(String[] args) throws Exception {
        int keys = args.length > 0 ? Integer.parseInt(args[0]) : 16;
        int threads = args.length > 1 ? Integer.parseInt(args[1]) : 4;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 10;
        Path dir = Files.createTempDirectory("leveldbj-txn-");
        try (ExtendedDB db = LevelDbFactory.factory.open(dir.toFile(), new Options())) {
            for (int k = 0; k < keys; k++) {
                db.put(key(k), VALUE);
            }
            db.flushMemTable();
            db.compactRange(null, null);
            round(db, keys, threads, false, 1);      // warm-up, not counted
            round(db, keys, threads, true, 1);
            List<long[]> plain = new ArrayList<>();
            List<long[]> txn = new ArrayList<>();
            for (int r = 0; r < rounds; r++) {
                boolean txnFirst = r % 2 == 1;
                (txnFirst ? txn : plain).add(round(db, keys, threads, txnFirst, 1));
                (txnFirst ? plain : txn).add(round(db, keys, threads, !txnFirst, 1));
            }
            System.out.printf(Locale.ROOT, "keys %d, threads %d, %d alternating rounds of 1 s%n", keys, threads, rounds);
            report("plain get+get+batch", plain);
            report("transaction", txn);
        } finally {
            try (Stream<Path> files = Files.walk(dir)) {
                for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }

    /** One round; returns attempts, commits, conflicts per second. */
    private static long[] round(ExtendedDB db, int keys, int threads, boolean transactions, double seconds)
            throws InterruptedException {
        LongAdder commits = new LongAdder();
        LongAdder conflicts = new LongAdder();
        AtomicBoolean stop = new AtomicBoolean();
        CountDownLatch done = new CountDownLatch(threads);
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            SplittableRandom random = new SplittableRandom(t * 7919L + System.nanoTime());
            Thread w = new Thread(() -> {
                try {
                    while (!stop.get()) {
                        byte[] a = key(random.nextInt(keys));
                        byte[] b = key(random.nextInt(keys));
                        if (transactions) {
                            try (Transaction txn = db.beginTransaction()) {
                                txn.get(a);
                                txn.get(b);
                                txn.put(a, VALUE);
                                txn.put(b, VALUE);
                                txn.commit();
                                commits.increment();
                            } catch (TransactionConflictException e) {
                                conflicts.increment();
                            }
                        } else {
                            plain(db, a, b);
                            commits.increment();
                        }
                    }
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                } finally {
                    done.countDown();
                }
            });
            workers.add(w);
        }
        long start = System.nanoTime();
        workers.forEach(Thread::start);
        Thread.sleep((long) (seconds * 1000));
        stop.set(true);
        done.await();
        double elapsed = (System.nanoTime() - start) / 1e9;
        long c = commits.sum();
        long f = conflicts.sum();
        return new long[] {Math.round((c + f) / elapsed), Math.round(c / elapsed), Math.round(f / elapsed)};
    }

    private static void plain(DB db, byte[] a, byte[] b) throws IOException {
        db.get(a);
        db.get(b);
        try (WriteBatch batch = db.createWriteBatch()) {
            batch.put(a, VALUE);
            batch.put(b, VALUE);
            db.write(batch);
        }
    }

    private static void report(String name, List<long[]> rounds) {
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%-20s", name));
        String[] what = {"attempts/s", "commits/s", "conflicts/s"};
        for (int i = 0; i < 3; i++) {
            int col = i;
            long[] v = rounds.stream().mapToLong(r -> r[col]).sorted().toArray();
            long median = v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
            line.append(String.format(Locale.ROOT, "  %s median %,d (%,d-%,d)", what[i], median, v[0], v[v.length - 1]));
        }
        System.out.println(line);
        System.out.println("    per round: " + rounds.stream().map(r -> Long.toString(r[1])).toList()
                + " commits/s");
    }

    private static byte[] key(int k) {
        return String.format(Locale.ROOT, "key%012d", k).getBytes(StandardCharsets.US_ASCII);
    }
}
