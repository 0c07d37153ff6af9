package org.leveldbj.stress;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.leveldbj.testing.Seed;
import org.leveldbj.testing.SeedExtension;

/**
 * One round whose stress process goes wrong on purpose ({@code --inject}): a deadlock, a stall
 * its watchdog reports, a stall it does not report (the driver's heartbeat check and
 * {@code jcmd} catch it), an error thrown by a stress thread, a lock-order violation only
 * printed. Each must fail the round with what tells why, and the command line that repeats the
 * round's options. A few seconds each (a 2-second stall timeout).
 */
@ExtendWith(SeedExtension.class)
class FailingRoundTest {
    @TempDir
    Path dir;

    @Test
    void aDeadlockFailsTheRound(@Seed long seed) throws Exception {
        String failure = failure("deadlock", "5-5", seed);
        assertTrue(failure.contains("the stress process's watchdog found a deadlock (exit status 4)"), failure);
        assertTrue(failure.contains("DEADLOCK: threads \"injected-deadlock-"), failure);
        assertTrue(failure.contains("StressMain.lockBoth"), failure);
        assertTrue(failure.contains("waiting to lock java.lang.Object@"), failure);
    }

    @Test
    void aStallFailsTheRoundThoughTheKillIsDue(@Seed long seed) throws Exception {
        // The kill is due after 4 s, but nothing has completed since the open: it waits, and the
        // process's watchdog reports the stall 2 s after the open.
        String failure = failure("stall", "4-4", seed);
        assertTrue(failure.contains("the stress process's watchdog found a stall (exit status 5)"), failure);
        assertTrue(failure.contains("STALL: no operation completed for 2."), failure);
        assertTrue(failure.contains("StressMain.inject"), failure);
    }

    @Test
    void aStallTheProcessDoesNotReportFailsTheRoundWithAThreadDump(@Seed long seed) throws Exception {
        String failure = failure("silent_stall", "4-4", seed);
        assertTrue(failure.contains("the stress process completed no operation for 4.0 s and its watchdog did not"
                + " report it; thread dump (jcmd Thread.print -l):"), failure);
        assertTrue(failure.contains("StressMain.inject"), failure);
    }

    @Test
    void anErrorThrownByAStressThreadFailsTheRound(@Seed long seed) throws Exception {
        String failure = failure("error", "5-5", seed);
        assertTrue(failure.contains("the stress process exited with status 3"), failure);
        assertTrue(failure.contains("stress thread 0 FAILED: org.leveldbj.stress.StressWorker$InjectedError:"
                + " lock order violation (injected)"), failure);
        assertTrue(failure.contains("at org.leveldbj.stress.StressWorker.step"), failure);
    }

    @Test
    void aLockOrderViolationOnlyPrintedFailsTheRound(@Seed long seed) throws Exception {
        String failure = failure("lock_order_message", "1-1", seed);
        assertTrue(failure.contains("the stress process reported a lock order violation:"), failure);
        assertTrue(failure.contains("crashtest: injected: lock order violation (a message only)"), failure);
    }

    /** Runs one round with the fault injected and returns how it failed. */
    private String failure(String inject, String killInterval, long seed) throws Exception {
        Config config = Config.parse("--duration=1", "--threads=1", "--keys-per-thread=100",
                "--kill-interval=" + killInterval, "--kill-points=random", "--stall-timeout=2",
                "--write-buffer-size=65536", "--max-file-size=65536", "--db=" + dir, "--seed=" + seed,
                "--inject=" + inject);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Summary summary;
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            summary = new Driver(config, out).run();
        }
        String log = bytes.toString(StandardCharsets.UTF_8);
        System.out.println(log + "crashtest: FAILED in " + summary.failure);
        assertFalse(summary.ok(), log);
        assertTrue(summary.failure.startsWith("round 1 (random): "), summary.failure);
        assertTrue(summary.failure.contains("to run with the options of this round in every round:\n"
                + "  bin/crashtest --duration=1 --threads=1 --keys-per-thread=100"), summary.failure);
        assertTrue(summary.failure.contains(" --write-buffer-size=65536 "), summary.failure);
        return summary.failure;
    }
}
