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
 * bin/compare's tables of what the runners print beside the time per operation: the latency
 * percentiles of {@code --histogram=1} ({@code latency.md}: per workload and kind of operation,
 * the median over the runs of P50, P99, P99.9, P99.99 and the maximum on either side, and the
 * P99.9 and maximum ratios, ours over C++) and the memory and disk lines of {@code --memory=1}
 * and bin/compare ({@code memory.md}: per workload, the median of each field on either side).
 * Workloads are told apart by occurrence as in {@link CompareResults}; a percentile line belongs
 * to the last {@code Microseconds per <kind>:} heading, a memory or disk line to the last
 * result line before it.
 * <p>Usage: {@code CompareTails OUT_DIR --ours FILE... --cpp FILE...}; writes the tables that
 * have data and prints them; exit code 2 on bad arguments.
 */
public final class CompareTails {
    private static final Pattern RESULT =
            Pattern.compile("^(\\S+)\\s+:\\s+[0-9]+(?:\\.[0-9]+)? micros/op;.*$");
    private static final Pattern HEADING = Pattern.compile("^Microseconds per ([a-z]+):$");
    private static final Pattern PERCENTILES = Pattern.compile("^Percentiles:((?: [A-Za-z0-9.]+: [0-9.]+)+)$");
    private static final Pattern FIELD = Pattern.compile("([A-Za-z0-9._]+)[:=] ?([0-9.]+)");
    /** The memory line of both runners, and the disk line bin/compare adds after each run. */
    private static final Pattern MEMORY = Pattern.compile("^(?:memory|disk): (.*)$");
    /** The latency columns, as the percentile line names them. */
    static final List<String> LATENCY = List.of("P50", "P99", "P99.9", "P99.99", "Max");

    private CompareTails() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        try {
            RunOutputs runs = RunOutputs.parse("CompareTails", args);
            Path dir = runs.outDir();
            Files.createDirectories(dir);
            Map<String, Map<String, List<Double>>> oursValues = collect(runs.ours());
            Map<String, Map<String, List<Double>>> cppValues = collect(runs.cpp());
            String latency = latencyTable(oursValues, cppValues);
            String memory = memoryTable(oursValues, cppValues);
            for (String[] table : new String[][] {{"latency.md", latency}, {"memory.md", memory}}) {
                if (!table[1].isEmpty()) {
                    Files.writeString(dir.resolve(table[0]), table[1], StandardCharsets.UTF_8);
                    out.print(table[1]);
                    out.println();
                }
            }
            return 0;
        } catch (RunOutputs.UsageException e) {
            err.println(e.getMessage());
            return 2;
        } catch (IOException e) {
            err.println("CompareTails: " + e);
            return 1;
        }
    }

    /**
     * One run's values, by workload (with its occurrence) and by metric: {@code "<kind> P99.9"}
     * and the like for percentiles, the field's name ({@code rss}, {@code heap}, {@code disk})
     * for memory and disk lines.
     */
    static Map<String, Map<String, Double>> parse(List<String> lines) {
        Map<String, Map<String, Double>> values = new LinkedHashMap<>();
        Map<String, Integer> seen = new LinkedHashMap<>();
        String workload = null;
        String kind = "op";
        for (String raw : lines) {
            String line = raw.strip();
            Matcher m = RESULT.matcher(line);
            if (m.matches()) {
                int occurrence = seen.merge(m.group(1), 1, Integer::sum);
                workload = occurrence == 1 ? m.group(1) : m.group(1) + " (" + occurrence + ")";
                kind = "op";
                continue;
            }
            if (workload == null) {
                continue;
            }
            Map<String, Double> metrics = values.computeIfAbsent(workload, w -> new LinkedHashMap<>());
            if ((m = HEADING.matcher(line)).matches()) {
                kind = m.group(1);
            } else if ((m = PERCENTILES.matcher(line)).matches()) {
                Matcher field = FIELD.matcher(m.group(1));
                while (field.find()) {
                    metrics.put(kind + " " + field.group(1), Double.parseDouble(field.group(2)));
                }
            } else if ((m = MEMORY.matcher(line)).matches()) {
                Matcher field = FIELD.matcher(m.group(1));
                while (field.find()) {
                    metrics.put(field.group(1), Double.parseDouble(field.group(2)));
                }
            }
        }
        values.values().removeIf(Map::isEmpty);
        return values;
    }

    private static Map<String, Map<String, List<Double>>> collect(List<List<String>> runs) {
        Map<String, Map<String, List<Double>>> all = new LinkedHashMap<>();
        for (List<String> run : runs) {
            parse(run).forEach((workload, metrics) -> metrics.forEach((metric, value) ->
                    all.computeIfAbsent(workload, w -> new LinkedHashMap<>())
                            .computeIfAbsent(metric, x -> new ArrayList<>()).add(value)));
        }
        return all;
    }

    /** The median of a metric on one side, NaN where it has none. */
    private static double median(Map<String, Map<String, List<Double>>> side, String workload, String metric) {
        return CompareResults.median(side.getOrDefault(workload, Map.of()).getOrDefault(metric, List.of()));
    }

    private static List<String> workloads(Map<String, Map<String, List<Double>>> ours,
            Map<String, Map<String, List<Double>>> cpp) {
        List<String> names = new ArrayList<>(ours.keySet());
        cpp.keySet().stream().filter(n -> !names.contains(n)).forEach(names::add);
        return names;
    }

    static String latencyTable(Map<String, Map<String, List<Double>>> ours,
            Map<String, Map<String, List<Double>>> cpp) {
        StringBuilder s = new StringBuilder();
        for (String workload : workloads(ours, cpp)) {
            for (String kind : List.of("read", "write", "op")) {
                double oursMax = median(ours, workload, kind + " Max");
                double cppMax = median(cpp, workload, kind + " Max");
                if (!(oursMax > 0) && !(cppMax > 0)) {
                    continue; // neither side timed an operation of this kind (compact times none)
                }
                s.append("| ").append(workload).append(" | ").append(kind);
                for (String column : LATENCY) {
                    s.append(" | ").append(cell(median(ours, workload, kind + " " + column)))
                            .append(" / ").append(cell(median(cpp, workload, kind + " " + column)));
                }
                s.append(" | ").append(ratio(median(ours, workload, kind + " P99.9"), median(cpp, workload, kind + " P99.9")))
                        .append(" | ").append(ratio(oursMax, cppMax)).append(" |\n");
            }
        }
        if (s.length() == 0) {
            return "";
        }
        return "Latency in microseconds, leveldbj / C++ LevelDB, medians over the runs; ratios are"
                + " leveldbj over C++.\n\n"
                + "| workload | kind | P50 | P99 | P99.9 | P99.99 | max | P99.9 ratio | max ratio |\n"
                + "|---|---|---:|---:|---:|---:|---:|---:|---:|\n" + s;
    }

    static String memoryTable(Map<String, Map<String, List<Double>>> ours,
            Map<String, Map<String, List<Double>>> cpp) {
        List<String> fields = new ArrayList<>();
        for (Map<String, Map<String, List<Double>>> side : List.of(ours, cpp)) {
            side.values().forEach(metrics -> metrics.keySet().stream()
                    .filter(k -> !k.contains(" ") && !fields.contains(k)).forEach(fields::add));
        }
        if (fields.isEmpty()) {
            return "";
        }
        StringBuilder s = new StringBuilder("Memory and disk in MiB, leveldbj / C++ LevelDB (- where a runner has"
                + " no such field), medians over the runs, after each workload.\n\n| workload |");
        fields.forEach(f -> s.append(' ').append(f).append(" |"));
        s.append("\n|---|").append("---:|".repeat(fields.size())).append('\n');
        for (String workload : workloads(ours, cpp)) {
            boolean any = fields.stream().anyMatch(f -> !Double.isNaN(median(ours, workload, f))
                    || !Double.isNaN(median(cpp, workload, f)));
            if (!any) {
                continue;
            }
            s.append("| ").append(workload).append(" |");
            for (String f : fields) {
                s.append(' ').append(cell(median(ours, workload, f))).append(" / ")
                        .append(cell(median(cpp, workload, f))).append(" |");
            }
            s.append('\n');
        }
        return s.toString();
    }

    private static String cell(double value) {
        return Double.isNaN(value) ? "-" : String.format(Locale.ROOT, value >= 100 ? "%.0f" : "%.2f", value);
    }

    private static String ratio(double ours, double cpp) {
        return Double.isNaN(ours) || Double.isNaN(cpp) || cpp == 0 ? "-" : String.format(Locale.ROOT, "%.2f", ours / cpp);
    }
}
