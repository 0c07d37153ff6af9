package org.leveldbj.benchmark;

/**
 * What one thread measured during a workload: operations, bytes, elapsed time, optional latency
 * histograms (one per {@link Kind} of operation the workload makes) and a message. Threads' stats are merged as db_bench merges them: the time
 * per operation is the sum of the threads' times over the sum of their operations, the rate is
 * the bytes over the wall-clock time from the first start to the last finish.
 *
 * <p>The thread counts its operations here and adds them to the workload's progress counter,
 * which all its threads share, every {@link #REPORT_STEP} operations and when it stops.
 *
 * <p>Thread safety: confined to its thread until the workload's threads have been joined.
 */
final class Stats {
    private static final double LONG_OP_MICROS = 20000;
    /**
     * Operations between two additions to the progress counter: a divisor of every threshold
     * ({@link Progress#nextThreshold}), so that with one thread the sum meets each threshold
     * exactly, as db_bench's count does.
     */
    static final int REPORT_STEP = 100;

    /**
     * The kinds of operation whose latencies are kept apart, in the order their histograms
     * print: a workload that mixes reads and writes records each as such, any other its
     * operations as {@link #OP}.
     */
    enum Kind {
        READ, WRITE, OP;

        /** The word of the histogram's heading ("Microseconds per read:"). */
        String word() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    private final Progress.Counter progress;
    /** The histograms by {@link Kind#ordinal()}, created at first use; {@code null} without histograms. */
    private final Histogram[] histograms;
    private long startNanos;
    private long finishNanos;
    private long elapsedNanos;
    private long lastOpNanos;
    private long done;
    /** The value of {@link #done} at which the operations since {@link #reported} go to the counter. */
    private long nextReport;
    private long reported;
    private long bytes;
    private String message = "";
    /** A mixed workload's counts, summed when threads merge; {@code mixed} once any were added. */
    private boolean mixed;
    private long reads;
    private long writes;
    private long found;

    /** Operations at least this long are reported to standard error; 0 for none ({@code --slow_op_micros}). */
    private final long slowOpNanos;

    Stats(Progress.Counter progress, boolean histogram) {
        this(progress, histogram, 0);
    }

    /**
     * @param slowOpMicros report every operation of at least this many microseconds to standard
     *     error, with when it ended (milliseconds since the JVM started, as GC logs and JFR
     *     recordings time their events); 0 for none. Needs {@code histogram}.
     */
    Stats(Progress.Counter progress, boolean histogram, long slowOpMicros) {
        this.progress = progress;
        this.histograms = histogram ? new Histogram[Kind.values().length] : null;
        this.slowOpNanos = slowOpMicros * 1000;
        start();
    }

    void start() {
        startNanos = System.nanoTime();
        finishNanos = startNanos;
        lastOpNanos = startNanos;
        elapsedNanos = 0;
        done = 0;
        reported = 0;
        nextReport = REPORT_STEP;
        bytes = 0;
        message = "";
        mixed = false;
        reads = 0;
        writes = 0;
        found = 0;
    }

    void stop() {
        finishNanos = System.nanoTime();
        elapsedNanos = finishNanos - startNanos;
        if (done > reported) {
            progress.add(done - reported);
            reported = done;
        }
    }

    void finishedSingleOp() {
        finishedSingleOp(Kind.OP);
    }

    /** Counts an operation of the given kind, timed from the end of the thread's previous one. */
    void finishedSingleOp(Kind kind) {
        if (histograms != null) {
            long now = System.nanoTime();
            long nanos = now - lastOpNanos;
            Histogram h = histograms[kind.ordinal()];
            if (h == null) {
                h = histograms[kind.ordinal()] = new Histogram();
            }
            h.add(nanos);
            if (nanos > LONG_OP_MICROS * 1000) {
                progress.longOp(nanos / 1000.0);
            }
            if (slowOpNanos > 0 && nanos >= slowOpNanos) {
                reportSlowOp(kind, nanos);
            }
            lastOpNanos = now;
        }
        done++;
        if (done == nextReport) {
            progress.add(REPORT_STEP);
            reported = done;
            nextReport += REPORT_STEP;
        }
    }

    private static void reportSlowOp(Kind kind, long nanos) {
        long uptime = java.lang.management.ManagementFactory.getRuntimeMXBean().getUptime();
        System.err.printf(java.util.Locale.ROOT, "slow %s: %.1f micros, ended at %d ms of uptime (%s)%n",
                kind.word(), nanos / 1000.0, uptime, Thread.currentThread().getName());
    }

    void addBytes(long n) {
        bytes += n;
    }

    /**
     * Adds a mixed workload's counts, which the line reports summed over the threads as
     * {@code ( reads:R writes:W found:F )}.
     */
    void addCounts(long readCount, long writeCount, long foundCount) {
        mixed = true;
        reads += readCount;
        writes += writeCount;
        found += foundCount;
    }

    void addMessage(String text) {
        if (text.isEmpty()) {
            return;
        }
        message = message.isEmpty() ? text : message + " " + text;
    }

    long done() {
        return done;
    }

    /**
     * Whether more than {@code nanos} have passed since {@link #start()}.
     *
     * @param nanos the duration; 0 or less for none, which never passes
     * @return whether the duration has passed
     */
    boolean pastDuration(long nanos) {
        return nanos > 0 && System.nanoTime() - startNanos > nanos;
    }

    /** Adds another thread's latencies to this one's, and nothing else of it. */
    void mergeLatencies(Stats other) {
        if (histograms == null || other.histograms == null) {
            return;
        }
        for (int k = 0; k < histograms.length; k++) {
            Histogram theirs = other.histograms[k];
            if (theirs == null) {
                continue;
            }
            if (histograms[k] == null) {
                histograms[k] = new Histogram();
            }
            histograms[k].merge(theirs);
        }
    }

    void merge(Stats other) {
        mergeLatencies(other);
        done += other.done;
        bytes += other.bytes;
        elapsedNanos += other.elapsedNanos;
        startNanos = Math.min(startNanos, other.startNanos);
        finishNanos = Math.max(finishNanos, other.finishNanos);
        if (message.isEmpty()) {
            message = other.message;
        }
        mixed |= other.mixed;
        reads += other.reads;
        writes += other.writes;
        found += other.found;
    }

    /**
     * The result line, followed by each kind's histogram when they were kept, headed
     * {@code Microseconds per op:} (or {@code read:}, {@code write:}); a histogram's text ends with a line
     * break, so that printing the report with println leaves one empty line, as db_bench does.
     */
    String report(String name) {
        long ops = Math.max(1, done);
        double microsPerOp = elapsedNanos / 1000.0 / ops;
        double rate = -1;
        if (bytes > 0) {
            double seconds = Math.max(1, finishNanos - startNanos) * 1e-9;
            rate = bytes / 1048576.0 / seconds;
        }
        String text = message;
        if (mixed) {
            String counts = "( reads:" + reads + " writes:" + writes + " found:" + found + " )";
            text = text.isEmpty() ? counts : counts + " " + text;
        }
        String line = ReportLine.format(name, microsPerOp, rate, text);
        if (histograms == null) {
            return line;
        }
        StringBuilder report = new StringBuilder(line);
        for (Kind kind : Kind.values()) {
            Histogram h = histograms[kind.ordinal()];
            if (h != null || (kind == Kind.OP && report.length() == line.length())) {
                report.append("\nMicroseconds per ").append(kind.word()).append(":\n")
                        .append(h == null ? new Histogram() : h);
            }
        }
        return report.toString();
    }
}
