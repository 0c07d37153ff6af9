package org.leveldbj.stress;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import org.iq80.leveldb.DB;
import org.leveldbj.db.LevelDbFactory;
import org.leveldbj.env.FileSystemEnv;

/**
 * The stress process the driver starts and kills: opens the database in {@code DIR/db} on a
 * {@link KillPointEnv} (armed when the driver asks for a kill point), starts one
 * {@link StressWorker} per thread from the verified state in {@code DIR}, and runs until it is
 * killed or halts. It never closes the database. An armed kill point counts from
 * {@code --arm-delay} seconds after the database opened, or in one process of four from the
 * start, so that it can fall inside the open (recovery writes a MANIFEST too).
 *
 * <p>A {@link Watchdog} runs from the start: the open counts as one operation, each step of a
 * worker as one more, and the count goes to {@code DIR/heartbeat} for the driver.
 *
 * <p>Exit statuses: {@link KillPointEnv#HALT_STATUS} when it halted at the armed point,
 * {@link #FAILED_STATUS} when a read check failed or any thread ended with an exception or error
 * (the reason on standard error), {@link Watchdog.Hang#status} when its watchdog found a deadlock
 * or a stall (the report on standard error), {@code 0} when its standard input closed (the driver
 * is gone).
 */
public final class StressMain {
    /** The exit status after a failed check, or an exception or error no code caught. */
    static final int FAILED_STATUS = 3;

    private StressMain() {
    }

    /**
     * Runs the stress process.
     *
     * @param args the flags of {@link Config}, as the driver passes them
     * @throws IOException if the database or the expected state cannot be opened
     */
    public static void main(String[] args) throws IOException {
        Config c = Config.parse(args);
        Thread.setDefaultUncaughtExceptionHandler(StressMain::failed);
        exitWhenParentGoes();
        Watchdog watchdog = new Watchdog(new Heartbeat(c.db.resolve(Heartbeat.FILE)), Watchdog.halting(System.err));
        watchdog.expectProgressWithin(c.inject == Config.Injection.SILENT_STALL ? 0 : c.stallTimeout);
        watchdog.start();
        if (c.inject == Config.Injection.LOCK_ORDER_MESSAGE) {
            System.err.println("crashtest: injected: lock order violation (a message only)");
            System.err.flush();
        }
        ExpectedState base = ExpectedState.load(c.db, c.threads, c.keysPerThread);
        // One time in four the kill point may fall while the database opens (a MANIFEST
        // written by recovery, say); otherwise only once it is open.
        boolean duringOpen = new SplittableRandom(c.seed).nextInt(4) == 0;
        KillPointEnv env = new KillPointEnv(FileSystemEnv.getDefault(), c.arm, c.armAfter, duringOpen);
        Path dbDir = c.db.resolve("db");
        Files.createDirectories(dbDir);
        long start = System.nanoTime();
        DB db = LevelDbFactory.factory.open(dbDir.toFile(), c.options(env));
        watchdog.completed();
        startCountingLater(env, duringOpen ? 0 : c.armDelay);
        System.out.printf("crashtest: stress process running (opened in %.2f s)%n", (System.nanoTime() - start) / 1e9);
        System.out.flush();
        if (inject(c)) {
            return;
        }
        Backups backups = new Backups(c.db, env, c.options(null));
        for (int t = 0; t < c.threads; t++) {
            OpLog log = new OpLog(OpLog.file(c.db, t));
            Thread thread = new Thread(new StressWorker(t, db, c, c.seed * 31 + t, base.row(t).clone(),
                    base.nextOp(t), log, watchdog, t == 0 ? backups : null), "stress-" + t);
            thread.start();
        }
    }

    /** Any thread that ends with an exception or error fails the process. */
    private static void failed(Thread thread, Throwable e) {
        System.err.println("crashtest: thread " + thread.getName() + " FAILED: " + e);
        e.printStackTrace();
        System.err.flush();
        Runtime.getRuntime().halt(FAILED_STATUS);
    }

    /**
     * Injects the fault the driver asked for (tests of the watchdog and the driver).
     *
     * @return {@code true} when no stress threads are to be started
     */
    private static boolean inject(Config c) {
        switch (c.inject) {
            case DEADLOCK:
                Object a = new Object();
                Object b = new Object();
                CyclicBarrier both = new CyclicBarrier(2);
                new Thread(() -> lockBoth(a, b, both), "injected-deadlock-1").start();
                new Thread(() -> lockBoth(b, a, both), "injected-deadlock-2").start();
                return false;
            case STALL:
            case SILENT_STALL:
                // As a worker stuck for good would: nothing completes any more.
                try {
                    new CountDownLatch(1).await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return true;
            default:
                return false;
        }
    }

    private static void lockBoth(Object first, Object second, CyclicBarrier both) {
        synchronized (first) {
            try {
                both.await();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
            synchronized (second) {
                throw new IllegalStateException("the injected deadlock did not happen");
            }
        }
    }

    private static void startCountingLater(KillPointEnv env, double seconds) {
        if (seconds <= 0) {
            env.startCounting();
            return;
        }
        Thread timer = new Thread(() -> {
            try {
                Thread.sleep((long) (seconds * 1000));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            env.startCounting();
        }, "kill-point-timer");
        timer.setDaemon(true);
        timer.start();
    }

    /** Halts when standard input reaches its end: the driver that holds it has died. */
    private static void exitWhenParentGoes() {
        Thread watcher = new Thread(() -> {
            try (InputStream in = System.in) {
                while (in.read() >= 0) {
                    // Nothing is sent; reading only waits for the end.
                }
            } catch (IOException e) {
                // Treated as the end.
            }
            Runtime.getRuntime().halt(0);
        }, "parent-watcher");
        watcher.setDaemon(true);
        watcher.start();
    }
}
