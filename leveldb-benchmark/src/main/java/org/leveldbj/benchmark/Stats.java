package org.leveldbj.benchmark;

/**
 * What one thread measured during a workload: operations, bytes, elapsed time, an optional
 * latency histogram and a message. Threads' stats are merged as db_bench merges them: the time
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

    private final Progress.Counter progress;
    private final Histogram histogram;
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

    Stats(Progress.Counter progress, boolean histogram) {
        this.progress = progress;
        this.histogram = histogram ? new Histogram() : null;
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
        if (histogram != null) {
            long now = System.nanoTime();
            double micros = (now - lastOpNanos) / 1000.0;
            histogram.add(micros);
            if (micros > LONG_OP_MICROS) {
                progress.longOp(micros);
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

    void addBytes(long n) {
        bytes += n;
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

    void merge(Stats other) {
        if (histogram != null && other.histogram != null) {
            histogram.merge(other.histogram);
        }
        done += other.done;
        bytes += other.bytes;
        elapsedNanos += other.elapsedNanos;
        startNanos = Math.min(startNanos, other.startNanos);
        finishNanos = Math.max(finishNanos, other.finishNanos);
        if (message.isEmpty()) {
            message = other.message;
        }
    }

    /**
     * The result line, followed by the histogram when one was kept (its text ends with a line
     * break, so that printing the report with println leaves one empty line, as db_bench does).
     */
    String report(String name) {
        long ops = Math.max(1, done);
        double microsPerOp = elapsedNanos / 1000.0 / ops;
        double rate = -1;
        if (bytes > 0) {
            double seconds = Math.max(1, finishNanos - startNanos) * 1e-9;
            rate = bytes / 1048576.0 / seconds;
        }
        String line = ReportLine.format(name, microsPerOp, rate, message);
        if (histogram == null) {
            return line;
        }
        return line + "\nMicroseconds per op:\n" + histogram;
    }
}
