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

class CompareTailsTest {
    private static List<String> run(double readP999, double rss) {
        return List.of(
                "------------------------------------------------",
                ReportLine.format("fillrandom", 2.0, 40.0, ""),
                "Microseconds per op:",
                "Count: 10  Average: 2.0000  StdDev: 0.50",
                "Percentiles: P50: 1.00 P99: 3.00 P99.9: 4.00 P99.99: 5.00 Max: 6.00",
                "",
                "memory: rss=" + rss + " MB hwm=300.0 MB heap=20.5 MB",
                ReportLine.format("readrandomwriterandom", 3.0, 10.0, "( reads:1 writes:9 found:1 )"),
                "Microseconds per read:",
                "Percentiles: P50: 1.50 P99: 2.50 P99.9: " + readP999 + " P99.99: 9.00 Max: 10.00",
                "",
                "Microseconds per write:",
                "Percentiles: P50: 0.50 P99: 1.50 P99.9: 2.00 P99.99: 2.50 Max: 3.00",
                "disk: db_size=12.5 MB",
                ReportLine.format("compact", 5000.0, -1, ""),
                "Microseconds per op:",
                "Percentiles: P50: 0.00 P99: 0.00 P99.9: 0.00 P99.99: 0.00 Max: 0.00",
                ReportLine.format("fillrandom", 2.0, 40.0, ""),
                "memory: rss=1.0 MB");
    }

    @Test
    void percentilesBelongToTheirHeadingAndMemoryToTheLastResult() {
        Map<String, Map<String, Double>> values = CompareTails.parse(run(8.0, 200.0));
        assertEquals(List.of("fillrandom", "readrandomwriterandom", "compact", "fillrandom (2)"),
                List.copyOf(values.keySet()));
        assertEquals(4.0, values.get("fillrandom").get("op P99.9"));
        assertEquals(200.0, values.get("fillrandom").get("rss"));
        assertEquals(20.5, values.get("fillrandom").get("heap"));
        assertEquals(8.0, values.get("readrandomwriterandom").get("read P99.9"));
        assertEquals(3.0, values.get("readrandomwriterandom").get("write Max"));
        assertEquals(12.5, values.get("readrandomwriterandom").get("db_size"));
        assertEquals(Map.of("rss", 1.0), values.get("fillrandom (2)"));
    }

    @Test
    void tablesHoldMediansAndRatios(@TempDir Path dir) throws Exception {
        Path[] ours = {dir.resolve("o1"), dir.resolve("o2"), dir.resolve("o3")};
        double[] p999 = {8.0, 2.0, 6.0};
        for (int i = 0; i < 3; i++) {
            Files.write(ours[i], run(p999[i], 100.0 * (i + 1)), StandardCharsets.UTF_8);
        }
        Path cpp = dir.resolve("c1");
        Files.write(cpp, List.of(ReportLine.format("readrandomwriterandom", 3.0, 10.0, ""),
                "Microseconds per read:",
                "Percentiles: P50: 1.00 P99: 2.00 P99.9: 3.00 P99.99: 4.00 Max: 5.00",
                "memory: rss=10.0 MB hwm=11.0 MB"), StandardCharsets.UTF_8);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int code = CompareTails.run(new String[] {dir.resolve("out").toString(), "--ours",
                ours[0].toString(), ours[1].toString(), ours[2].toString(), "--cpp", cpp.toString()},
                new PrintStream(out, true, StandardCharsets.UTF_8), System.err);
        assertEquals(0, code);
        String latency = Files.readString(dir.resolve("out/latency.md"));
        // median read P99.9 of ours is 6.00 against 3.00: ratio 2.00; max 10 against 5: 2.00
        assertTrue(latency.contains("| readrandomwriterandom | read | 1.50 / 1.00 | 2.50 / 2.00 | 6.00 / 3.00"
                + " | 9.00 / 4.00 | 10.00 / 5.00 | 2.00 | 2.00 |"), latency);
        assertTrue(latency.contains("| readrandomwriterandom | write | 0.50 / - |"), latency);
        assertTrue(!latency.contains("| compact |"), latency); // no operation timed
        String memory = Files.readString(dir.resolve("out/memory.md"));
        assertTrue(memory.contains("| workload | rss | hwm | heap | db_size |"), memory);
        assertTrue(memory.contains("| fillrandom | 200 / - | 300 / - | 20.50 / - | - / - |"), memory);
        assertTrue(memory.contains("| readrandomwriterandom | - / 10.00 | - / 11.00 | - / - | 12.50 / - |"), memory);
        assertTrue(out.toString(StandardCharsets.UTF_8).contains(latency), out.toString(StandardCharsets.UTF_8));
    }

    @Test
    void argumentsOutOfOrderAreAUsageError(@TempDir Path dir) {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream errors = new PrintStream(err, true, StandardCharsets.UTF_8);
        assertEquals(2, CompareTails.run(new String[0], System.out, errors));
        assertEquals(2, CompareTails.run(new String[] {dir.toString(), "file"}, System.out, errors));
        assertEquals(2, CompareResults.run(new String[] {dir.toString(), "file"}, System.out, errors));
        String text = err.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("usage: CompareTails OUT_DIR --ours FILE... --cpp FILE..."), text);
        assertTrue(text.contains("CompareTails: file before --ours or --cpp"), text);
        assertTrue(text.contains("CompareResults: file before --ours or --cpp"), text);
    }
}
