package org.leveldbj.engine;

import org.leveldbj.db.LevelDbFactory;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.Options;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.leveldbj.testing.MemEnv;
import org.leveldbj.util.LockOrder;
import org.leveldbj.util.LockOrderViolation;
import org.leveldbj.util.LockRank;
import org.leveldbj.util.OrderedLock;

/**
 * A writer that starts value files often, beside flushes, compactions and the value collector
 * deleting obsolete files, must never hang. Small value files (64 KiB) make a new file start every
 * few writes, which is when the value log once waited for the database lock while the
 * background thread, holding that lock to delete files, waited for the value log.
 *
 * <p>The writer runs on a thread of its own; this test watches it with the JVM's deadlock detector
 * and a progress deadline, and fails with every thread's stack rather than hanging. It writes for
 * {@code leveldbj.deadlockTest.seconds} seconds (3 by default; the long run is 600).
 */
class ValueLogDeadlockTest {
    private static final long SECONDS = Long.getLong("leveldbj.deadlockTest.seconds", 3);
    /** How long the writer may go without completing a write before the test calls it hung. */
    private static final long STALL_NANOS = 30_000_000_000L;

    @TempDir
    File dir;

    @Test
    void writerAlternatingSeparatedAndInlineValuesNeverHangs() throws Exception {
        Options options = new Options().valueThreshold(1024).maxFileSize(2048).writeBufferSize(65536);
        byte[] large = new byte[4096];
        byte[] small = new byte[300];
        Arrays.fill(large, (byte) 'L');
        Arrays.fill(small, (byte) 's');
        AtomicLong written = new AtomicLong();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        DB db = LevelDbFactory.factory.open(dir, options);
        long end = System.nanoTime() + SECONDS * 1_000_000_000L;
        Thread writer = new Thread(() -> {
            try {
                for (long i = 0; System.nanoTime() < end; i++) {
                    db.put(key(i % 5000), i % 2 == 0 ? large : small);
                    written.set(i + 1);
                }
            } catch (Throwable t) {
                failure.set(t);
            }
        }, "deadlock-test-writer");
        writer.setDaemon(true);
        writer.start();
        watch(writer, written);
        if (failure.get() != null) {
            throw new AssertionError("the writer failed", failure.get());
        }
        Thread closer = new Thread(() -> {
            try {
                db.close();
            } catch (Throwable t) {
                failure.set(t);
            }
        }, "deadlock-test-close");
        closer.setDaemon(true);
        closer.start();
        watch(closer, new AtomicLong());
        if (failure.get() != null) {
            throw new AssertionError("close failed", failure.get());
        }

        long n = written.get();
        try (DB reopened = LevelDbFactory.factory.open(dir, options)) {
            for (long i = Math.max(0, n - 5000); i < n; i++) {
                byte[] expected = i % 2 == 0 ? large : small;
                assertArrayEquals(expected, reopened.get(key(i % 5000)), "key " + (i % 5000));
            }
        }
        assertTrue(n > 100, "only " + n + " writes in " + SECONDS + " s");
    }

    /**
     * The inversion as it was, planted: a value log whose file numbers take the database lock.
     * The checker fails its first append on one thread, with no second thread and no luck needed.
     */
    @Test
    void valueLogTakingTheDatabaseLockFailsTheLockOrderCheck() throws Exception {
        assertTrue(LockOrder.ENABLED, "the build runs every test with -Dleveldbj.lockOrderCheck=true");
        OrderedLock databaseLock = new OrderedLock(LockRank.DATABASE);
        long[] next = {10};
        LongSupplier numbersUnderTheDatabaseLock = () -> {
            databaseLock.lock();
            try {
                return next[0]++;
            } finally {
                databaseLock.unlock();
            }
        };
        MemEnv env = new MemEnv();
        Path path = Path.of("/db");
        env.createDir(path);
        try (ValueLog log = new ValueLog(env, path, 1024, numbersUnderTheDatabaseLock, 2048)) {
            byte[] value = new byte[4096];
            LockOrderViolation e = assertThrows(LockOrderViolation.class, () -> log.append(value, 0, 3, value, 0, 4096));
            assertTrue(e.getMessage().contains("takes DATABASE@") && e.getMessage().contains("holding VALUE_LOG@"),
                    e.getMessage());
        } finally {
            assertEquals(1, LockOrder.takeViolations().size(), "the planted violation, and no other");
        }
    }

    private static byte[] key(long i) {
        return String.format("key%06d", i).getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * Waits for a thread to end, failing with every thread's stack at the first deadlock the JVM
     * finds, or when {@code progress} stays the same for {@link #STALL_NANOS}.
     */
    private static void watch(Thread thread, AtomicLong progress) throws InterruptedException {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long last = progress.get();
        long lastChange = System.nanoTime();
        while (thread.isAlive()) {
            thread.join(100);
            long[] deadlocked = threads.findDeadlockedThreads();
            if (deadlocked != null) {
                fail("deadlock among " + deadlocked.length + " threads:\n" + dump(threads, deadlocked));
            }
            long now = progress.get();
            if (now != last) {
                last = now;
                lastChange = System.nanoTime();
            } else if (System.nanoTime() - lastChange > STALL_NANOS) {
                fail(thread.getName() + " made no progress for " + STALL_NANOS / 1_000_000_000L + " s:\n"
                        + dump(threads, null));
            }
        }
    }

    private static String dump(ThreadMXBean threads, long[] ids) {
        ThreadInfo[] infos = ids == null ? threads.dumpAllThreads(true, true) : threads.getThreadInfo(ids, true, true);
        StringBuilder out = new StringBuilder();
        for (ThreadInfo info : infos) {
            out.append('"').append(info.getThreadName()).append("\" ").append(info.getThreadState());
            if (info.getLockName() != null) {
                out.append(" waiting for ").append(info.getLockName()).append(" held by ").append(info.getLockOwnerName());
            }
            out.append('\n');
            for (StackTraceElement e : info.getStackTrace()) {
                out.append("    at ").append(e).append('\n');
            }
        }
        return out.toString();
    }
}
