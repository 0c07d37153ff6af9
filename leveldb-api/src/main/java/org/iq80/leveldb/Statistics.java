package org.iq80.leveldb;

import java.util.Arrays;

/**
 * What a database reported about itself at one moment: one value for each {@link Metric}, and
 * for figures kept per level, one per level. Taken by {@link ExtendedDB#statistics()}; the same
 * figures are what the database's JMX bean and the {@code leveldb-micrometer} binder publish.
 *
 * <pre>{@code
 * Statistics stats = db.statistics();
 * long written = stats.get(Metric.KEYS_WRITTEN);            // counter: since the database opened
 * long level0 = stats.get(Metric.LEVEL_FILES, 0);           // gauge: tables in level 0 now
 * }</pre>
 *
 * <p>Counters are read without stopping writers or readers, so a snapshot taken while the
 * database works may hold one counter a little ahead of another; each value is exact for the
 * operations that had returned before {@code statistics()} was called.
 *
 * <p>This is an extension of the 0.12 API.
 *
 * <p>Thread safety: immutable.
 */
public final class Statistics {
    /** The number of levels of a database, and of values of a per-level figure. */
    public static final int LEVELS = 7;

    private static final Metric[] METRICS = Metric.values();

    private final long[] values;
    private final long[][] levels;

    private Statistics(long[] values, long[][] levels) {
        this.values = values;
        this.levels = levels;
    }

    /**
     * Starts a snapshot whose figures are all 0.
     *
     * @return a builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The value of a figure; for a per-level figure, the sum over the levels.
     *
     * @param metric the figure
     * @return its value, in the figure's {@linkplain Metric#unit() unit}
     */
    public long get(Metric metric) {
        long[] perLevel = levels[metric.ordinal()];
        if (perLevel == null) {
            return values[metric.ordinal()];
        }
        long sum = 0;
        for (long v : perLevel) {
            sum += v;
        }
        return sum;
    }

    /**
     * The value of a per-level figure at one level.
     *
     * @param metric the figure, one kept per level
     * @param level the level, 0 to {@link #LEVELS} - 1
     * @return its value
     * @throws IllegalArgumentException if the figure is not kept per level, or the level is out
     *     of range
     */
    public long get(Metric metric, int level) {
        return levels(metric)[checkLevel(level)];
    }

    /**
     * The values of a per-level figure, one per level.
     *
     * @param metric the figure, one kept per level
     * @return a new array of {@link #LEVELS} values
     * @throws IllegalArgumentException if the figure is not kept per level
     */
    public long[] perLevel(Metric metric) {
        return levels(metric).clone();
    }

    private long[] levels(Metric metric) {
        long[] perLevel = levels[metric.ordinal()];
        if (perLevel == null) {
            throw new IllegalArgumentException(metric + " is not kept per level");
        }
        return perLevel;
    }

    private static int checkLevel(int level) {
        if (level < 0 || level >= LEVELS) {
            throw new IllegalArgumentException("level " + level + " is not between 0 and " + (LEVELS - 1));
        }
        return level;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof Statistics)) {
            return false;
        }
        Statistics other = (Statistics) o;
        return Arrays.equals(values, other.values) && Arrays.deepEquals(levels, other.levels);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(values) + Arrays.deepHashCode(levels);
    }

    /** @return every figure as {@code key=value}, per-level ones as {@code key=[l0, l1, ...]} */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("Statistics{");
        for (Metric m : METRICS) {
            if (m.ordinal() > 0) {
                sb.append(", ");
            }
            sb.append(m.key()).append('=');
            long[] perLevel = levels[m.ordinal()];
            sb.append(perLevel == null ? Long.toString(values[m.ordinal()]) : Arrays.toString(perLevel));
        }
        return sb.append('}').toString();
    }

    /**
     * Assembles a snapshot; used by the engine, and by tests that need one.
     *
     * <p>Thread safety: not safe for concurrent use.
     */
    public static final class Builder {
        private final long[] values = new long[METRICS.length];
        private final long[][] levels = new long[METRICS.length][];

        private Builder() {
            for (Metric m : METRICS) {
                if (m.perLevel()) {
                    levels[m.ordinal()] = new long[LEVELS];
                }
            }
        }

        /**
         * Sets a figure that is not kept per level.
         *
         * @param metric the figure
         * @param value its value
         * @return this builder
         * @throws IllegalArgumentException if the figure is kept per level
         */
        public Builder set(Metric metric, long value) {
            if (metric.perLevel()) {
                throw new IllegalArgumentException(metric + " is kept per level");
            }
            values[metric.ordinal()] = value;
            return this;
        }

        /**
         * Sets a per-level figure at one level.
         *
         * @param metric the figure, one kept per level
         * @param level the level
         * @param value its value there
         * @return this builder
         * @throws IllegalArgumentException if the figure is not kept per level, or the level is
         *     out of range
         */
        public Builder set(Metric metric, int level, long value) {
            long[] perLevel = levels[metric.ordinal()];
            if (perLevel == null) {
                throw new IllegalArgumentException(metric + " is not kept per level");
            }
            perLevel[checkLevel(level)] = value;
            return this;
        }

        /**
         * Makes the snapshot; the builder may go on being used for another.
         *
         * @return the snapshot
         */
        public Statistics build() {
            long[][] copy = new long[levels.length][];
            for (int i = 0; i < levels.length; i++) {
                copy[i] = levels[i] == null ? null : levels[i].clone();
            }
            return new Statistics(values.clone(), copy);
        }
    }
}
