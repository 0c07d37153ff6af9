package org.leveldbj.benchmark;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.util.function.LongSupplier;

/**
 * Waits after the warm-up until the JIT compilers have gone quiet, so that the measured run
 * does not share the processors with compilations the warm-up queued.
 *
 * <p>Why: on a machine with two processors, the warm-up of a short workload (fill100K alone:
 * about a second) queues more C2 work than the one C2 thread finishes in that time. JFR's
 * {@code jdk.Compilation} events of such a run showed 315 compilations, 344 ms of compiler
 * time, inside the measured 0.74 s, among them {@code MemTable.add} and the compaction's merge
 * and block decoding, which the warm-up had made hot but the queue had not reached yet.
 *
 * <p>Quiet means that the JVM's total compilation time ({@link CompilationMXBean}) did not grow
 * for {@link #QUIET_POLLS} polls in a row, {@link #POLL_MILLIS} ms apart; the wait is capped at
 * {@link #MAX_POLLS} polls, since a JVM may keep compiling a little for ever. A JVM that does
 * not report compilation time is not waited for.
 */
final class JitSettle {
    static final int POLL_MILLIS = 50;
    static final int QUIET_POLLS = 4;
    static final int MAX_POLLS = 200;

    private JitSettle() {
    }

    /** Sleeps between two polls; a test's sleeper records instead. */
    interface Sleeper {
        void sleep(int millis) throws InterruptedException;
    }

    /**
     * Waits until this JVM's compilers are quiet or ten seconds have passed.
     *
     * @return the milliseconds waited
     */
    static long await() throws InterruptedException {
        CompilationMXBean compiler = ManagementFactory.getCompilationMXBean();
        if (compiler == null || !compiler.isCompilationTimeMonitoringSupported()) {
            return 0;
        }
        return await(compiler::getTotalCompilationTime, Thread::sleep, POLL_MILLIS, QUIET_POLLS, MAX_POLLS);
    }

    /**
     * Polls {@code compileMillis} every {@code pollMillis} until it stayed the same
     * {@code quietPolls} times in a row, or {@code maxPolls} polls were made.
     *
     * @return the milliseconds slept
     */
    static long await(LongSupplier compileMillis, Sleeper sleeper, int pollMillis, int quietPolls, int maxPolls)
            throws InterruptedException {
        long last = compileMillis.getAsLong();
        int unchanged = 0;
        long slept = 0;
        for (int poll = 0; poll < maxPolls && unchanged < quietPolls; poll++) {
            sleeper.sleep(pollMillis);
            slept += pollMillis;
            long now = compileMillis.getAsLong();
            unchanged = now == last ? unchanged + 1 : 0;
            last = now;
        }
        return slept;
    }
}
