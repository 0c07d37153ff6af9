package org.leveldbj.benchmark;

import java.util.Arrays;
import java.util.Locale;

/**
 * Operation latencies in microseconds, bucketed and printed as db_bench prints them: count,
 * average, standard deviation, min, median, max, then one line per non-empty bucket with its
 * range, count, share, cumulative share and a bar of up to 20 marks.
 */
final class Histogram {
    /** Upper bounds (exclusive) of the buckets: 1..10, then 1.2, 1.4, ... 10 times each decade. */
    static final double[] LIMITS = limits();

    private final double[] buckets = new double[LIMITS.length];
    private double min = LIMITS[LIMITS.length - 1];
    private double max;
    private double count;
    private double sum;
    private double sumSquares;

    private static double[] limits() {
        double[] steps = {1.2, 1.4, 1.6, 1.8, 2, 2.5, 3, 3.5, 4, 4.5, 5, 6, 7, 8, 9, 10};
        double[] limits = new double[160];
        int n = 0;
        for (int i = 1; i <= 10; i++) {
            limits[n++] = i;
        }
        for (double decade = 10; decade <= 1e9; decade *= 10) {
            for (double step : steps) {
                if (step * decade < 1e10) {
                    limits[n++] = Math.rint(step * decade);
                }
            }
        }
        limits[n++] = 1e200;
        return Arrays.copyOf(limits, n);
    }

    void add(double micros) {
        int b = 0;
        while (b < LIMITS.length - 1 && LIMITS[b] <= micros) {
            b++;
        }
        buckets[b] += 1;
        min = Math.min(min, micros);
        max = Math.max(max, micros);
        count++;
        sum += micros;
        sumSquares += micros * micros;
    }

    void merge(Histogram other) {
        min = Math.min(min, other.min);
        max = Math.max(max, other.max);
        count += other.count;
        sum += other.sum;
        sumSquares += other.sumSquares;
        for (int b = 0; b < buckets.length; b++) {
            buckets[b] += other.buckets[b];
        }
    }

    double count() {
        return count;
    }

    double average() {
        return count == 0 ? 0 : sum / count;
    }

    double standardDeviation() {
        if (count == 0) {
            return 0;
        }
        double variance = (sumSquares * count - sum * sum) / (count * count);
        return Math.sqrt(Math.max(0, variance));
    }

    double percentile(double p) {
        double threshold = count * (p / 100.0);
        double seen = 0;
        for (int b = 0; b < buckets.length; b++) {
            seen += buckets[b];
            if (seen >= threshold && buckets[b] > 0) {
                double left = b == 0 ? 0 : LIMITS[b - 1];
                double right = LIMITS[b];
                double position = (threshold - (seen - buckets[b])) / buckets[b];
                double r = left + (right - left) * position;
                return Math.max(min, Math.min(max, r));
            }
        }
        return max;
    }

    @Override
    public String toString() {
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "Count: %.0f  Average: %.4f  StdDev: %.2f\n",
                count, average(), standardDeviation()));
        out.append(String.format(Locale.ROOT, "Min: %.4f  Median: %.4f  Max: %.4f\n",
                count == 0 ? 0.0 : min, percentile(50), max));
        out.append("------------------------------------------------------").append('\n');
        double cumulative = 0;
        for (int b = 0; b < buckets.length; b++) {
            if (buckets[b] <= 0) {
                continue;
            }
            cumulative += buckets[b];
            out.append(String.format(Locale.ROOT, "[ %7.0f, %7.0f ) %7.0f %7.3f%% %7.3f%% ",
                    b == 0 ? 0.0 : LIMITS[b - 1], LIMITS[b], buckets[b],
                    100.0 * buckets[b] / count, 100.0 * cumulative / count));
            out.append("#".repeat((int) (20 * (buckets[b] / count) + 0.5))).append('\n');
        }
        return out.toString();
    }
}
