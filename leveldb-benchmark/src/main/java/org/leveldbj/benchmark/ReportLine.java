package org.leveldbj.benchmark;

import java.util.Locale;

/** The one-line result of a workload, in db_bench's layout. */
final class ReportLine {
    private ReportLine() {
    }

    /**
     * {@code name : micros micros/op;[ rate MB/s][ message]}, the name left-aligned in 12
     * columns, the time as {@code %11.3f}, the rate as {@code %6.1f}.
     * @param mbPerSecond the rate, or a negative number when no bytes were counted
     * @param message extra text such as "(1000 of 1000 found)", or empty
     */
    static String format(String name, double microsPerOp, double mbPerSecond, String message) {
        StringBuilder extra = new StringBuilder();
        if (mbPerSecond >= 0) {
            extra.append(String.format(Locale.ROOT, "%6.1f MB/s", mbPerSecond));
        }
        if (!message.isEmpty()) {
            if (extra.length() > 0) {
                extra.append(' ');
            }
            extra.append(message);
        }
        return String.format(Locale.ROOT, "%-12s : %11.3f micros/op;%s%s", name, microsPerOp,
                extra.length() == 0 ? "" : " ", extra);
    }

    /** The line of a workload that did not run, e.g. {@code fillseq : skipped (why)}. */
    static String skipped(String name, String why) {
        return String.format(Locale.ROOT, "%-12s : skipped (%s)", name, why);
    }
}
