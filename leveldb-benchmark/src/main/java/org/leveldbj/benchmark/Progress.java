package org.leveldbj.benchmark;

import java.io.Console;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * What the runner reports on standard error while a workload runs: {@code ... fillrandom:
 * finished 300000 ops} (during the warm-up, {@code ... warm-up fillrandom: ...}). On a terminal
 * it rewrites one line at db_bench's thresholds (100, 200, ... 1000, 1500, ...); otherwise, so
 * that logs stay short, it writes a line at most every few seconds.
 *
 * <p>A workload's count is the sum over all its threads ({@link Counter}): each thread adds its
 * operations in steps, and the counter reports each threshold the sum passes once, under this
 * object's lock, so a workload's lines come out in increasing order. (db_bench reports each
 * thread's own count, so that with several threads the numbers of different threads interleave.)
 *
 * <p>Thread safety: every method may be called by any thread; lines are written under this
 * object's lock.
 */
final class Progress {
    static final long QUIET_INTERVAL_NANOS = 5_000_000_000L;
    /** Spaces written after a line rewritten in place, as db_bench pads its lines. */
    private static final String PAD = " ".repeat(30);

    private final PrintStream err;
    private final boolean terminal;
    private final LongSupplier clock;
    /** Guarded by this: when the last line was written without a terminal. */
    private long lastPrintNanos;
    /** Guarded by this: the length of the line standing in place on the terminal, or 0. */
    private int standing;

    Progress(PrintStream err, boolean terminal) {
        this(err, terminal, System::nanoTime);
    }

    /**
     * @param err where the lines go
     * @param terminal whether to rewrite one line in place at every threshold
     * @param clock nanoseconds, for the interval between lines without a terminal
     */
    Progress(PrintStream err, boolean terminal, LongSupplier clock) {
        this.err = err;
        this.terminal = terminal;
        this.clock = clock;
        this.lastPrintNanos = clock.getAsLong();
    }

    /** Reporting to {@code System.err}, rewriting in place when the console is a terminal. */
    static Progress toStandardError() {
        return new Progress(System.err, isTerminal());
    }

    /** Reporting nothing at all. */
    static Progress silent() {
        return new Progress(new PrintStream(OutputStream.nullOutputStream()), false);
    }

    /** The threshold after {@code current}, as db_bench spaces them. */
    static long nextThreshold(long current) {
        if (current < 1000) {
            return current + 100;
        } else if (current < 5000) {
            return current + 500;
        } else if (current < 10000) {
            return current + 1000;
        } else if (current < 50000) {
            return current + 5000;
        } else if (current < 100000) {
            return current + 10000;
        } else if (current < 500000) {
            return current + 50000;
        }
        return current + 100000;
    }

    /**
     * Starts counting the operations of one workload.
     *
     * @param label what the lines call the workload, e.g. {@code fillrandom} or
     *     {@code warm-up fillrandom}
     * @return the counter its threads add to
     */
    Counter start(String label) {
        return new Counter(label);
    }

    /**
     * Says what the run is doing, e.g. waiting between two workloads: in place on a terminal,
     * otherwise only when the last line is a few seconds old.
     *
     * @param text the line, without a line break
     */
    synchronized void status(String text) {
        long now = clock.getAsLong();
        if (terminal) {
            err.print("\r" + text + PAD + "\r");
            standing = text.length() + PAD.length();
            err.flush();
        } else if (now - lastPrintNanos >= QUIET_INTERVAL_NANOS) {
            err.println(text);
            err.flush();
            lastPrintNanos = now;
        }
    }

    /**
     * Blanks the line standing in place on a terminal, so that what is printed next (on this
     * stream or on standard output, which shares the terminal) starts on an empty line.
     */
    synchronized void clear() {
        if (standing > 0) {
            err.print("\r" + " ".repeat(standing) + "\r");
            err.flush();
            standing = 0;
        }
    }

    /**
     * One workload's operations, summed over its threads. Each thread adds what it finished
     * since its last call ({@link Stats} does so every {@link Stats#REPORT_STEP} operations and at
     * the end); the counter reports each threshold the sum passes once, in order.
     *
     * <p>Thread safety: {@link #add} may be called by any thread; it runs under the lock of
     * the {@link Progress} that made the counter.
     */
    final class Counter {
        private final String label;
        /** Guarded by Progress.this. */
        private long done;
        /** Guarded by Progress.this. */
        private long nextReport = 100;

        private Counter(String label) {
            this.label = label;
        }

        /** @return what the lines call the workload */
        String label() {
            return label;
        }

        /**
         * Adds operations one thread finished; reports the sum when it reached the next
         * threshold.
         *
         * @param ops the operations finished since this thread's last call
         */
        void add(long ops) {
            synchronized (Progress.this) {
                done += ops;
                if (done < nextReport) {
                    return;
                }
                while (nextReport <= done) {
                    nextReport = nextThreshold(nextReport);
                }
                status(String.format(Locale.ROOT, "... %s: finished %d ops", label, done));
            }
        }

        /**
         * Reports a single operation slower than 20 ms, as db_bench does (on a terminal only).
         *
         * @param micros how long it took
         */
        void longOp(double micros) {
            synchronized (Progress.this) {
                if (terminal) {
                    status(String.format(Locale.ROOT, "... %s: long op: %.1f micros", label, micros));
                }
            }
        }

        /** @return the operations added so far, by all threads */
        long done() {
            synchronized (Progress.this) {
                return done;
            }
        }
    }

    private static boolean isTerminal() {
        Console console = System.console();
        if (console == null) {
            return false;
        }
        try {
            // Console.isTerminal() exists from JDK 22 on, where System.console() is no longer
            // null when the streams are redirected.
            Method method = Console.class.getMethod("isTerminal");
            return (Boolean) method.invoke(console);
        } catch (ReflectiveOperationException e) {
            return true;
        }
    }
}
