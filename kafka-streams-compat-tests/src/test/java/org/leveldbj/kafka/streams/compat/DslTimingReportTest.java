package org.leveldbj.kafka.streams.compat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link DslTimingReport} on hand-written run outputs: medians, spreads, ratios, failures, store checks. */
class DslTimingReportTest {
    private static final String P = DslTestTiming.DEFAULT_PACKAGE + ".";

    @TempDir
    Path dir;

    private DslTimingReport.Run run(String name, long aMillis, long bMillis, String supplied, String... failures)
            throws IOException {
        List<String> lines = new ArrayList<>();
        lines.add("some test's own output");
        lines.add("class\t" + P + "ATest\t3\t" + failures.length + "\t0\t" + aMillis + "\t" + (supplied.equals("-") ? "-" : "4"));
        lines.add("class\t" + P + "sub.BTest\t2\t0\t1\t" + bMillis + "\t" + (supplied.equals("-") ? "-" : "0"));
        for (String f : failures) {
            lines.add("failure\t" + P + "ATest\t" + f + "\tjava.lang.AssertionError: expected: <1> but was: <2>");
        }
        lines.add("total\t2\t5\t" + failures.length + "\t1\t" + (aMillis + bMillis + 100));
        lines.add("stores\t" + (supplied.equals("-") ? "/m2/kafka-streams-4.3.1.jar" : "/x/dsl-standin/") + "\t" + supplied);
        Path file = dir.resolve(name);
        Files.write(file, lines);
        return DslTimingReport.Run.read(file);
    }

    @Test
    void mediansSpreadsRatiosAndFailures() throws IOException {
        List<DslTimingReport.Run> ours = List.of(run("o1", 1000, 400, "7", "t1()"), run("o2", 3000, 500, "7", "t1()"),
                run("o3", 2000, 600, "7"));
        List<DslTimingReport.Run> rocks = List.of(run("r1", 4000, 250, "-"), run("r2", 4000, 250, "-", "t2()"),
                run("r3", 4000, 250, "-"));
        List<String> report = DslTimingReport.report(ours, rocks);
        String text = String.join("\n", report);
        // ATest: ours 1, 2, 3 s -> 2.0 (1.0-3.0); RocksDB 4.0; ratio 0.50
        assertTrue(report.stream().anyMatch(l -> l.matches("ATest +3 +4 .*") && l.contains("2.0 (1.0-3.0)")
                && l.contains("4.0 (4.0-4.0)") && l.endsWith("0.50")), text);
        // sub.BTest: 0.5 against 0.25: 2.00
        assertTrue(report.stream().anyMatch(l -> l.matches("sub.BTest +2 +0 .*") && l.endsWith("2.00")), text);
        // packages: each class in its own; total from the total lines: ours 1.5, 3.6, 2.7 s; RocksDB 4.35
        assertTrue(report.stream().anyMatch(l -> l.startsWith(P + "sub ")), text);
        assertTrue(report.stream().anyMatch(l -> l.startsWith("total (whole run)") && l.contains("2.7 (1.5-3.6)")
                && l.endsWith("0.62")), text);
        assertTrue(text.contains("OURS ONLY    ours 2/3, rocksdb 0/3  ATest#t1(): java.lang.AssertionError"), text);
        assertTrue(text.contains("ROCKSDB ONLY ours 0/3, rocksdb 1/3  ATest#t2()"), text);
        assertEquals(List.of(), DslTimingReport.checkStores(ours, rocks));
    }

    @Test
    void aRunOnTheWrongStoresIsReported() throws IOException {
        DslTimingReport.Run standIn = run("s", 1, 1, "3");
        DslTimingReport.Run kafka = run("k", 1, 1, "-");
        DslTimingReport.Run unused = run("u", 1, 1, "0");
        assertEquals(2, DslTimingReport.checkStores(List.of(kafka), List.of(standIn)).size());
        assertEquals(1, DslTimingReport.checkStores(List.of(unused), List.of(kafka)).size());
    }

    @Test
    void anIncompleteRunIsRejected() throws IOException {
        Path file = dir.resolve("cut");
        Files.write(file, List.of("class\t" + P + "ATest\t3\t0\t0\t10"));
        assertThrows(IllegalArgumentException.class, () -> DslTimingReport.Run.read(file));
    }
}
