package org.leveldbj.benchmark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.DBIterator;
import org.iq80.leveldb.Options;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.leveldbj.db.LevelDbFactory;

/**
 * The workloads of the scale measurements: shorter keys, the read/write mix, reads while a
 * writer writes, their per-kind latency histograms, {@code --duration} and the memory line,
 * each checked against a model of the draws the runner makes (the C++ runner makes the same).
 */
class ScaleWorkloadsTest {
    private static final Pattern COUNTS =
            Pattern.compile("\\( reads:([0-9]+) writes:([0-9]+) found:([0-9]+) \\)");

    @TempDir
    Path temp;

    /**
     * Per operation: the kind's draw, then the key's; with fillseq first, every read finds its
     * key. Two threads, seeded after fillseq's two (1001, 1002) with 1003 and 1004.
     */
    @Test
    void theMixDrawsKindThenKeyAndCountsEachKindApart() throws IOException {
        int num = 10_000;
        String db = temp.resolve("db").toString();
        String out = run(0, "--db=" + db, "--num=" + num, "--key_size=10", "--warmup=0",
                "--threads=2", "--readwritepercent=9", "--histogram=1",
                "--benchmarks=fillseq,readrandomwriterandom");
        long reads = 0;
        long writes = 0;
        for (int seed : new int[] {1003, 1004}) {
            BenchRandom random = new BenchRandom(seed);
            for (int i = 0; i < num; i++) {
                boolean read = random.uniform(100) < 9;
                random.uniform(num);
                if (read) {
                    reads++;
                } else {
                    writes++;
                }
            }
        }
        Matcher counts = COUNTS.matcher(out);
        assertTrue(counts.find(), out);
        assertEquals(reads, Long.parseLong(counts.group(1)), out);
        assertEquals(writes, Long.parseLong(counts.group(2)), out);
        assertEquals(reads, Long.parseLong(counts.group(3)), out);
        assertTrue(out.contains("Microseconds per read:\nCount: " + reads + "  Average: "), out);
        assertTrue(out.contains("Microseconds per write:\nCount: " + writes + "  Average: "), out);
        assertTrue(out.contains("key_size=10 readwritepercent=9"), out);
        assertTrue(out.contains("Keys:       10 bytes each"), out);
        try (DB opened = LevelDbFactory.factory.open(new File(db), new Options());
                DBIterator it = opened.iterator()) {
            int entries = 0;
            for (it.seekToFirst(); it.hasNext(); entries++) {
                Map.Entry<byte[], byte[]> entry = it.next();
                assertEquals(String.format("%010d", entries),
                        new String(entry.getKey(), StandardCharsets.US_ASCII));
            }
            assertEquals(num, entries);
        }
    }

    /** Every histogram's percentile line rises with the percentile and ends at the maximum. */
    @Test
    void percentileLinesFollowEachKind() {
        String out = run(0, "--num=2000", "--warmup=0", "--histogram=1",
                "--benchmarks=fillrandom,readrandomwriterandom");
        Matcher line = Pattern.compile("Percentiles: P50: ([0-9.]+) P99: ([0-9.]+) P99\\.9: ([0-9.]+)"
                + " P99\\.99: ([0-9.]+) Max: ([0-9.]+)").matcher(out);
        int lines = 0;
        while (line.find()) {
            lines++;
            for (int g = 1; g < 5; g++) {
                assertTrue(Double.parseDouble(line.group(g)) <= Double.parseDouble(line.group(g + 1)),
                        line.group());
            }
        }
        assertEquals(3, lines, out); // fillrandom's op, the mix's read and write
    }

    /**
     * The readers' line is readrandom's, with the writer's count; the writer ran until they
     * finished, so its histogram, when it made any write, counts exactly those writes.
     */
    @Test
    void readWhileWritingReportsTheReadersAndTheWriter() {
        String out = run(0, "--num=2000", "--warmup=0", "--threads=2", "--histogram=1",
                "--benchmarks=fillseq,readwhilewriting");
        Matcher line = Pattern.compile("readwhilewriting : +[0-9.]+ micros/op; "
                + "\\(2000 of 2000 found\\) \\(writer: ([0-9]+) writes\\)").matcher(out);
        assertTrue(line.find(), out);
        long writes = Long.parseLong(line.group(1));
        assertTrue(out.contains("Microseconds per read:\nCount: 4000  Average: "), out);
        if (writes > 0) {
            assertTrue(out.contains("Microseconds per write:\nCount: " + writes + "  Average: "), out);
        }
    }

    @Test
    void durationCutsTheMixShort() {
        long start = System.nanoTime();
        String out = run(0, "--num=1000", "--warmup=0", "--reads=2000000000", "--duration=1",
                "--benchmarks=fillseq,readrandomwriterandom");
        Matcher counts = COUNTS.matcher(out);
        assertTrue(counts.find(), out);
        long done = Long.parseLong(counts.group(1)) + Long.parseLong(counts.group(2));
        assertTrue(done > 0 && done < 2_000_000_000L, out);
        assertTrue(System.nanoTime() - start < 60_000_000_000L, "took " + (System.nanoTime() - start) + " ns");
    }

    @Test
    void memoryLineFollowsEachTimedWorkload() {
        String out = run(0, "--num=2000", "--warmup=0", "--memory=1", "--benchmarks=fillseq,stats,readrandom");
        Matcher line = Pattern.compile("(?m)^memory: (.*)$").matcher(out);
        int lines = 0;
        while (line.find()) {
            lines++;
            String fields = line.group(1);
            assertTrue(fields.matches("([a-z]+=[0-9]+\\.[0-9] MB ?)+"), fields);
            assertTrue(fields.contains("heap=") && fields.contains("direct=") && fields.contains("db="), fields);
            if (new File("/proc/self/status").canRead()) {
                assertTrue(fields.startsWith("rss=") && fields.contains(" hwm=") && fields.contains(" anon="), fields);
            }
        }
        assertEquals(2, lines, out);
    }

    @Test
    void flagsOfTheScaleWorkloadsAreChecked() {
        assertTrue(run(2, "--num=2000", "--key_size=3").contains(
                "Invalid flag '--key_size=3' (--num=2000 needs more digits)"));
        assertTrue(run(2, "--key_size=17").contains("Invalid flag '--key_size=17'"));
        assertTrue(run(2, "--readwritepercent=101").contains("Invalid flag '--readwritepercent=101'"));
        assertTrue(run(2, "--duration=-1").contains("Invalid flag '--duration=-1'"));
        assertTrue(run(2, "--memory=2").contains("Invalid flag '--memory=2' (0 or 1)"));
    }

    /** Runs the runner, asserts its exit code, and returns standard output (or error, when it failed). */
    private static String run(int expectedCode, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream errStream = new PrintStream(err, true, StandardCharsets.UTF_8);
        int code = DbBench.run(args, new PrintStream(out, true, StandardCharsets.UTF_8), errStream,
                new Progress(errStream, false));
        String text = out.toString(StandardCharsets.UTF_8);
        String errors = err.toString(StandardCharsets.UTF_8);
        assertEquals(expectedCode, code, text + errors);
        return code == 0 ? text : errors;
    }
}
