/**
 * Micrometer meters for leveldbj databases: {@link org.leveldbj.micrometer.LevelDbMetrics}, a
 * {@code MeterBinder} that publishes every figure of {@link org.iq80.leveldb.ExtendedDB#statistics()}.
 *
 * <h2>Contract</h2>
 * <ul>
 *   <li>One meter per {@link org.iq80.leveldb.Metric}, named {@code "leveldb." + metric.key()}
 *       (for instance {@code leveldb.keys.written}, {@code leveldb.level.bytes}); a per-level
 *       figure has one meter per level, tagged {@code level} ({@code "0"} to {@code "6"}).</li>
 *   <li>Every meter is tagged {@code database} with the name given to the binder, plus the tags
 *       given to it.</li>
 *   <li>Counters are {@code FunctionCounter}s, gauges are {@code Gauge}s. Base units are
 *       Micrometer's: {@code bytes} for byte figures, {@code seconds} for the stall times (the
 *       engine's nanoseconds divided by 10<sup>9</sup>), none for counts.</li>
 *   <li>Each reading takes a fresh snapshot of the database (no database lock is taken, see
 *       {@code ExtendedDB.statistics()}); once the database is closed every meter reads
 *       {@code NaN}. Remove the meters ({@code MeterRegistry.remove}) when the database is
 *       closed for good.</li>
 *   <li>The binder holds the database weakly through the meters, as Micrometer's binders do:
 *       a database no longer referenced elsewhere is not kept alive by the registry.</li>
 * </ul>
 *
 * <p>Micrometer ({@code io.micrometer:micrometer-core}) is a {@code provided} dependency: the
 * application brings its own.
 *
 * <p>Thread safety: a binder may be bound to any number of registries from any thread; the meters
 * may be read concurrently.
 */
package org.leveldbj.micrometer;
