package org.leveldbj.kafka.streams;

import java.util.function.LongSupplier;
import org.apache.kafka.common.metrics.Gauge;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.streams.StreamsMetrics;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.processor.internals.metrics.StreamsMetricsImpl;

/**
 * A store's gauges in Kafka Streams' metrics, at the store level (group
 * {@code stream-state-metrics}, tags {@code thread-id}, {@code task-id} and
 * {@code leveldbj-state-id}), recorded at the INFO level like RocksDB's property-based metrics:
 * <ul>
 *   <li>{@code total-sst-files-size}: bytes of the store's table files (approximate);</li>
 *   <li>{@code size-all-mem-tables}: bytes of its memtables;</li>
 *   <li>{@code number-of-files}: its table files;</li>
 *   <li>{@code compactions-total} and {@code compaction-bytes-written-total}: compaction steps
 *       (memtable flushes included) since the store opened, and the bytes they wrote.</li>
 * </ul>
 * The names follow RocksDB's store metrics where one exists. Kafka Streams' metrics registry
 * ({@code StreamsMetricsImpl}) is needed; with another implementation (a test's mock) nothing is
 * registered.
 *
 * <p>Thread safety: gauges are read by metrics reporters on any thread; they read the database
 * (its properties take the database lock briefly) and read 0 once the store is closed.
 */
final class StoreMetrics {
    private final StreamsMetricsImpl metrics;
    private final String taskId;
    private final String storeName;

    private StoreMetrics(StreamsMetricsImpl metrics, String taskId, String storeName) {
        this.metrics = metrics;
        this.taskId = taskId;
        this.storeName = storeName;
    }

    /**
     * Registers a store's gauges.
     *
     * @param context the store's context
     * @param store the store's database
     * @return the registration, to {@link #remove()} when the store closes; {@code null} when
     *     the context's metrics are not Kafka Streams' own
     */
    static StoreMetrics register(StateStoreContext context, StoreDatabase store) {
        StreamsMetrics m = context.metrics();
        if (!(m instanceof StreamsMetricsImpl impl)) {
            return null;
        }
        StoreMetrics registration = new StoreMetrics(impl, context.taskId().toString(), store.name());
        registration.add("total-sst-files-size", "bytes of the store's table files (approximate)", store::tableBytes);
        registration.add("size-all-mem-tables", "bytes of the store's memtables",
                () -> store.longProperty("leveldbj.memtable-bytes"));
        registration.add("number-of-files", "table files of the store", () -> store.longProperty("leveldbj.num-files"));
        registration.add("compactions-total", "compaction steps since the store opened, memtable flushes included",
                () -> store.longProperty("leveldbj.num-compactions"));
        registration.add("compaction-bytes-written-total", "bytes written by compactions since the store opened",
                () -> store.longProperty("leveldbj.compaction-bytes-written"));
        return registration;
    }

    private void add(String name, String description, LongSupplier value) {
        metrics.addStoreLevelMutableMetric(taskId, LeveldbKeyValueBytesStoreSupplier.METRICS_SCOPE, storeName, name,
                description, Sensor.RecordingLevel.INFO, (Gauge<Long>) (config, now) -> value.getAsLong());
    }

    /** Removes the gauges, as the store closes. */
    void remove() {
        metrics.removeAllStoreLevelSensorsAndMetrics(taskId, storeName);
    }
}
