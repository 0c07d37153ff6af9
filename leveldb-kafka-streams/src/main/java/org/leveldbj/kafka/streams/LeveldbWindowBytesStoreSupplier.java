package org.leveldbj.kafka.streams;

import java.time.Duration;
import java.util.Objects;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.internals.ApiUtils;
import org.apache.kafka.streams.state.WindowBytesStoreSupplier;
import org.apache.kafka.streams.state.WindowStore;

/**
 * Supplies leveldbj window stores to Kafka Streams: what {@link LeveldbStores}'s window
 * factories return, to pass to {@code Stores.windowStoreBuilder},
 * {@code Stores.timestampedWindowStoreBuilder}, {@code Materialized.as(...)} or
 * {@code StreamJoined.with(...)}. Each {@link #get()} makes a new store (one per task).
 *
 * <p>Thread safety: immutable.
 */
public class LeveldbWindowBytesStoreSupplier implements WindowBytesStoreSupplier {
    /** The values the stores hold. */
    enum Format {
        /** Plain values. */
        PLAIN,
        /** Kafka's timestamped values. */
        TIMESTAMPED,
        /** Kafka's values with headers and timestamp. */
        HEADERS
    }

    private final String name;
    private final long retentionPeriod;
    private final long windowSize;
    private final long segmentInterval;
    private final boolean retainDuplicates;
    private final Format format;

    LeveldbWindowBytesStoreSupplier(String name, long retentionPeriod, long windowSize, boolean retainDuplicates,
                                    Format format) {
        this.name = name;
        this.retentionPeriod = retentionPeriod;
        this.windowSize = windowSize;
        this.segmentInterval = Math.max(retentionPeriod / 2, 60_000L);
        this.retainDuplicates = retainDuplicates;
        this.format = format;
    }

    /**
     * Validates the arguments as Kafka's {@code Stores.persistentWindowStore} does.
     *
     * @return a supplier
     * @throws NullPointerException if {@code name} is {@code null}
     * @throws IllegalArgumentException if a duration is negative, not representable in
     *     milliseconds, or the window size exceeds the retention period
     */
    static LeveldbWindowBytesStoreSupplier create(String name, Duration retentionPeriod, Duration windowSize,
                                                  boolean retainDuplicates, Format format) {
        Objects.requireNonNull(name, "name cannot be null");
        long retentionMs = ApiUtils.validateMillisecondDuration(retentionPeriod,
                ApiUtils.prepareMillisCheckFailMsgPrefix(retentionPeriod, "retentionPeriod"));
        long windowSizeMs = ApiUtils.validateMillisecondDuration(windowSize,
                ApiUtils.prepareMillisCheckFailMsgPrefix(windowSize, "windowSize"));
        if (retentionMs < 0L) {
            throw new IllegalArgumentException("retentionPeriod cannot be negative");
        }
        if (windowSizeMs < 0L) {
            throw new IllegalArgumentException("windowSize cannot be negative");
        }
        if (windowSizeMs > retentionMs) {
            throw new IllegalArgumentException("The retention period of the window store " + name
                    + " must be no smaller than its window size. Got size=[" + windowSize + "], retention=["
                    + retentionPeriod + "]");
        }
        return format == Format.HEADERS
                ? new LeveldbWindowHeadersBytesStoreSupplier(name, retentionMs, windowSizeMs, retainDuplicates)
                : new LeveldbWindowBytesStoreSupplier(name, retentionMs, windowSizeMs, retainDuplicates, format);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public WindowStore<Bytes, byte[]> get() {
        return switch (format) {
            case PLAIN -> new LeveldbWindowStore(name, retentionPeriod, windowSize, segmentInterval, retainDuplicates);
            case TIMESTAMPED -> new LeveldbTimestampedWindowStore(name, retentionPeriod, windowSize, segmentInterval,
                    retainDuplicates);
            case HEADERS -> new LeveldbTimestampedWindowStoreWithHeaders(name, retentionPeriod, windowSize,
                    segmentInterval, retainDuplicates);
        };
    }

    @Override
    public String metricsScope() {
        return LeveldbKeyValueBytesStoreSupplier.METRICS_SCOPE;
    }

    /** @return {@code max(retentionPeriod / 2, 60,000 ms)}, as Kafka's RocksDB window stores */
    @Override
    public long segmentIntervalMs() {
        return segmentInterval;
    }

    @Override
    public long windowSize() {
        return windowSize;
    }

    @Override
    public boolean retainDuplicates() {
        return retainDuplicates;
    }

    @Override
    public long retentionPeriod() {
        return retentionPeriod;
    }

    @Override
    public String toString() {
        return "LeveldbWindowBytesStoreSupplier(" + name + ", " + format + ", retention=" + retentionPeriod
                + "ms, size=" + windowSize + "ms" + (retainDuplicates ? ", duplicates)" : ")");
    }
}
