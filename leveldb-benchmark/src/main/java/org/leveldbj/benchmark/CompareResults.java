package org.leveldbj.benchmark;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The side-by-side table of bin/compare: reads the outputs of several runs of our runner and
 * of the C++ one, takes each workload's median time per operation on either side and their
 * ratio (ours over C++: below 1 we are faster), prints the table and writes it as CSV and
 * Markdown.
 * <p>A workload listed more than once in {@code --benchmarks} is told apart by its occurrence:
 * {@code readrandom}, {@code readrandom (2)}, ...
 * <p>Usage: {@code CompareResults OUT_DIR --ours FILE... --cpp FILE...}; exit code 2 on bad
 * arguments, 1 when no result line was found.
 */
public final class CompareResults {
    /** A result line: {@code name : 1.234 micros/op;...}; skipped workloads do not match. */
    private static final Pattern RESULT =
            Pattern.compile("^(\\S+)\\s+:\\s+([0-9]+(?:\\.[0-9]+)?) micros/op;.*$");

    static final String CSV_HEADER = "workload,ours_micros_per_op,cpp_micros_per_op,ratio";

    /** One row of the table; a side without a measurement has {@code NaN}. */
    record Row(String workload, double ours, double cpp) {
        double ratio() {
            return ours / cpp;
        }
    }

    private CompareResults() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        try {
            RunOutputs runs = RunOutputs.parse("CompareResults", args);
            List<List<String>> oursRuns = runs.ours();
            List<List<String>> cppRuns = runs.cpp();
            List<Row> rows = table(oursRuns, cppRuns);
            if (rows.isEmpty()) {
                err.println("CompareResults: no result lines in the runs' outputs");
                return 1;
            }
            Path dir = runs.outDir();
            Files.createDirectories(dir);
            Files.writeString(dir.resolve("compare.csv"), csv(rows), StandardCharsets.UTF_8);
            Files.writeString(dir.resolve("compare.md"), markdown(rows, oursRuns.size(),
                    cppRuns.size()), StandardCharsets.UTF_8);
            out.print(text(rows));
            return 0;
        } catch (RunOutputs.UsageException e) {
            err.println(e.getMessage());
            return 2;
        } catch (IOException e) {
            err.println("CompareResults: " + e);
            return 1;
        }
    }

    /**
     * The measurements of one run's output, in order, keyed by workload and occurrence
     * ({@code readrandom}, {@code readrandom (2)}, ...).
     */
    static Map<String, Double> parse(List<String> lines) {
        Map<String, Double> results = new LinkedHashMap<>();
        Map<String, Integer> seen = new LinkedHashMap<>();
        for (String line : lines) {
            Matcher m = RESULT.matcher(line.strip());
            if (!m.matches()) {
                continue;
            }
            String name = m.group(1);
            int occurrence = seen.merge(name, 1, Integer::sum);
            String key = occurrence == 1 ? name : name + " (" + occurrence + ")";
            results.put(key, Double.parseDouble(m.group(2)));
        }
        return results;
    }

    /** The median of the values; the mean of the middle two for an even count; NaN if none. */
    static double median(List<Double> values) {
        if (values.isEmpty()) {
            return Double.NaN;
        }
        double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        int middle = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }

    /** One row per workload found on either side, in the order of the runs' outputs. */
    static List<Row> table(List<List<String>> oursRuns, List<List<String>> cppRuns) {
        Map<String, List<Double>> ours = collect(oursRuns);
        Map<String, List<Double>> cpp = collect(cppRuns);
        List<String> names = new ArrayList<>(ours.keySet());
        for (String name : cpp.keySet()) {
            if (!names.contains(name)) {
                names.add(name);
            }
        }
        List<Row> rows = new ArrayList<>();
        for (String name : names) {
            rows.add(new Row(name, median(ours.getOrDefault(name, List.of())),
                    median(cpp.getOrDefault(name, List.of()))));
        }
        return rows;
    }

    private static Map<String, List<Double>> collect(List<List<String>> runs) {
        Map<String, List<Double>> values = new LinkedHashMap<>();
        for (List<String> run : runs) {
            parse(run).forEach((k, v) -> values.computeIfAbsent(k, x -> new ArrayList<>()).add(v));
        }
        return values;
    }

    static String csv(List<Row> rows) {
        StringBuilder s = new StringBuilder(CSV_HEADER).append('\n');
        for (Row row : rows) {
            s.append(row.workload()).append(',').append(number(row.ours(), "%.3f")).append(',')
                    .append(number(row.cpp(), "%.3f")).append(',')
                    .append(number(row.ratio(), "%.3f")).append('\n');
        }
        return s.toString();
    }

    static String markdown(List<Row> rows, int oursRuns, int cppRuns) {
        StringBuilder s = new StringBuilder();
        s.append(String.format(Locale.ROOT, "Median micros/op over %d run(s) of leveldbj and %d"
                + " of C++ LevelDB; ratio = leveldbj / C++ (below 1.0: leveldbj is faster).%n%n",
                oursRuns, cppRuns));
        s.append("| workload | leveldbj (micros/op) | C++ (micros/op) | ratio |\n");
        s.append("|---|---:|---:|---:|\n");
        for (Row row : rows) {
            s.append("| ").append(row.workload()).append(" | ")
                    .append(number(row.ours(), "%.3f")).append(" | ")
                    .append(number(row.cpp(), "%.3f")).append(" | ")
                    .append(number(row.ratio(), "%.2f")).append(" |\n");
        }
        return s.toString();
    }

    static String text(List<Row> rows) {
        StringBuilder s = new StringBuilder();
        String format = "%-16s %14s %14s %8s%n";
        s.append(String.format(Locale.ROOT, format, "workload", "ours micros/op",
                "C++ micros/op", "ratio"));
        for (Row row : rows) {
            s.append(String.format(Locale.ROOT, format, row.workload(),
                    dash(number(row.ours(), "%.3f")), dash(number(row.cpp(), "%.3f")),
                    dash(number(row.ratio(), "%.2f"))));
        }
        return s.toString();
    }

    private static String number(double value, String format) {
        return Double.isNaN(value) || Double.isInfinite(value) ? ""
                : String.format(Locale.ROOT, format, value);
    }

    private static String dash(String s) {
        return s.isEmpty() ? "-" : s;
    }
}
