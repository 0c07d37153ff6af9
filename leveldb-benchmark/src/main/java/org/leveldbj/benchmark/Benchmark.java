package org.leveldbj.benchmark;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.Options;

/**
 * Runs the workloads in order on one database, as db_bench does: a workload that wants a fresh
 * database gets the old one destroyed first; each workload runs in {@code --threads} threads,
 * each doing the full count of operations with its own random stream (seeded 1000 + the number
 * of threads started so far), and prints one merged line. A workload with a background
 * operation (readwhilewriting's writer) starts one more thread after those, which runs until
 * they have finished and is left out of the line but for its latencies and a count in the
 * message. With {@code --memory=1} a {@link MemoryReport} line follows each timed workload's.
 */
final class Benchmark {
    private final Flags flags;
    private final Impl impl;
    private final DbOptions dbOptions;
    private final File dir;
    private final PrintStream out;
    private final Progress progress;
    private final ValueGenerator values;
    private DB db;
    private int threadsStarted;
    private AfterWorkload afterWorkload = AfterWorkload.NONE;
    private String progressPrefix = "";
    /** How many times each workload has run, so that a repeated one's progress says which. */
    private final Map<String, Integer> runs = new HashMap<>();
    /** The workload running: its name, and which time it runs ("readrandom (2)"), as bin/compare names lines. */
    private String label = "";

    /** Runs between two workloads, outside every measurement. */
    @FunctionalInterface
    interface AfterWorkload {
        /** Does nothing. */
        AfterWorkload NONE = name -> { };

        /**
         * Called once a workload has finished (its line printed, its threads ended).
         *
         * @param name the workload's name, with which time it ran when it runs again ("readrandom (2)")
         * @throws InterruptedException if the thread is interrupted while waiting
         */
        void after(String name) throws InterruptedException;
    }

    Benchmark(Flags flags, Impl impl, DbOptions dbOptions, File dir, PrintStream out,
            Progress progress) {
        this.flags = flags;
        this.impl = impl;
        this.dbOptions = dbOptions;
        this.dir = dir;
        this.out = out;
        this.progress = progress;
        this.values = new ValueGenerator(flags.compressionRatio);
    }

    /**
     * Sets what runs after each workload ({@link AfterWorkload#NONE} unless set).
     *
     * @param hook the action
     * @return this
     */
    Benchmark afterEachWorkload(AfterWorkload hook) {
        this.afterWorkload = hook;
        return this;
    }

    /**
     * Sets what the progress lines put before each workload's name ({@code ""} unless set).
     *
     * @param prefix e.g. {@code "warm-up "}
     * @return this
     */
    Benchmark progressPrefix(String prefix) {
        this.progressPrefix = prefix;
        return this;
    }

    void run() throws IOException, BenchmarkException {
        if (!flags.useExistingDb) {
            impl.factory().destroy(dir, new Options());
        }
        open();
        try {
            for (String name : flags.benchmarks) {
                int run = runs.merge(name, 1, Integer::sum);
                label = name + (run > 1 ? " (" + run + ")" : "");
                run(Workload.named(name));
                try {
                    afterWorkload.after(label);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new BenchmarkException("interrupted after " + name, e);
                }
            }
        } finally {
            closeDb();
        }
    }

    private void run(Workload workload) throws IOException, BenchmarkException {
        String name = workload.benchmarkName();
        if (workload.operation() == null) {
            String value = db.getProperty(workload.property());
            report(String.format("%n%s", value == null ? "(failed)" : value));
            return;
        }
        if (workload.freshDb()) {
            if (flags.useExistingDb) {
                report(ReportLine.skipped(name, "--use_existing_db is true"));
                return;
            }
            closeDb();
            impl.factory().destroy(dir, new Options());
            open();
        }
        if (workload == Workload.READREVERSE && !impl.supports(Impl.Feature.REVERSE_ITERATION)) {
            // The seeds the threads would have used are spent all the same, so that the
            // following workloads visit the same keys as on an implementation that ran it.
            threadsStarted += flags.threads;
            report(ReportLine.skipped(name, impl + " cannot iterate backwards"));
            return;
        }
        runThreads(workload);
    }

    private void runThreads(Workload workload) throws BenchmarkException {
        WorkloadContext context = new WorkloadContext(db, dir, workload, flags, values);
        Progress.Counter counter = progress.start(progressPrefix + label);
        Workload.Operation background = workload.background();
        int foreground = flags.threads;
        int all = foreground + (background == null ? 0 : 1);
        List<ThreadState> states = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        Throwable[] failures = new Throwable[all];
        CountDownLatch start = new CountDownLatch(1);
        for (int i = 0; i < all; i++) {
            threadsStarted++;
            ThreadState state = new ThreadState(i, 1000 + threadsStarted,
                    new Stats(counter, flags.histogram, flags.slowOpMicros));
            states.add(state);
            int index = i;
            Workload.Operation operation = i < foreground ? workload.operation() : background;
            Thread thread = new Thread(() -> {
                try {
                    start.await();
                    state.stats.start();
                    operation.run(context, state);
                    state.stats.stop();
                } catch (Throwable t) {
                    failures[index] = t;
                    context.foregroundDone.set(true);
                }
            }, "db-bench-" + workload.benchmarkName() + "-" + i);
            threads.add(thread);
            thread.start();
        }
        start.countDown();
        for (Thread thread : threads.subList(0, foreground)) {
            joinUninterruptibly(thread);
        }
        context.foregroundDone.set(true);
        for (Thread thread : threads.subList(foreground, all)) {
            joinUninterruptibly(thread);
        }
        for (Throwable failure : failures) {
            if (failure instanceof UnsupportedOperationException) {
                report(ReportLine.skipped(workload.benchmarkName(), impl + ": " + failure.getMessage()));
                return;
            }
            if (failure != null) {
                throw new BenchmarkException(workload.benchmarkName() + " error: " + failure,
                        failure);
            }
        }
        Stats merged = states.get(0).stats;
        for (int i = 1; i < foreground; i++) {
            merged.merge(states.get(i).stats);
        }
        for (ThreadState writer : states.subList(foreground, all)) {
            merged.mergeLatencies(writer.stats);
            merged.addMessage("(writer: " + writer.stats.done() + " writes)");
        }
        report(merged.report(workload.benchmarkName()));
        if (flags.memory) {
            report(MemoryReport.line("memory: ", db));
        }
    }

    /** Prints a line of the report, after blanking the progress line standing on a terminal. */
    private void report(String text) {
        progress.clear();
        out.println(text);
        out.flush();
    }

    private static void joinUninterruptibly(Thread thread) {
        boolean interrupted = false;
        while (true) {
            try {
                thread.join();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private void open() throws IOException {
        db = impl.factory().open(dir, dbOptions.options());
    }

    private void closeDb() throws IOException {
        if (db != null) {
            DB closing = db;
            db = null;
            closing.close();
        }
    }
}
