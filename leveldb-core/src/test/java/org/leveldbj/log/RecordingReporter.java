package org.leveldbj.log;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/** A {@link LogReader.Reporter} that remembers every report. Test helper. */
final class RecordingReporter implements LogReader.Reporter {
    /** One report: where the dropped bytes start, how many, and why. */
    record Report(long offset, long bytes, String reason) {
    }

    final List<Report> reports = new ArrayList<>();

    @Override
    public void corruption(long bytes, String reason) {
        throw new AssertionError("the reader must call the form with an offset");
    }

    @Override
    public void corruption(long offset, long bytes, String reason) {
        reports.add(new Report(offset, bytes, reason));
    }

    long droppedBytes() {
        return reports.stream().mapToLong(Report::bytes).sum();
    }

    String reasons() {
        return reports.stream().map(Report::reason).collect(Collectors.joining("; "));
    }
}
