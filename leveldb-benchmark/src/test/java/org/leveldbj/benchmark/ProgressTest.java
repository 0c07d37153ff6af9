package org.leveldbj.benchmark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The progress lines on standard error: one count per workload, in order, naming it. */
class ProgressTest {
    private static final Pattern FINISHED = Pattern.compile("\\.\\.\\. (.+): finished (\\d+) ops");
    private static final Pattern WAITING = Pattern.compile("\\.\\.\\. (warm-up .+): done, waiting for the JIT to go quiet");

    /**
     * A run with several threads and a warm-up, reported as on a terminal (every threshold):
     * each workload's lines name it and count up over all its threads, and the workloads come
     * one after the other, the warm-up's first.
     */
    @Test
    void theLinesOfARunAreInOrderAndNameTheirWorkload() {
        int threads = 3;
        int num = 2000;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        ByteArrayOutputStream lines = new ByteArrayOutputStream();
        int code = DbBench.run(new String[] {"--num=" + num, "--threads=" + threads,
            "--benchmarks=fillseq,readrandom,readseq"}, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8),
                new Progress(new PrintStream(lines, true, StandardCharsets.UTF_8), true));
        String text = lines.toString(StandardCharsets.UTF_8);
        assertEquals(0, code, err.toString(StandardCharsets.UTF_8));
        assertTrue(!out.toString(StandardCharsets.UTF_8).contains("finished"), "no progress on standard output");

        // Runs of workloads: a new one starts when the name changes or the warm-up has waited.
        List<String> runs = new ArrayList<>();
        List<Long> lastCounts = new ArrayList<>();
        boolean waited = true;
        for (String line : text.split("[\r\n]")) {
            line = line.strip();
            Matcher finished = FINISHED.matcher(line);
            if (finished.matches()) {
                String label = finished.group(1);
                long count = Long.parseLong(finished.group(2));
                if (waited || !label.equals(runs.get(runs.size() - 1))) {
                    runs.add(label);
                    lastCounts.add(0L);
                    waited = false;
                }
                long previous = lastCounts.get(lastCounts.size() - 1);
                assertTrue(count > previous, label + ": " + count + " after " + previous + " in\n" + text);
                lastCounts.set(lastCounts.size() - 1, count);
            } else if (WAITING.matcher(line).matches()) {
                assertEquals(WAITING.matcher(line).replaceFirst("$1"), runs.get(runs.size() - 1), line);
                waited = true;
            } else {
                assertEquals("", line, text);
            }
        }
        assertEquals(List.of("warm-up fillrandom", "warm-up fillseq", "warm-up readrandom", "warm-up readseq",
                "warm-up readseq (2)", "warm-up readseq (3)", "fillseq", "readrandom", "readseq"), runs, text);
        // The count is the sum over the threads: 3 * 2000 meets the threshold 6000.
        assertEquals(List.of((long) threads * num, (long) threads * num, (long) threads * num),
                lastCounts.subList(6, 9), text);
    }

    /** Threads adding at once: every threshold the sum passes is reported once, in order. */
    @Test
    void concurrentAdditionsReportEachThresholdOnceInOrder() throws Exception {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Progress progress = new Progress(new PrintStream(err, true, StandardCharsets.UTF_8), true);
        Progress.Counter counter = progress.start("fillrandom");
        int threads = 4;
        int steps = 5000;
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> started = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Thread thread = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int i = 0; i < steps; i++) {
                    counter.add(Stats.REPORT_STEP);
                }
            });
            thread.start();
            started.add(thread);
        }
        start.countDown();
        for (Thread thread : started) {
            thread.join();
        }
        long total = (long) threads * steps * Stats.REPORT_STEP;
        assertEquals(total, counter.done());
        List<Long> expected = new ArrayList<>();
        for (long t = 100; t <= total; t = Progress.nextThreshold(t)) {
            expected.add(t);
        }
        List<Long> seen = new ArrayList<>();
        for (String line : err.toString(StandardCharsets.UTF_8).split("\r")) {
            Matcher m = FINISHED.matcher(line.strip());
            if (m.matches()) {
                assertEquals("fillrandom", m.group(1), line);
                seen.add(Long.parseLong(m.group(2)));
            }
        }
        assertEquals(expected, seen);
    }

    /** Without a terminal, a line at most every few seconds, and none before the first interval. */
    @Test
    void withoutATerminalALineEveryFewSeconds() {
        long[] now = {0};
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Progress progress = new Progress(new PrintStream(err, true, StandardCharsets.UTF_8), false, () -> now[0]);
        Progress.Counter counter = progress.start("readrandom");
        counter.add(100);
        now[0] = Progress.QUIET_INTERVAL_NANOS - 1;
        counter.add(100);
        now[0] = Progress.QUIET_INTERVAL_NANOS;
        counter.add(100);
        counter.add(100);
        now[0] = 2 * Progress.QUIET_INTERVAL_NANOS;
        counter.add(100);
        progress.clear();
        assertEquals("... readrandom: finished 300 ops\n... readrandom: finished 500 ops\n",
                err.toString(StandardCharsets.UTF_8).replace(System.lineSeparator(), "\n"));
    }

    /** On a terminal, the line written in place is blanked before the report goes on. */
    @Test
    void clearBlanksTheLineInPlace() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Progress progress = new Progress(new PrintStream(err, true, StandardCharsets.UTF_8), true);
        progress.start("fillseq").add(100);
        progress.clear();
        progress.clear();
        String text = err.toString(StandardCharsets.UTF_8);
        String line = "... fillseq: finished 100 ops" + " ".repeat(30);
        assertEquals("\r" + line + "\r" + "\r" + " ".repeat(line.length()) + "\r", text);
    }
}
