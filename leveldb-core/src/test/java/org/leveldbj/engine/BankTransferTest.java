package org.leveldbj.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLongArray;
import org.iq80.leveldb.DBIterator;
import org.iq80.leveldb.ExtendedDB;
import org.iq80.leveldb.Options;
import org.iq80.leveldb.ReadOptions;
import org.iq80.leveldb.Snapshot;
import org.iq80.leveldb.Transaction;
import org.iq80.leveldb.TransactionConflictException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.leveldbj.db.LevelDbFactory;
import org.leveldbj.testing.MemEnv;
import org.leveldbj.testing.Seed;
import org.leveldbj.testing.SeedExtension;

/**
 * Money moved between a few accounts by transactions on several threads: each transfer reads
 * two balances and writes both. Every conflict must surface as a
 * {@link TransactionConflictException} (the test never retries inside a transaction; a conflict
 * is counted and the transfer dropped), so the balances must end equal to the initial ones
 * plus exactly the transfers whose commit returned, and every snapshot taken meanwhile must
 * show the same total.
 */
@ExtendWith(SeedExtension.class)
class BankTransferTest {
    private static final int ACCOUNTS = 6;
    private static final long INITIAL = 1_000;
    private static final int THREADS = 4;
    private static final int TRANSFERS_PER_THREAD = 500;

    @Test
    void theTotalStaysConstantAndEveryConflictIsReported(@Seed long seed) throws Exception {
        try (ExtendedDB db = LevelDbFactory.factory.open(new File("/bank"),
                new Options().env(new MemEnv()).writeBufferSize(4_000))) {
            for (int a = 0; a < ACCOUNTS; a++) {
                db.put(account(a), encode(INITIAL));
            }
            AtomicLongArray expected = new AtomicLongArray(ACCOUNTS);
            for (int a = 0; a < ACCOUNTS; a++) {
                expected.set(a, INITIAL);
            }
            ExecutorService pool = Executors.newFixedThreadPool(THREADS + 1);
            AtomicBoolean running = new AtomicBoolean(true);
            List<Future<int[]>> tellers = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                Random r = new Random(seed + t);
                tellers.add(pool.submit(() -> {
                    int committed = 0;
                    int conflicts = 0;
                    for (int i = 0; i < TRANSFERS_PER_THREAD; i++) {
                        int from = r.nextInt(ACCOUNTS);
                        int to = (from + 1 + r.nextInt(ACCOUNTS - 1)) % ACCOUNTS;
                        long amount = 1 + r.nextInt(50);
                        try (Transaction txn = db.beginTransaction()) {
                            long a = decode(txn.get(account(from)));
                            long b = decode(txn.get(account(to)));
                            txn.put(account(from), encode(a - amount));
                            txn.put(account(to), encode(b + amount));
                            txn.commit();
                            expected.addAndGet(from, -amount);
                            expected.addAndGet(to, amount);
                            committed++;
                        } catch (TransactionConflictException e) {
                            conflicts++;
                        }
                    }
                    return new int[] {committed, conflicts};
                }));
            }
            Future<Integer> auditor = pool.submit(() -> {
                int audits = 0;
                while (running.get()) {
                    assertEquals(ACCOUNTS * INITIAL, total(db), "the total in a snapshot");
                    audits++;
                }
                return audits;
            });
            int committed = 0;
            int conflicts = 0;
            for (Future<int[]> f : tellers) {
                int[] r = f.get();
                committed += r[0];
                conflicts += r[1];
            }
            running.set(false);
            int audits = auditor.get();
            pool.shutdown();
            System.out.println("BankTransferTest: " + committed + " transfers committed, " + conflicts
                    + " conflicts, " + audits + " audits");
            assertEquals(THREADS * TRANSFERS_PER_THREAD, committed + conflicts);
            assertTrue(conflicts > 0, "no conflict among " + THREADS + " threads on " + ACCOUNTS + " accounts");
            for (int a = 0; a < ACCOUNTS; a++) {
                assertEquals(expected.get(a), decode(db.get(account(a))), "balance of account " + a);
            }
            assertEquals(ACCOUNTS * INITIAL, total(db));
        }
    }

    private static long total(ExtendedDB db) throws IOException {
        long sum = 0;
        int n = 0;
        try (Snapshot snapshot = db.getSnapshot();
             DBIterator it = db.iterator(new ReadOptions().snapshot(snapshot))) {
            for (it.seekToFirst(); it.hasNext(); n++) {
                Map.Entry<byte[], byte[]> e = it.next();
                sum += decode(e.getValue());
            }
        }
        assertEquals(ACCOUNTS, n, "accounts");
        return sum;
    }

    private static byte[] account(int a) {
        return ("account-" + a).getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    private static byte[] encode(long balance) {
        return ByteBuffer.allocate(8).putLong(balance).array();
    }

    private static long decode(byte[] value) {
        return ByteBuffer.wrap(value).getLong();
    }
}
