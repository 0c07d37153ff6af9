package org.leveldbj.kafka.streams.compat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Compares the outputs of {@link DslTestTiming} runs with leveldbj's DSL stores ("ours") and with
 * Kafka's RocksDB stores: per class, per package and in total the median wall time of each side,
 * its spread (min-max over the rounds) and the ratio of the medians ours/RocksDB (below 1: ours is
 * faster), then every test that failed on either side, how often, and why.
 *
 * <pre>
 * DslTimingReport --ours FILE... --rocksdb FILE...
 * </pre>
 * Each file is one run's output. Fails (exit 1) if a side's runs did not use that side's stores
 * (the {@code stores} line: ours must come from the stand-in with stores supplied, RocksDB from
 * Kafka's class), so a wrong class path cannot pass for a measurement.
 *
 * <p>Thread safety: a command-line program.
 */
public final class DslTimingReport {
    private DslTimingReport() {
    }

    /** One run's output, parsed. */
    record Run(Map<String, Long> millis, Map<String, Integer> tests, Map<String, String> failures, long totalMillis,
            String storesLocation, String supplied, Map<String, String> stores) {
        static Run read(Path file) throws IOException {
            Map<String, Long> millis = new LinkedHashMap<>();
            Map<String, Integer> tests = new LinkedHashMap<>();
            Map<String, String> failures = new LinkedHashMap<>();
            Map<String, String> stores = new LinkedHashMap<>();
            long total = -1;
            String location = null;
            String supplied = null;
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                String[] f = line.split("\t", -1);
                switch (f[0]) {
                    case "class" -> {
                        millis.put(f[1], Long.parseLong(f[5]));
                        tests.put(f[1], Integer.parseInt(f[2]));
                        stores.put(f[1], f.length > 6 ? f[6] : "-");
                    }
                    case "failure" -> failures.put(f[1] + "#" + f[2], f[3]);
                    case "total" -> total = Long.parseLong(f[5]);
                    case "stores" -> {
                        location = f[1];
                        supplied = f[2];
                    }
                    default -> {
                        // other output (a test's own printing) is not ours to read
                    }
                }
            }
            if (total < 0 || location == null) {
                throw new IllegalArgumentException(file + ": no total or stores line (the run did not complete)");
            }
            return new Run(millis, tests, failures, total, location, supplied, stores);
        }
    }

    /** Median, min and max of a side's values. */
    record Stats(long median, long min, long max) {
        static Stats of(List<Long> values) {
            List<Long> sorted = new ArrayList<>(values);
            sorted.sort(Comparator.naturalOrder());
            int n = sorted.size();
            long median = n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
            return new Stats(median, sorted.get(0), sorted.get(n - 1));
        }

        String text() {
            return String.format(Locale.ROOT, "%8.1f (%.1f-%.1f)", median / 1000.0, min / 1000.0, max / 1000.0);
        }
    }

    /**
     * Prints the comparison.
     *
     * @param args {@code --ours FILE... --rocksdb FILE...}
     * @throws IOException if a file cannot be read
     */
    public static void main(String[] args) throws IOException {
        List<Path> ours = new ArrayList<>();
        List<Path> rocks = new ArrayList<>();
        List<Path> into = null;
        for (String a : args) {
            if (a.equals("--ours")) {
                into = ours;
            } else if (a.equals("--rocksdb")) {
                into = rocks;
            } else if (into != null) {
                into.add(Path.of(a));
            } else {
                System.err.println("usage: DslTimingReport --ours FILE... --rocksdb FILE...");
                System.exit(2);
            }
        }
        if (ours.isEmpty() || rocks.isEmpty()) {
            System.err.println("usage: DslTimingReport --ours FILE... --rocksdb FILE...");
            System.exit(2);
        }
        List<Run> o = new ArrayList<>();
        for (Path p : ours) {
            o.add(Run.read(p));
        }
        List<Run> r = new ArrayList<>();
        for (Path p : rocks) {
            r.add(Run.read(p));
        }
        List<String> problems = checkStores(o, r);
        report(o, r).forEach(System.out::println);
        if (!problems.isEmpty()) {
            problems.forEach(p -> System.err.println("DslTimingReport: " + p));
            System.exit(1);
        }
    }

    /** Checks that each side used its stores. */
    static List<String> checkStores(List<Run> ours, List<Run> rocks) {
        List<String> problems = new ArrayList<>();
        for (Run run : ours) {
            if (run.supplied().equals("-") || run.storesLocation().endsWith(".jar")) {
                problems.add("an 'ours' run loaded Kafka's BuiltInDslStoreSuppliers (" + run.storesLocation()
                        + "), not the stand-in");
            } else if (Long.parseLong(run.supplied()) == 0) {
                problems.add("an 'ours' run had the stand-in but it supplied no store");
            }
        }
        for (Run run : rocks) {
            if (!run.supplied().equals("-")) {
                problems.add("a RocksDB run loaded the stand-in (" + run.storesLocation() + ")");
            }
        }
        return problems;
    }

    /**
     * The report's lines.
     *
     * @param ours the runs on leveldbj stores
     * @param rocks the runs on Kafka's RocksDB stores
     * @return the lines
     */
    static List<String> report(List<Run> ours, List<Run> rocks) {
        TreeSet<String> classes = new TreeSet<>();
        ours.forEach(run -> classes.addAll(run.millis().keySet()));
        rocks.forEach(run -> classes.addAll(run.millis().keySet()));
        List<String> lines = new ArrayList<>();
        lines.add(String.format(Locale.ROOT, "Kafka's DSL tests, wall time in seconds: median (min-max) of %d run(s) on"
                + " leveldbj stores (ours), %d on Kafka's RocksDB stores", ours.size(), rocks.size()));
        lines.add("(stores: the DSL stores of ours the class used, in the first 'ours' run; 0: the class names"
                + " Kafka's stores itself, or has none)");
        String header = String.format(Locale.ROOT, "%-62s %5s %6s  %-22s %-22s %6s", "class", "tests", "stores",
                "ours", "rocksdb", "ratio");
        lines.add(header);
        record Row(String name, int tests, String stores, Stats ours, Stats rocks) {
        }
        List<Row> rows = new ArrayList<>();
        for (String c : classes) {
            Stats so = stats(ours, run -> run.millis().get(c));
            Stats sr = stats(rocks, run -> run.millis().get(c));
            int tests = ours.get(0).tests().getOrDefault(c, rocks.get(0).tests().getOrDefault(c, 0));
            rows.add(new Row(c, tests, ours.get(0).stores().getOrDefault(c, "-"), so, sr));
        }
        rows.sort(Comparator.comparingLong((Row row) -> row.ours() == null ? 0 : row.ours().median()).reversed());
        for (Row row : rows) {
            lines.add(line(shortName(row.name()), row.tests(), row.stores(), row.ours(), row.rocks()));
        }
        lines.add("");
        lines.add("per package (sum of its classes per run):");
        Map<String, List<String>> packages = new TreeMap<>();
        for (String c : classes) {
            packages.computeIfAbsent(c.substring(0, Math.max(0, c.lastIndexOf('.'))), k -> new ArrayList<>()).add(c);
        }
        for (Map.Entry<String, List<String>> e : packages.entrySet()) {
            int tests = rows.stream().filter(row -> e.getValue().contains(row.name())).mapToInt(Row::tests).sum();
            long stores = rows.stream().filter(row -> e.getValue().contains(row.name()))
                    .mapToLong(row -> row.stores().equals("-") ? 0 : Long.parseLong(row.stores())).sum();
            lines.add(line(e.getKey(), tests, Long.toString(stores), stats(ours, run -> sum(run, e.getValue())),
                    stats(rocks, run -> sum(run, e.getValue()))));
        }
        lines.add(line("total (whole run)", rows.stream().mapToInt(Row::tests).sum(), ours.get(0).supplied(),
                stats(ours, Run::totalMillis), stats(rocks, Run::totalMillis)));

        TreeSet<String> failed = new TreeSet<>();
        ours.forEach(run -> failed.addAll(run.failures().keySet()));
        rocks.forEach(run -> failed.addAll(run.failures().keySet()));
        lines.add("");
        lines.add("failures (" + failed.size() + "):" + (failed.isEmpty() ? " none" : ""));
        for (String f : failed) {
            long onOurs = ours.stream().filter(run -> run.failures().containsKey(f)).count();
            long onRocks = rocks.stream().filter(run -> run.failures().containsKey(f)).count();
            String reason = ours.stream().map(run -> run.failures().get(f)).filter(x -> x != null).findFirst()
                    .orElseGet(() -> rocks.stream().map(run -> run.failures().get(f)).filter(x -> x != null)
                            .findFirst().orElse(""));
            String where = onRocks == 0 ? "OURS ONLY" : onOurs == 0 ? "ROCKSDB ONLY" : "both";
            lines.add(String.format(Locale.ROOT, "  %-12s ours %d/%d, rocksdb %d/%d  %s: %s", where, onOurs,
                    ours.size(), onRocks, rocks.size(), shortName(f), reason));
        }
        return lines;
    }

    private static long sum(Run run, List<String> classes) {
        return classes.stream().mapToLong(c -> run.millis().getOrDefault(c, 0L)).sum();
    }

    private static Stats stats(List<Run> runs, java.util.function.Function<Run, Long> value) {
        List<Long> values = new ArrayList<>();
        for (Run run : runs) {
            Long v = value.apply(run);
            if (v != null) {
                values.add(v);
            }
        }
        return values.isEmpty() ? null : Stats.of(values);
    }

    private static String line(String name, int tests, String stores, Stats ours, Stats rocks) {
        String ratio = ours == null || rocks == null ? "-"
                : rocks.median() == 0 ? "-" : String.format(Locale.ROOT, "%.2f", (double) ours.median() / rocks.median());
        return String.format(Locale.ROOT, "%-62s %5d %6s  %-22s %-22s %6s", name, tests, stores,
                ours == null ? "-" : ours.text(), rocks == null ? "-" : rocks.text(), ratio);
    }

    private static String shortName(String name) {
        return name.replace(DslTestTiming.DEFAULT_PACKAGE + ".", "");
    }
}
