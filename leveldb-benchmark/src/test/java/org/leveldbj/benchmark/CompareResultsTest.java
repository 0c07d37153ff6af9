package org.leveldbj.benchmark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CompareResultsTest {
    private static final List<String> RUN = List.of(
            "Impl:       leveldbj",
            "Options:    compression=snappy write_buffer_size=4194304",
            "------------------------------------------------",
            ReportLine.format("fillseq", 2.5, 40.0, ""),
            ReportLine.format("readrandom", 4.0, -1, "(10 of 10 found)"),
            ReportLine.skipped("readreverse", "cannot iterate backwards"),
            ReportLine.format("compact", 18853.777, -1, ""),
            ReportLine.format("readrandom", 3.0, -1, "(10 of 10 found)"),
            "Microseconds per op:",
            "Count: 10  Average: 3.0000  StdDev: 0.50");

    @Test
    void parsesResultLinesByWorkloadAndOccurrence() {
        Map<String, Double> results = CompareResults.parse(RUN);
        assertEquals(List.of("fillseq", "readrandom", "compact", "readrandom (2)"),
                List.copyOf(results.keySet()));
        assertEquals(2.5, results.get("fillseq"));
        assertEquals(18853.777, results.get("compact"));
        assertEquals(3.0, results.get("readrandom (2)"));
    }

    @Test
    void mediansOfOddAndEvenCounts() {
        assertEquals(2.0, CompareResults.median(List.of(3.0, 1.0, 2.0)));
        assertEquals(2.5, CompareResults.median(List.of(3.0, 2.0)));
        assertTrue(Double.isNaN(CompareResults.median(List.of())));
    }

    @Test
    void tableOfMediansAndRatios() {
        List<String> cpp = List.of(ReportLine.format("fillseq", 1.0, 50.0, ""),
                ReportLine.format("readrandom", 2.0, -1, "(10 of 10 found)"),
                ReportLine.format("readreverse", 1.0, 10.0, ""));
        List<String> cppSlower = List.of(ReportLine.format("fillseq", 3.0, 50.0, ""));
        List<CompareResults.Row> rows =
                CompareResults.table(List.of(RUN, RUN), List.of(cpp, cppSlower));
        assertEquals("fillseq", rows.get(0).workload());
        assertEquals(2.5, rows.get(0).ours());
        assertEquals(2.0, rows.get(0).cpp());
        assertEquals(1.25, rows.get(0).ratio(), 1e-9);
        String csv = CompareResults.csv(rows);
        assertTrue(csv.startsWith(CompareResults.CSV_HEADER + "\nfillseq,2.500,2.000,1.250\n"),
                csv);
        assertTrue(csv.contains("\ncompact,18853.777,,\n"), csv);
        assertTrue(csv.endsWith("\nreadreverse,,1.000,\n"), csv);
        String text = CompareResults.text(rows);
        assertTrue(text.contains("readreverse"), text);
        assertTrue(CompareResults.markdown(rows, 2, 2).contains("| fillseq | 2.500 | 2.000 | 1.25 |"));
    }

    @Test
    void writesCsvAndMarkdown(@TempDir Path dir) throws Exception {
        Path ours = dir.resolve("ours.txt");
        Path cpp = dir.resolve("cpp.txt");
        Files.write(ours, RUN, StandardCharsets.UTF_8);
        Files.write(cpp, List.of(ReportLine.format("fillseq", 1.0, 50.0, "")),
                StandardCharsets.UTF_8);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = CompareResults.run(new String[] {dir.resolve("out").toString(), "--ours",
                ours.toString(), "--cpp", cpp.toString()},
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(0, code, err.toString(StandardCharsets.UTF_8));
        assertTrue(Files.readString(dir.resolve("out/compare.csv"))
                .contains("fillseq,2.500,1.000,2.500"));
        assertTrue(Files.exists(dir.resolve("out/compare.md")));
        assertTrue(out.toString(StandardCharsets.UTF_8).startsWith("workload"));
    }
}
