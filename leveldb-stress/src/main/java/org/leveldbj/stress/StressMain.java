package org.leveldbj.stress;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
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
 * <p>Exit statuses: {@link KillPointEnv#HALT_STATUS} when it halted at the armed point,
 * {@link #FAILED_STATUS} when a read check failed (the reason on standard error), {@code 0}
 * when its standard input closed (the driver is gone).
 */
public final class StressMain {
    /** The exit status after a failed check. */
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
        exitWhenParentGoes();
        ExpectedState base = ExpectedState.load(c.db, c.threads, c.keysPerThread);
        // One time in four the kill point may fall while the database opens (a MANIFEST
        // written by recovery, say); otherwise only once it is open.
        boolean duringOpen = new SplittableRandom(c.seed).nextInt(4) == 0;
        KillPointEnv env = new KillPointEnv(FileSystemEnv.getDefault(), c.arm, c.armAfter, duringOpen);
        Path dbDir = c.db.resolve("db");
        Files.createDirectories(dbDir);
        DB db = LevelDbFactory.factory.open(dbDir.toFile(), c.options(env));
        startCountingLater(env, duringOpen ? 0 : c.armDelay);
        for (int t = 0; t < c.threads; t++) {
            OpLog log = new OpLog(OpLog.file(c.db, t));
            Thread thread = new Thread(new StressWorker(t, db, c, c.seed * 31 + t, base.row(t).clone(),
                    base.nextOp(t), log), "stress-" + t);
            thread.start();
        }
        System.out.println("crashtest: stress process running");
        System.out.flush();
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
