package org.leveldbj.kafka.streams;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Alternating rounds of a benchmark over named subjects (our store, RocksDB's, ...): round
 * {@code r} runs the subjects in their order when {@code r} is even and in reverse when it is
 * odd, so that neither side always runs on a warmer or a more tired machine. Each run gives one
 * figure per workload (a time per operation); {@link #printTable} prints each workload's median
 * for each subject, and the ratio of the first subject's median to the last's with the range of
 * the per-round ratios.
 *
 * <p>Thread safety: confined to the benchmark's thread.
 */
final class BenchRounds<S> {
    /** One run of one subject: a figure per workload. */
    interface Run<S> {
        double[] run(String name, S subject, int round) throws Exception;
    }

    private final String[] workloads;
    /** Workload, then subject: the figure of each round. */
    private final Map<String, Map<String, List<Double>>> results = new LinkedHashMap<>();
    private final List<String> names;

    private BenchRounds(String[] workloads, List<String> names) {
        this.workloads = workloads;
        this.names = names;
    }

    /** Runs {@code rounds} alternating rounds of every subject. */
    static <S> BenchRounds<S> run(Map<String, S> subjects, String[] workloads, int rounds, Run<S> run) throws Exception {
        BenchRounds<S> b = new BenchRounds<>(workloads, new ArrayList<>(subjects.keySet()));
        for (int round = 0; round < rounds; round++) {
            List<String> order = new ArrayList<>(b.names);
            if (round % 2 == 1) {
                Collections.reverse(order);
            }
            for (String name : order) {
                double[] figures = run.run(name, subjects.get(name), round);
                for (int w = 0; w < workloads.length; w++) {
                    b.results.computeIfAbsent(workloads[w], k -> new LinkedHashMap<>())
                            .computeIfAbsent(name, k -> new ArrayList<>()).add(figures[w]);
                }
            }
        }
        return b;
    }

    /** Prints a markdown table: each workload's median per subject, in {@code unit}, and the ratios. */
    void printTable(String unit) {
        String first = names.get(0);
        String last = names.get(names.size() - 1);
        StringBuilder head = new StringBuilder("| workload |");
        StringBuilder rule = new StringBuilder("|---|");
        for (String n : names) {
            head.append(' ').append(n).append(" (").append(unit).append(") |");
            rule.append("---:|");
        }
        System.out.println();
        System.out.println(head + " ratio " + first + "/" + last + " | per-round ratios |");
        System.out.println(rule + "---:|---:|");
        for (String w : workloads) {
            List<Double> ours = results.get(w).get(first);
            List<Double> theirs = results.get(w).get(last);
            double min = Double.MAX_VALUE;
            double max = 0;
            for (int i = 0; i < ours.size(); i++) {
                double r = ours.get(i) / theirs.get(i);
                min = Math.min(min, r);
                max = Math.max(max, r);
            }
            StringBuilder row = new StringBuilder("| " + w + " |");
            for (String n : names) {
                row.append(String.format(" %.3f |", median(results.get(w).get(n))));
            }
            System.out.println(row + String.format(" %.2f | %.2f-%.2f |", median(ours) / median(theirs), min, max));
        }
    }

    static double median(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        sorted.sort(null);
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }
}
