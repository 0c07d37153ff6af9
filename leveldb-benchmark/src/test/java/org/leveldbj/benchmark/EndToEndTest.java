package org.leveldbj.benchmark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.leveldbj.testing.PeerExtension;

/**
 * Every workload on every implementation, with 2,000 entries. A peer that cannot load here is
 * skipped with a banner, except under CI (CI=true), where every peer must load ({@link PeerExtension}).
 */
@ExtendWith(PeerExtension.class)
class EndToEndTest {
    private static final int NUM = 2000;
    private static final Pattern TIMED =
            Pattern.compile("[a-zA-Z0-9]+ +: +[0-9]+\\.[0-9]{3} micros/op;.*");

    /** Each workload, in an order where the found counts are known. */
    private static final List<String> EVERY_WORKLOAD = List.of(
            "fillseq", "readrandom", "readseq", "readreverse", "readmissing", "readhot",
            "seekrandom", "seekordered", "readrandomsmall", "compact", "stats", "sstables",
            "overwrite", "fillbatch", "deleteseq", "readrandom", "fillrandom", "deleterandom",
            "fillsync", "fill100K", "readseq");

    @TempDir
    Path temp;

    @ParameterizedTest
    @ValueSource(strings = {"leveldbj", "iq80", "leveldbjni", "rocksdb", "h2"})
    void everyWorkload(String impl) {
        Impl loaded = Peers.loadOrSkip(impl);
        Run run = run("--impl=" + impl, "--num=" + NUM,
                "--benchmarks=" + String.join(",", EVERY_WORKLOAD));
        assertEquals(0, run.code, run.err);
        List<String> lines = run.resultLines();
        List<String> expected = new ArrayList<>(EVERY_WORKLOAD);
        expected.removeAll(List.of("stats", "sstables"));
        assertEquals(expected.size(), lines.size(), run.out);
        for (int i = 0; i < expected.size(); i++) {
            String line = lines.get(i);
            assertTrue(line.startsWith(String.format("%-12s : ", expected.get(i))), line);
            boolean skippable = expected.get(i).equals("readreverse")
                    && !loaded.supports(Impl.Feature.REVERSE_ITERATION)
                    || expected.get(i).equals("compact") && impl.equals("iq80");
            assertTrue(TIMED.matcher(line).matches()
                    || skippable && line.contains(": skipped ("), line);
        }
        assertTrue(lines.get(0).endsWith(" MB/s"), lines.get(0));
        assertTrue(lines.get(1).endsWith("(2000 of 2000 found)"), lines.get(1));
        assertTrue(lines.get(2).matches(".* MB/s"), lines.get(2));
        assertTrue(lines.get(6).endsWith("(2000 of 2000 found)"), lines.get(6));
        assertTrue(lines.get(7).endsWith("(2000 of 2000 found)"), lines.get(7));
        assertTrue(lines.get(8).endsWith("(2 of 2000 found)"), lines.get(8));
        assertTrue(lines.get(13).endsWith("(0 of 2000 found)"), lines.get(13));
        assertTrue(lines.get(16).endsWith("MB/s (2 ops)"), lines.get(16));
        assertTrue(lines.get(17).endsWith("MB/s (2 ops)"), lines.get(17));
        if (loaded.supports(Impl.Feature.REVERSE_ITERATION)) {
            assertTrue(lines.get(3).matches(".* MB/s"), lines.get(3));
        }
        assertTrue(run.out.contains("LevelDB:    " + loaded), run.out);
    }

    /**
     * Enough writes for several memtable flushes and compactions, so that each engine's
     * background work runs and loads its classes: a peer whose directory lacks a library fails
     * only there (iq80 without Guava's failureaccess jar then loops, writing tables without end).
     * It runs as {@code bin/db-bench} does, in a JVM of its own with the runner's class path,
     * which is killed if it does not finish in time. iq80 0.12 only fills: its reads after
     * flushes of small memtables sometimes fail with its own "Could not open table N" (a defect
     * of iq80, seen with 64 and 256 KiB write buffers), while a missing library stalls its fill.
     */
    @ParameterizedTest
    @ValueSource(strings = {"leveldbj", "iq80", "leveldbjni", "rocksdb", "h2"})
    void backgroundWorkRunsInTheRunnersJvm(String impl) throws Exception {
        Peers.loadOrSkip(impl);
        int num = 20_000;
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Path output = temp.resolve("out.txt");
        boolean reads = !impl.equals("iq80");
        Process child = new ProcessBuilder(java.toString(), "-Xmx512m",
                "-cp", System.getProperty("java.class.path"),
                "-Dleveldbj.bench.peers=" + System.getProperty("leveldbj.bench.peers"),
                DbBench.class.getName(), "--impl=" + impl, "--num=" + num, "--warmup=0",
                "--write_buffer_size=262144", "--db=" + temp.resolve("db"),
                "--benchmarks=" + (reads ? "fillrandom,readrandom" : "fillrandom"))
                .redirectErrorStream(true)
                .redirectOutput(output.toFile())
                .start();
        if (!child.waitFor(60, TimeUnit.SECONDS)) {
            child.destroyForcibly().waitFor();
            fail(impl + " did not finish within 60 s:\n" + Files.readString(output));
        }
        String out = Files.readString(output);
        assertEquals(0, child.exitValue(), out);
        List<String> lines = new Run(0, out, "").resultLines();
        assertEquals(reads ? 2 : 1, lines.size(), out);
        for (String line : lines) {
            assertTrue(TIMED.matcher(line).matches(), line);
        }
        if (!reads) {
            return;
        }
        // Random keys with repeats: about 1 - 1/e of the key space was written.
        Matcher found = Pattern.compile("\\((\\d+) of " + num + " found\\)$").matcher(lines.get(1));
        assertTrue(found.find(), lines.get(1));
        assertTrue(Integer.parseInt(found.group(1)) > num / 2, lines.get(1));
    }

    @Test
    void peersAreNotOnTheClassPath() {
        for (String peerClass : List.of("org.iq80.leveldb.impl.Iq80DBFactory",
                "org.fusesource.leveldbjni.JniDBFactory", "org.rocksdb.RocksDB", "org.h2.mvstore.MVStore")) {
            assertThrows(ClassNotFoundException.class, () -> Class.forName(peerClass),
                    peerClass);
        }
    }

    @Test
    void threadsShareOneReport() {
        Run run = run("--num=" + NUM, "--threads=2", "--benchmarks=fillseq,readrandom,readseq");
        assertEquals(0, run.code, run.err);
        List<String> lines = run.resultLines();
        assertEquals(3, lines.size(), run.out);
        assertTrue(lines.get(1).endsWith("(2000 of 2000 found)"), lines.get(1));
        assertTrue(run.out.contains("threads=2"), run.out);
    }

    @Test
    void histogramFollowsEachLine() {
        Run run = run("--num=" + NUM, "--histogram=1", "--benchmarks=fillrandom,readrandom");
        assertEquals(0, run.code, run.err);
        assertEquals(2, run.out.split("Microseconds per op:", -1).length - 1, run.out);
        assertTrue(run.out.contains("Count: 2000  Average: "), run.out);
    }

    @Test
    void warmUpRunsFirstOnAScratchDatabaseUnlessDisabled() {
        Run warm = run("--num=" + NUM, "--benchmarks=fillseq,readseq");
        assertEquals(0, warm.code, warm.err);
        assertTrue(warm.out.contains("Warm-up:    " + NUM / 5 + " entries per workload"), warm.out);
        assertTrue(warm.err.contains("Warming up: running the workloads on " + NUM / 5 + " entries"), warm.err);
        assertTrue(warm.err.contains("\nWarmed up:  "), warm.err);
        assertEquals(2, warm.resultLines().size(), warm.out);
        Run cold = run("--num=" + NUM, "--warmup=0", "--benchmarks=fillseq");
        assertEquals(0, cold.code, cold.err);
        assertTrue(cold.out.contains("Warm-up:    none (cold JVM)"), cold.out);
        assertTrue(!cold.err.contains("Warm"), cold.err);
        Run zeroCache = run("--num=" + NUM, "--warmup=0", "--cache_size=0", "--benchmarks=fillseq");
        assertEquals(0, zeroCache.code, zeroCache.err);
        assertTrue(zeroCache.out.contains("WARNING: leveldbj") && zeroCache.out.contains("cache size of 0"),
                zeroCache.out);
        Run bad = run("--warmup=-2");
        assertEquals(2, bad.code);
        assertTrue(bad.err.contains("--warmup=-2"), bad.err);
    }

    @Test
    void theWholeHeaderIsOnStandardOutput() {
        Run run = run("--num=" + NUM, "--warmup=0", "--cache_size=0", "--benchmarks=fillseq");
        assertEquals(0, run.code, run.err);
        String header = run.out.substring(0, run.out.indexOf(Header.RULE));
        List<String> starts = new ArrayList<>(List.of("LevelDB:    leveldbj", "Date:       ", "JVM:        ",
                "Heap:       ", "Keys:       16 bytes each", "Values:     ", "Entries:    2000", "RawSize:    ",
                "FileSize:   ", "Options:    ", "Warm-up:    none", "WARNING: ", "Legend:     micros/op: "));
        if (Files.isReadable(Path.of("/proc/cpuinfo"))) {
            starts.addAll(List.of("CPU:        ", "CPUCache:   "));
        }
        for (String start : starts) {
            assertTrue(header.startsWith(start) || header.contains("\n" + start), start + " in\n" + header);
        }
        assertTrue(run.out.startsWith("LevelDB:    "), run.out);
        assertEquals("", run.err);
    }

    /**
     * The legend's explanation of the found counts: a read finds its key when one of the random
     * fills before it drew that key, which fillrandom does for about 1 - 1/e of the key space and
     * fillrandom with overwrite for about 1 - 1/e^2. The threads' seeds are 1000 + the number of
     * threads started before, one per workload here.
     */
    @Test
    void foundCountsTheReadsOfKeysThatTheRandomFillsDrew() {
        int num = 10_000;
        Run run = run("--num=" + num, "--warmup=0", "--benchmarks=fillrandom,readrandom,overwrite,readrandom");
        assertEquals(0, run.code, run.err);
        List<String> lines = run.resultLines();
        Set<Integer> written = new HashSet<>();
        draw(1001, num, written);
        assertEquals(1 - Math.exp(-1), written.size() / (double) num, 0.01);
        assertTrue(lines.get(1).endsWith("(" + found(1002, num, written) + " of " + num + " found)"), lines.get(1));
        draw(1003, num, written);
        assertEquals(1 - Math.exp(-2), written.size() / (double) num, 0.01);
        assertTrue(lines.get(3).endsWith("(" + found(1004, num, written) + " of " + num + " found)"), lines.get(3));
        assertTrue(run.out.contains("63% of them (1 - 1/e)") && run.out.contains("86% (1 - 1/e^2)"), run.out);
    }

    /** Adds the keys a writer with this seed draws. */
    private static void draw(int seed, int num, Set<Integer> keys) {
        BenchRandom random = new BenchRandom(seed);
        for (int i = 0; i < num; i++) {
            keys.add(random.uniform(num));
        }
    }

    /** How many of the keys a reader with this seed draws are in {@code keys}. */
    private static int found(int seed, int num, Set<Integer> keys) {
        BenchRandom random = new BenchRandom(seed);
        int found = 0;
        for (int i = 0; i < num; i++) {
            found += keys.contains(random.uniform(num)) ? 1 : 0;
        }
        return found;
    }

    @Test
    void existingDatabaseIsKept() {
        String db = "--db=" + temp.resolve("db");
        Run fill = run(db, "--num=" + NUM, "--benchmarks=fillseq,stats");
        assertEquals(0, fill.code, fill.err);
        assertTrue(Files.isDirectory(temp.resolve("db")), "kept");
        Run read = run(db, "--num=" + NUM, "--use_existing_db=1",
                "--benchmarks=fillrandom,readrandom");
        assertEquals(0, read.code, read.err);
        List<String> lines = read.resultLines();
        assertEquals("fillrandom   : skipped (--use_existing_db is true)", lines.get(0));
        assertTrue(lines.get(1).endsWith("(2000 of 2000 found)"), lines.get(1));
    }

    @Test
    void bloomAndZstdOnLeveldbj() {
        Run run = run("--num=" + NUM, "--bloom_bits=10", "--compression=zstd",
                "--cache_size=1048576", "--max_file_size=65536",
                "--benchmarks=fillrandom,readrandom,readmissing");
        assertEquals(0, run.code, run.err);
        assertTrue(run.out.contains("compression=zstd"), run.out);
        assertTrue(!run.out.contains("WARNING"), run.out);
    }

    @Test
    void unsupportedOptionsOfPeers() {
        Peers.loadOrSkip("iq80");
        Run bloom = run("--impl=iq80", "--num=100", "--bloom_bits=10", "--benchmarks=fillseq");
        assertEquals(0, bloom.code, bloom.err);
        assertTrue(bloom.out.contains("WARNING: iq80 0.12 has no bloom filters: --bloom_bits"
                + " ignored"), bloom.out);
        Run zstd = run("--impl=iq80", "--num=100", "--compression=zstd");
        assertEquals(2, zstd.code);
        assertEquals("--compression=zstd: iq80 0.12 cannot write zstd blocks (leveldbj and"
                + " rocksdb can)", zstd.err.trim());
    }

    private static Run run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = DbBench.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8),
                new Progress(new PrintStream(err, true, StandardCharsets.UTF_8), false));
        return new Run(code, out.toString(StandardCharsets.UTF_8),
                err.toString(StandardCharsets.UTF_8));
    }

    private static final class Run {
        final int code;
        final String out;
        final String err;

        Run(int code, String out, String err) {
            this.code = code;
            this.out = out;
            this.err = err;
        }

        /** The lines after the header's rule that report a workload. */
        List<String> resultLines() {
            List<String> lines = new ArrayList<>();
            boolean body = false;
            for (String line : out.split("\\R")) {
                if (line.equals(Header.RULE)) {
                    body = true;
                } else if (body && line.matches("[a-zA-Z0-9]+ +: .*")) {
                    lines.add(line);
                }
            }
            return lines;
        }
    }
}
