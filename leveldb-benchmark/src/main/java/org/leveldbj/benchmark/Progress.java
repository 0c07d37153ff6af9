package org.leveldbj.benchmark;

import java.io.Console;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.util.Locale;

/**
 * "... finished N ops" on standard error while a workload runs. On a terminal it rewrites one
 * line at db_bench's thresholds (100, 200, ... 1000, 1500, ...); otherwise, so that logs stay
 * short, it writes a line at most every few seconds.
 */
final class Progress {
    static final long QUIET_INTERVAL_NANOS = 5_000_000_000L;

    private final PrintStream err;
    private final boolean terminal;
    private long lastPrintNanos = System.nanoTime();

    Progress(PrintStream err, boolean terminal) {
        this.err = err;
        this.terminal = terminal;
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

    /** Called by a thread that reached a threshold after {@code done} operations. */
    synchronized void finished(long done) {
        long now = System.nanoTime();
        if (terminal) {
            err.printf(Locale.ROOT, "... finished %d ops%30s\r", done, "");
            err.flush();
        } else if (now - lastPrintNanos >= QUIET_INTERVAL_NANOS) {
            err.printf(Locale.ROOT, "... finished %d ops%n", done);
            err.flush();
            lastPrintNanos = now;
        }
    }

    /** Called for a single operation slower than 20 ms, as db_bench reports them. */
    synchronized void longOp(double micros) {
        if (terminal) {
            err.printf(Locale.ROOT, "long op: %.1f micros%30s\r", micros, "");
            err.flush();
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
