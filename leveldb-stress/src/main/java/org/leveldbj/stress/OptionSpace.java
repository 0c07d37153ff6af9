package org.leveldbj.stress;

import java.util.SplittableRandom;
import org.iq80.leveldb.CompressionType;

/**
 * The space each round's database options and workload mix are drawn from, in the manner of
 * RocksDB's db_crashtest: every round flag of {@link Config} not given on the command line gets a
 * value drawn here, from the round's own seed, so that the rounds of one run reopen the same
 * database with ever different options.
 *
 * <p>Each dimension is a list of choices, equally likely (a choice listed twice is drawn twice as
 * often). Every dimension is drawn, given or not, in a fixed order, so pinning one dimension does
 * not change what the others draw for the same seed. The value sizes are drawn as a mix: either
 * sizes independent of the threshold, or sizes that straddle it (values just below and values at
 * or above it in about equal numbers, the mix that makes value files fill and turn over fastest).
 * The large values are capped at {@link #LARGE_VALUE_BUDGET} bytes live on average, so that a
 * round stays short whatever it draws.
 *
 * <p>Stateless; safe for concurrent use.
 */
final class OptionSpace {
    static final int[] VALUE_THRESHOLDS = {0, 1024, 64 << 10};
    /**
     * Down to 128 bytes: value files are 32 table files large (with a floor in the engine), so
     * the smallest table files make the smallest value files.
     */
    static final long[] MAX_FILE_SIZES = {128, 256, 2 << 10, 2 << 10, 8 << 10, 8 << 10, 64 << 10, 64 << 10,
        256 << 10, 256 << 10, 2 << 20, 2 << 20};
    static final int[] WRITE_BUFFER_SIZES = {64 << 10, 64 << 10, 64 << 10, 256 << 10, 256 << 10, 1 << 20, 1 << 20,
        4 << 20};
    static final int[] BLOCK_SIZES = {256, 1 << 10, 4 << 10, 4 << 10, 16 << 10, 64 << 10};
    static final int[] BLOCK_RESTART_INTERVALS = {1, 2, 4, 16, 16, 64};
    static final CompressionType[] COMPRESSIONS = {CompressionType.NONE, CompressionType.SNAPPY,
        CompressionType.ZSTD};
    static final int[] BLOOM_BITS = {0, 10, 10, 16};
    static final double[] VALUE_GARBAGE_RATIOS = {0.1, 0.25, 0.25, 0.5, 0.9, 1.0};
    static final boolean[] PARANOID_CHECKS = {false, true};
    static final double[] SYNC_PERCENTS = {0, 1, 5, 5, 20};
    static final double[] DISABLE_WAL_PERCENTS = {0, 0, 0, 0, 0, 5, 50, 100};
    static final boolean[] COMPACTION_FILTERS = {false, true};
    static final PrefixChoice[] PREFIX_EXTRACTORS = PrefixChoice.values();

    /** Sizes of the small values when the mix does not straddle the threshold. */
    static final int[][] VALUE_SIZES = {{20, 1000}, {20, 1000}, {20, 100}, {100, 4000}};
    /** The large values when the mix does not straddle the threshold, and how many there are. */
    static final int PLAIN_LARGE_VALUE_SIZE = 100 << 10;
    static final double[] PLAIN_LARGE_VALUE_PERCENTS = {0, 1, 1, 5};
    /** Straddling: the small values are below the threshold, the large ones this far above it. */
    static final double[] STRADDLE_FACTORS = {1, 1.1, 4};
    static final double[] STRADDLE_PERCENTS = {10, 50, 50};
    /** The threshold whose neighbourhood the sizes straddle when the round separates no values. */
    static final int STRADDLED_WITHOUT_THRESHOLD = 1024;
    /** The average live bytes of large values a drawn mix may hold (all threads' keys). */
    static final long LARGE_VALUE_BUDGET = 32L << 20;

    private OptionSpace() {
    }

    /**
     * The options of one round: the run's config with every round flag it was not given drawn.
     *
     * @param run the parsed flags of the run
     * @param roundSeed the round's seed
     * @return a copy of {@code run} with the round's options
     */
    static Config draw(Config run, long roundSeed) {
        SplittableRandom r = new SplittableRandom(roundSeed);
        Config c = run.copy();
        int threshold = pick(r, VALUE_THRESHOLDS);
        if (!run.given("value-threshold")) {
            c.valueThreshold = threshold;
        }
        long maxFileSize = pick(r, MAX_FILE_SIZES);
        if (!run.given("max-file-size")) {
            c.maxFileSize = maxFileSize;
        }
        int writeBufferSize = pick(r, WRITE_BUFFER_SIZES);
        if (!run.given("write-buffer-size")) {
            c.writeBufferSize = writeBufferSize;
        }
        int blockSize = pick(r, BLOCK_SIZES);
        if (!run.given("block-size")) {
            c.blockSize = blockSize;
        }
        int restartInterval = pick(r, BLOCK_RESTART_INTERVALS);
        if (!run.given("block-restart-interval")) {
            c.blockRestartInterval = restartInterval;
        }
        CompressionType compression = COMPRESSIONS[r.nextInt(COMPRESSIONS.length)];
        if (!run.given("compression")) {
            c.compression = compression;
        }
        int bloomBits = pick(r, BLOOM_BITS);
        if (!run.given("bloom-bits")) {
            c.bloomBits = bloomBits;
        }
        double garbageRatio = pick(r, VALUE_GARBAGE_RATIOS);
        if (!run.given("value-garbage-ratio")) {
            c.valueGarbageRatio = garbageRatio;
        }
        boolean paranoid = PARANOID_CHECKS[r.nextInt(PARANOID_CHECKS.length)];
        if (!run.given("paranoid-checks")) {
            c.paranoidChecks = paranoid;
        }
        double syncPercent = pick(r, SYNC_PERCENTS);
        if (!run.given("sync-percent")) {
            c.syncPercent = syncPercent;
        }
        double disableWalPercent = pick(r, DISABLE_WAL_PERCENTS);
        if (!run.given("disable-wal-percent")) {
            c.disableWalPercent = disableWalPercent;
        }
        drawValueSizes(r, run, c);
        // Drawn last, the compaction filter and then the prefix extractor, so that they leave
        // what the earlier dimensions draw for a seed unchanged.
        boolean compactionFilter = COMPACTION_FILTERS[r.nextInt(COMPACTION_FILTERS.length)];
        if (!run.given("compaction-filter")) {
            c.compactionFilter = compactionFilter;
        }
        PrefixChoice prefixExtractor = PREFIX_EXTRACTORS[r.nextInt(PREFIX_EXTRACTORS.length)];
        if (!run.given("prefix-extractor")) {
            c.prefixExtractor = prefixExtractor;
        }
        return c;
    }

    /** Draws the value-size mix around the round's threshold (given or drawn). */
    private static void drawValueSizes(SplittableRandom r, Config run, Config c) {
        boolean straddle = r.nextBoolean();
        int[] plainSizes = VALUE_SIZES[r.nextInt(VALUE_SIZES.length)];
        double plainPercent = pick(r, PLAIN_LARGE_VALUE_PERCENTS);
        double factor = pick(r, STRADDLE_FACTORS);
        double straddlePercent = pick(r, STRADDLE_PERCENTS);

        int valueMin;
        int valueMax;
        int largeSize;
        double largePercent;
        if (straddle) {
            int threshold = c.valueThreshold > 0 ? c.valueThreshold : STRADDLED_WITHOUT_THRESHOLD;
            valueMin = Values.HEADER;
            valueMax = Math.max(Values.HEADER, Math.min(threshold - 1, 1000));
            largeSize = Math.max(Values.HEADER, (int) (threshold * factor));
            largePercent = straddlePercent;
        } else {
            valueMin = plainSizes[0];
            valueMax = plainSizes[1];
            largeSize = PLAIN_LARGE_VALUE_SIZE;
            largePercent = plainPercent;
        }
        if (!run.given("value-size")) {
            c.valueMin = valueMin;
            c.valueMax = valueMax;
        }
        if (!run.given("large-value-size")) {
            c.largeValueSize = largeSize;
        }
        if (!run.given("large-value-percent")) {
            double keys = (double) c.threads * c.keysPerThread;
            double cap = 100.0 * LARGE_VALUE_BUDGET / (keys * c.largeValueSize);
            c.largeValuePercent = Math.min(largePercent, Math.floor(cap * 10) / 10);
        }
    }

    private static int pick(SplittableRandom r, int[] choices) {
        return choices[r.nextInt(choices.length)];
    }

    private static long pick(SplittableRandom r, long[] choices) {
        return choices[r.nextInt(choices.length)];
    }

    private static double pick(SplittableRandom r, double[] choices) {
        return choices[r.nextInt(choices.length)];
    }
}
