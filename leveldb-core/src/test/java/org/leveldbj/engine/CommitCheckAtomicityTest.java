package org.leveldbj.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.iq80.leveldb.DBComparator;
import org.iq80.leveldb.ExtendedDB;
import org.iq80.leveldb.Options;
import org.iq80.leveldb.Transaction;
import org.junit.jupiter.api.Test;
import org.leveldbj.db.LevelDbFactory;
import org.leveldbj.testing.MemEnv;

/**
 * No write slips in between a commit's check and its write: the check is held in the middle (a
 * comparator that blocks the committing thread's first comparison once armed, which is the
 * check's lookup), a plain write of the key checked is started meanwhile, and it must not
 * complete until the transaction has committed, after which it overwrites the transaction's
 * value (it is ordered after the commit, not between the check and the write).
 */
class CommitCheckAtomicityTest {

    /** Bytewise order that parks one armed thread at its next comparison. */
    private static final class GateComparator implements DBComparator {
        final AtomicReference<Thread> armed = new AtomicReference<>();
        final CountDownLatch parked = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);

        @Override
        public String name() {
            return "leveldb.BytewiseComparator";
        }

        @Override
        public int compare(byte[] a, byte[] b) {
            if (armed.get() == Thread.currentThread() && armed.compareAndSet(Thread.currentThread(), null)) {
                parked.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return Arrays.compareUnsigned(a, b);
        }

        @Override
        public byte[] findShortestSeparator(byte[] start, byte[] limit) {
            return start;
        }

        @Override
        public byte[] findShortSuccessor(byte[] key) {
            return key;
        }
    }

    @Test
    void aWriteStartedDuringTheCheckWaitsAndLandsAfterTheCommit() throws Exception {
        GateComparator gate = new GateComparator();
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (ExtendedDB db = LevelDbFactory.factory.open(new File("/db"), new Options().env(new MemEnv()).comparator(gate))) {
            db.put(b("k"), b("before"));
            Transaction txn = db.beginTransaction();
            assertArrayEquals(b("before"), txn.get(b("k")));
            txn.put(b("k"), b("transaction"));
            Future<?> commit = pool.submit(() -> {
                gate.armed.set(Thread.currentThread());
                txn.commit();
                return null;
            });
            assertTrue(gate.parked.await(30, TimeUnit.SECONDS), "the commit's check never compared a key");
            Future<?> plain = pool.submit(() -> {
                db.put(b("k"), b("plain"));
                return null;
            });
            Thread.sleep(300);
            assertFalse(plain.isDone(), "a write completed while a commit was between its check and its write");
            assertFalse(commit.isDone());
            gate.release.countDown();
            commit.get(30, TimeUnit.SECONDS); // no conflict: the plain write came after
            plain.get(30, TimeUnit.SECONDS);
            assertArrayEquals(b("plain"), db.get(b("k")), "the plain write is ordered after the commit");
            txn.close();
        } finally {
            gate.release.countDown();
            pool.shutdownNow();
        }
    }

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
