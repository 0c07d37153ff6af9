package org.leveldbj.stress;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.LockInfo;
import java.lang.management.ManagementFactory;
import java.lang.management.MonitorInfo;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Collectors;

/**
 * Watches the JVM it runs in for hangs. Every {@value #PERIOD_MILLIS} ms it asks
 * {@link ThreadMXBean#findDeadlockedThreads()} for threads that wait for each other's monitors or
 * locks, and, while a stall timeout is set, checks that some operation completed within it.
 * Either finding is reported once: a report (the deadlocked threads first, then every thread,
 * each with its whole stack and the locks it holds and waits for) goes to the {@link Listener},
 * which in a stress process prints it and halts with {@link Hang#status}.
 *
 * <p>The report starts with a line beginning {@value #REPORT_START} and ends with the line
 * {@value #REPORT_END}, so the driver can cut it out of a process's output.
 *
 * <p>It also publishes the count of completed operations to a {@link Heartbeat}, when given one,
 * at every check.
 *
 * <p>Thread safety: {@link #completed} and {@link #expectProgressWithin} may be called from any
 * thread; the checks run on the watchdog's own daemon thread (or the caller of {@link #check}).
 * Lifetime: {@link #start} once, {@link #close} to stop.
 */
final class Watchdog implements AutoCloseable {
    static final long PERIOD_MILLIS = 250;
    static final String REPORT_START = "crashtest: watchdog: ";
    static final String REPORT_END = "crashtest: watchdog: end of report";

    /** What the watchdog found, with the exit status of a stress process that found it. */
    enum Hang {
        DEADLOCK(4), STALL(5);

        final int status;

        Hang(int status) {
            this.status = status;
        }

        /** The hang a stress process's exit status reports, or {@code null}. */
        static Hang ofStatus(int status) {
            for (Hang h : values()) {
                if (h.status == status) {
                    return h;
                }
            }
            return null;
        }
    }

    /** Told of the first hang found. */
    interface Listener {
        /**
         * @param hang what was found
         * @param report the report, several lines
         */
        void hung(Hang hang, String report);
    }

    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final LongAdder completed = new LongAdder();
    private final Heartbeat heartbeat;
    private final Listener listener;
    private final Thread thread;
    /** The stall timeout in nanoseconds; 0 for none. */
    private volatile long stallNanos;
    private volatile long lastCount = -1;
    private volatile long lastChange = System.nanoTime();
    private volatile boolean fired;
    private volatile boolean closed;

    /**
     * @param heartbeat where to publish the count of completed operations, or {@code null}
     * @param listener told of the first hang
     */
    Watchdog(Heartbeat heartbeat, Listener listener) {
        this.heartbeat = heartbeat;
        this.listener = listener;
        this.thread = new Thread(this::loop, "crashtest-watchdog");
        thread.setDaemon(true);
    }

    /** A listener that prints the report on {@code out} and halts the JVM with the hang's status. */
    static Listener halting(PrintStream out) {
        return (hang, report) -> {
            out.println(report);
            out.flush();
            Runtime.getRuntime().halt(hang.status);
        };
    }

    void start() {
        thread.start();
    }

    /** Counts one completed operation. */
    void completed() {
        completed.increment();
    }

    /**
     * Sets the stall timeout and starts its clock now.
     *
     * @param seconds the longest time without a completed operation; {@code 0} for no limit
     */
    void expectProgressWithin(double seconds) {
        lastChange = System.nanoTime();
        stallNanos = (long) (seconds * 1e9);
    }

    private void loop() {
        while (!closed && !fired) {
            check();
            try {
                Thread.sleep(PERIOD_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** One check: deadlocks, progress, the heartbeat. */
    void check() {
        long now = System.nanoTime();
        long count = completed.sum();
        if (count != lastCount) {
            lastCount = count;
            lastChange = now;
        }
        if (heartbeat != null) {
            try {
                heartbeat.publish(count);
            } catch (IOException e) {
                // The driver then sees no progress and reports it; nothing to add here.
            }
        }
        long[] deadlocked = threads.findDeadlockedThreads();
        if (deadlocked != null) {
            fire(Hang.DEADLOCK, deadlocked, null);
            return;
        }
        long stall = stallNanos;
        if (stall > 0 && now - lastChange > stall) {
            fire(Hang.STALL, new long[0], String.format(Locale.ROOT,
                    "no operation completed for %.1f s (%,d completed before)", (now - lastChange) / 1e9, count));
        }
    }

    private void fire(Hang hang, long[] first, String why) {
        if (fired) {
            return;
        }
        fired = true;
        ThreadInfo[] all = threads.dumpAllThreads(threads.isObjectMonitorUsageSupported(),
                threads.isSynchronizerUsageSupported());
        List<ThreadInfo> named = new ArrayList<>();
        List<ThreadInfo> others = new ArrayList<>();
        for (ThreadInfo t : all) {
            if (t == null) {
                continue;
            }
            boolean isFirst = Arrays.stream(first).anyMatch(id -> id == t.getThreadId());
            (isFirst ? named : others).add(t);
        }
        StringBuilder b = new StringBuilder();
        if (hang == Hang.DEADLOCK) {
            b.append(REPORT_START).append("DEADLOCK: threads ")
                    .append(named.stream().map(t -> '"' + t.getThreadName() + '"').collect(Collectors.joining(", ")))
                    .append(" wait for each other's locks\n");
            for (ThreadInfo t : named) {
                format(t, b);
            }
            b.append(REPORT_START).append("the other threads:\n");
        } else {
            b.append(REPORT_START).append("STALL: ").append(why).append("; every thread:\n");
        }
        for (ThreadInfo t : others) {
            format(t, b);
        }
        b.append(REPORT_END);
        listener.hung(hang, b.toString());
    }

    /** One thread as {@code jstack -l} shows it: state, whole stack, locks held and awaited. */
    static void format(ThreadInfo t, StringBuilder b) {
        b.append('"').append(t.getThreadName()).append("\" #").append(t.getThreadId())
                .append(t.isDaemon() ? " daemon " : " ").append(t.getThreadState()).append('\n');
        StackTraceElement[] stack = t.getStackTrace();
        MonitorInfo[] monitors = t.getLockedMonitors();
        for (int depth = 0; depth < stack.length; depth++) {
            b.append("    at ").append(stack[depth]).append('\n');
            if (depth == 0 && t.getLockInfo() != null) {
                String verb = switch (t.getThreadState()) {
                    case BLOCKED -> "waiting to lock ";
                    default -> "waiting on ";
                };
                b.append("    - ").append(verb).append(t.getLockInfo());
                if (t.getLockOwnerName() != null) {
                    b.append(" owned by \"").append(t.getLockOwnerName()).append("\" #").append(t.getLockOwnerId());
                }
                b.append('\n');
            }
            for (MonitorInfo m : monitors) {
                if (m.getLockedStackDepth() == depth) {
                    b.append("    - locked ").append(m).append('\n');
                }
            }
        }
        LockInfo[] synchronizers = t.getLockedSynchronizers();
        if (synchronizers.length > 0) {
            b.append("    locked synchronizers: ").append(Arrays.toString(synchronizers)).append('\n');
        }
        b.append('\n');
    }

    @Override
    public void close() {
        closed = true;
        thread.interrupt();
    }
}
