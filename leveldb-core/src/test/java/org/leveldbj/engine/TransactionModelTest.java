package org.leveldbj.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.iq80.leveldb.DBIterator;
import org.iq80.leveldb.ExtendedDB;
import org.iq80.leveldb.Options;
import org.iq80.leveldb.ReadOptions;
import org.iq80.leveldb.Transaction;
import org.iq80.leveldb.TransactionConflictException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.leveldbj.db.LevelDbFactory;
import org.leveldbj.testing.MemEnv;
import org.leveldbj.testing.Seed;
import org.leveldbj.testing.SeedExtension;

/**
 * Concurrent transactions against a model. Threads run transactions that read a few of a small
 * set of keys, then write (or delete) a few, each value naming its transaction; every commit is
 * recorded with its sequence number and what it read and wrote, every conflict counted. Then
 * the committed transactions, replayed one by one in the order of their sequence numbers on a
 * model map, must each have read exactly what the model held at that point (the outcome is
 * serializable, in commit order, with respect to what they read), and the model must end equal
 * to the database (no update lost). A scanner thread takes snapshots meanwhile; what each one
 * shows must be the model replayed up to its sequence number (each commit is visible all at
 * once or not at all). A failure reports its seed; rerun it with {@code -Dleveldbj.seed=N}.
 */
@ExtendWith(SeedExtension.class)
class TransactionModelTest {
    private static final int KEYS = 12;
    private static final int THREADS = 4;
    private static final int TRANSACTIONS_PER_THREAD = 400;

    /** A committed transaction. */
    private record Commit(long sequence, Map<String, String> reads, Map<String, String> writes) {
    }

    /** What a snapshot showed. */
    private record Seen(long sequence, Map<String, String> contents) {
    }

    @Test
    void committedTransactionsAreSerializableInCommitOrder(@Seed long seed) throws Exception {
        MemEnv env = new MemEnv();
        try (ExtendedDB db = LevelDbFactory.factory.open(new File("/db"),
                new Options().env(env).writeBufferSize(4_000).maxFileSize(8_000))) {
            for (int k = 0; k < KEYS; k++) {
                db.put(key(k), b("initial"));
            }
            ExecutorService pool = Executors.newFixedThreadPool(THREADS + 1);
            AtomicBoolean running = new AtomicBoolean(true);
            List<Future<int[]>> workers = new ArrayList<>();
            List<Commit> commits = Collections.synchronizedList(new ArrayList<>());
            for (int t = 0; t < THREADS; t++) {
                Random r = new Random(seed * 31 + t);
                int thread = t;
                workers.add(pool.submit(() -> run(db, r, thread, commits)));
            }
            Future<List<Seen>> scanner = pool.submit(() -> {
                List<Seen> seen = new ArrayList<>();
                while (running.get()) {
                    seen.add(scan(db));
                }
                seen.add(scan(db));
                return seen;
            });
            int committed = 0;
            int conflicts = 0;
            for (Future<int[]> f : workers) {
                int[] r = f.get();
                committed += r[0];
                conflicts += r[1];
            }
            running.set(false);
            List<Seen> snapshots = scanner.get();
            pool.shutdown();
            System.out.println("TransactionModelTest: " + committed + " committed, " + conflicts + " conflicts, "
                    + snapshots.size() + " snapshots compared");
            assertEquals(THREADS * TRANSACTIONS_PER_THREAD, committed + conflicts);
            assertEquals(committed, commits.size());
            assertTrue(conflicts > 0, "contention on " + KEYS + " keys made no conflict: the test checked nothing");

            List<Commit> ordered = new ArrayList<>(commits);
            ordered.sort(Comparator.comparingLong(Commit::sequence));
            TreeMap<Long, Map<String, String>> states = new TreeMap<>();
            Map<String, String> model = new HashMap<>();
            for (int k = 0; k < KEYS; k++) {
                model.put(name(k), "initial");
            }
            states.put(0L, new HashMap<>(model));
            long previous = -1;
            for (Commit c : ordered) {
                assertTrue(c.sequence() > previous, "two commits at sequence " + c.sequence());
                previous = c.sequence();
                for (Map.Entry<String, String> read : c.reads().entrySet()) {
                    assertEquals(model.get(read.getKey()), read.getValue(),
                            "the commit at " + c.sequence() + " read " + read.getKey() + " stale");
                }
                for (Map.Entry<String, String> w : c.writes().entrySet()) {
                    if (w.getValue() == null) {
                        model.remove(w.getKey());
                    } else {
                        model.put(w.getKey(), w.getValue());
                    }
                }
                states.put(c.sequence(), new HashMap<>(model));
            }
            assertEquals(model, scan(db).contents(), "the database after every commit");
            for (Seen s : snapshots) {
                assertEquals(states.floorEntry(s.sequence()).getValue(), s.contents(),
                        "what a snapshot at " + s.sequence() + " showed");
            }
        }
    }

    private static int[] run(ExtendedDB db, Random r, int thread, List<Commit> commits) {
        int committed = 0;
        int conflicts = 0;
        for (int i = 0; i < TRANSACTIONS_PER_THREAD; i++) {
            Map<String, String> reads = new HashMap<>();
            Map<String, String> writes = new HashMap<>();
            try (Transaction txn = db.beginTransaction()) {
                for (int n = r.nextInt(4); n > 0; n--) {
                    int k = r.nextInt(KEYS);
                    if (!writes.containsKey(name(k))) {
                        String v = s(txn.get(key(k)));
                        reads.putIfAbsent(name(k), v);
                    }
                }
                if (r.nextInt(3) == 0) {
                    Thread.yield();
                }
                String value = "t" + thread + "." + i;
                for (int n = 1 + r.nextInt(3); n > 0; n--) {
                    int k = r.nextInt(KEYS);
                    if (r.nextInt(6) == 0) {
                        txn.delete(key(k));
                        writes.put(name(k), null);
                    } else {
                        txn.put(key(k), b(value));
                        writes.put(name(k), value);
                    }
                }
                txn.commit();
                commits.add(new Commit(((OptimisticTransaction) txn).commitSequence(), reads, writes));
                committed++;
            } catch (TransactionConflictException e) {
                conflicts++;
            }
        }
        return new int[] {committed, conflicts};
    }

    private static Seen scan(ExtendedDB db) throws IOException {
        try (SnapshotList.SnapshotImpl snapshot = (SnapshotList.SnapshotImpl) db.getSnapshot();
             DBIterator it = db.iterator(new ReadOptions().snapshot(snapshot))) {
            Map<String, String> contents = new HashMap<>();
            for (it.seekToFirst(); it.hasNext(); ) {
                Map.Entry<byte[], byte[]> e = it.next();
                contents.put(s(e.getKey()), s(e.getValue()));
            }
            return new Seen(snapshot.sequence(), contents);
        }
    }

    private static String name(int k) {
        return String.format("key%02d", k);
    }

    private static byte[] key(int k) {
        return b(name(k));
    }

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String s(byte[] b) {
        return b == null ? null : new String(b, StandardCharsets.UTF_8);
    }
}
