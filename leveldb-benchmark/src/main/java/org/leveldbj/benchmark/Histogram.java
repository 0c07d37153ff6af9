package org.leveldbj.benchmark;

import java.util.Arrays;
import java.util.Locale;
import org.HdrHistogram.HistogramIterationValue;

/**
 * Operation latencies, recorded in nanoseconds at three significant digits (an HdrHistogram:
 * exact below 2,048 ns, then 1,024 steps per power of two) beside their exact count, sum, sum of
 * squares, minimum and maximum, and printed in microseconds as db_bench prints them (count,
 * average, standard deviation, min, median, max, then one line per non-empty bucket of
 * {@link #LIMITS} with its range, count, share, cumulative share and a bar of up to 20 marks),
 * followed by a percentile line:
 * {@code Percentiles: P50: 1.23 P99: 4.56 P99.9: 7.89 P99.99: 12.34 Max: 15.00}.
 *
 * <p>Percentile p is the highest value equivalent (at the recorded precision) to the first
 * recorded value at which the cumulative count reaches {@code ceil(p / 100 * count)}, capped at
 * the exact maximum. The C++ runner (bench/cpp) keeps the same layout and computes the same
 * way, so that the two runners' percentiles compare at the same precision.
 *
 * <p>Not thread-safe: each benchmark thread keeps its own, merged once the threads have ended.
 */
final class Histogram {
    /** Upper bounds (exclusive) of the printed buckets, in microseconds: 1..10, then 1.2, 1.4, ... 10 times each decade. */
    static final double[] LIMITS = limits();
    /** The percentiles of the percentile line. */
    static final double[] PERCENTILES = {50, 99, 99.9, 99.99};

    private final org.HdrHistogram.Histogram recorded = new org.HdrHistogram.Histogram(3);
    private long min = Long.MAX_VALUE;
    private long max;
    private long count;
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

    /** Records one latency; a negative one (a clock step backwards) counts as 0. */
    void add(long nanos) {
        long value = Math.max(0, nanos);
        recorded.recordValue(value);
        min = Math.min(min, value);
        max = Math.max(max, value);
        count++;
        double micros = value / 1000.0;
        sum += micros;
        sumSquares += micros * micros;
    }

    void merge(Histogram other) {
        recorded.add(other.recorded);
        min = Math.min(min, other.min);
        max = Math.max(max, other.max);
        count += other.count;
        sum += other.sum;
        sumSquares += other.sumSquares;
    }

    long count() {
        return count;
    }

    /** The average in microseconds. */
    double average() {
        return count == 0 ? 0 : sum / count;
    }

    /** The standard deviation in microseconds. */
    double standardDeviation() {
        if (count == 0) {
            return 0;
        }
        double variance = (sumSquares * count - sum * sum) / ((double) count * count);
        return Math.sqrt(Math.max(0, variance));
    }

    /** The exact maximum in microseconds. */
    double max() {
        return max / 1000.0;
    }

    /**
     * The latency at or below which {@code p} percent of the operations took, in microseconds
     * (see the class comment); 0 when nothing was recorded.
     */
    double percentile(double p) {
        if (count == 0) {
            return 0;
        }
        long rank = Math.max(1, (long) Math.ceil(p / 100.0 * count));
        for (HistogramIterationValue v : recorded.recordedValues()) {
            if (v.getTotalCountToThisValue() >= rank) {
                long value = recorded.highestEquivalentValue(v.getValueIteratedTo());
                return Math.min(value, max) / 1000.0;
            }
        }
        return max();
    }

    /** {@code Percentiles: P50: ... Max: ...}, in microseconds, without a line break. */
    String percentileLine() {
        StringBuilder line = new StringBuilder("Percentiles:");
        for (double p : PERCENTILES) {
            line.append(String.format(Locale.ROOT, " P%s: %.2f",
                    p == Math.rint(p) ? Long.toString((long) p) : Double.toString(p), percentile(p)));
        }
        return line.append(String.format(Locale.ROOT, " Max: %.2f", max())).toString();
    }

    /** The counts of the printed buckets, each recorded value placed by its lowest equivalent value. */
    private long[] bucketCounts() {
        long[] buckets = new long[LIMITS.length];
        int b = 0;
        for (HistogramIterationValue v : recorded.recordedValues()) {
            double micros = recorded.lowestEquivalentValue(v.getValueIteratedTo()) / 1000.0;
            while (b < LIMITS.length - 1 && LIMITS[b] <= micros) {
                b++;
            }
            buckets[b] += v.getCountAtValueIteratedTo();
        }
        return buckets;
    }

    /** db_bench's text, then the percentile line; ends with a line break. */
    @Override
    public String toString() {
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "Count: %d  Average: %.4f  StdDev: %.2f\n",
                count, average(), standardDeviation()));
        out.append(String.format(Locale.ROOT, "Min: %.4f  Median: %.4f  Max: %.4f\n",
                count == 0 ? 0.0 : min / 1000.0, percentile(50), max()));
        out.append("------------------------------------------------------").append('\n');
        long[] buckets = bucketCounts();
        long cumulative = 0;
        for (int b = 0; b < buckets.length; b++) {
            if (buckets[b] <= 0) {
                continue;
            }
            cumulative += buckets[b];
            out.append(String.format(Locale.ROOT, "[ %7.0f, %7.0f ) %7d %7.3f%% %7.3f%% ",
                    b == 0 ? 0.0 : LIMITS[b - 1], LIMITS[b], buckets[b],
                    100.0 * buckets[b] / count, 100.0 * cumulative / count));
            out.append("#".repeat((int) (20 * ((double) buckets[b] / count) + 0.5))).append('\n');
        }
        out.append(percentileLine()).append('\n');
        return out.toString();
    }
}
