package org.leveldbj.benchmark.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * Runs every JMH experiment in this JVM with tiny settings (no fork, no warm-up, one 50 ms
 * iteration, small databases) and checks that each benchmark method of each parameter
 * combination produced a score.
 */
class JmhSmokeTest {

    /**
     * Creates the temporary directory (the build points it into target), where JMH puts its
     * lock file and the benchmarks their databases.
     *
     * @throws IOException if it cannot be created
     */
    @BeforeAll
    static void temporaryDirectory() throws IOException {
        Files.createDirectories(Path.of(System.getProperty("java.io.tmpdir")));
    }

    private static Collection<RunResult> run(Class<?> benchmark, Map<String, String> params) throws RunnerException {
        ChainedOptionsBuilder options = new OptionsBuilder()
                .include("^" + benchmark.getName().replace(".", "\\.") + "\\.")
                .forks(0)
                .warmupIterations(0)
                .measurementIterations(1)
                .measurementTime(TimeValue.milliseconds(50))
                .shouldFailOnError(true)
                .verbosity(VerboseMode.SILENT);
        params.forEach(options::param);
        return new Runner(options.build()).run();
    }

    private static void check(Collection<RunResult> results, int expected) {
        assertEquals(expected, results.size(), "benchmark runs");
        for (RunResult result : results) {
            double score = result.getPrimaryResult().getScore();
            assertTrue(score > 0 && Double.isFinite(score), result.getParams() + ": score " + score);
        }
    }

    @Test
    void putGetDelete() throws RunnerException {
        check(run(PutGetDeleteBenchmark.class, Map.of("keys", "2000")), 4 * 2);
    }

    @Test
    void sync() throws RunnerException {
        check(run(SyncBenchmark.class, Map.of("keys", "2000")), 4);
    }

    @Test
    void batchSize() throws RunnerException {
        Collection<RunResult> results = run(BatchSizeBenchmark.class, Map.of("keys", "2000"));
        check(results, 6);
        for (RunResult result : results) {
            assertTrue(result.getSecondaryResults().containsKey("keys"), "keys counted for " + result.getParams());
            assertTrue(result.getSecondaryResults().get("keys").getScore() > 0, "keys per second for " + result.getParams());
        }
    }

    @Test
    void snapshotScan() throws RunnerException {
        check(run(SnapshotScanBenchmark.class, Map.of("keys", "2000")), 1);
    }

    @Test
    void bloomFilter() throws RunnerException {
        check(run(BloomFilterBenchmark.class, Map.of("keys", "5000")), 2 * 2);
    }

    @Test
    void compression() throws RunnerException {
        check(run(CompressionBenchmark.class, Map.of("keys", "2000")), 2 * 3);
    }

    @Test
    void iteration() throws RunnerException {
        check(run(IterationBenchmark.class, Map.of("keys", "2000")), 2 * 3);
    }

    @Test
    void readPath() throws RunnerException {
        check(run(ReadPathBenchmark.class, Map.of("keys", "2000")), 4 * 2);
    }

    @Test
    void multiGet() throws RunnerException {
        check(run(MultiGetBenchmark.class, Map.of("keys", "2000")), 3 * 3);
    }

    @Test
    void prefixScan() throws RunnerException {
        check(run(PrefixScanBenchmark.class, Map.of("keys", "2000")), 4 * 2);
    }

    @Test
    void blockCache() throws RunnerException {
        check(run(BlockCacheBenchmark.class, Map.of("capacityMb", "1")), 2);
    }

    @Test
    void compaction() throws RunnerException {
        check(run(CompactionBenchmark.class, Map.of("keys", "5000")), 1);
    }

    @Test
    void compactionFilter() throws RunnerException {
        check(run(CompactionFilterBenchmark.class, Map.of("keys", "5000")), 3);
    }

    @Test
    void keyComparison() throws RunnerException {
        check(run(KeyComparisonBenchmark.class, Map.of("keySize", "40")), 3);
    }

    @Test
    void entryCount() throws RunnerException {
        check(run(EntryCountBenchmark.class, Map.of("keys", "20000")), 2);
    }
}
