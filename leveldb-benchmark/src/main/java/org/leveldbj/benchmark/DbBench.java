package org.leveldbj.benchmark;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Locale;

/**
 * A db_bench-compatible runner: db_bench's workloads, flags and output, on leveldbj or, with
 * {@code --impl}, on iq80 leveldb, leveldbjni or RocksDB through the same API.
 * <p>Exit codes: 0 done, 1 a workload or the database failed, 2 bad flags.
 */
public final class DbBench {
    private DbBench() {
    }

    /** The level of slf4j-simple's logger unless the command line sets one. */
    private static final String LOG_LEVEL_PROPERTY = "org.slf4j.simpleLogger.defaultLogLevel";

    public static void main(String[] args) {
        if (System.getProperty(LOG_LEVEL_PROPERTY) == null) {
            System.setProperty(LOG_LEVEL_PROPERTY, "warn");
        }
        int code = run(args, System.out, System.err, Progress.toStandardError());
        System.out.flush();
        System.exit(code);
    }

    /**
     * Runs the command line in this JVM, as {@code leveldb bench} does, without exiting.
     *
     * @param args db_bench's flags
     * @param out where the header and the report go
     * @param err where errors and the warm-up's first and last lines go
     * @param progress whether to report progress ("... fillseq: finished N ops") on standard error
     * @return the exit code: 0 done, 1 a workload or the database failed, 2 bad flags
     */
    public static int run(String[] args, PrintStream out, PrintStream err, boolean progress) {
        return run(args, out, err, progress ? Progress.toStandardError() : Progress.silent());
    }

    /** Runs the command line; returns the exit code. */
    static int run(String[] args, PrintStream out, PrintStream err, Progress progress) {
        if (args.length == 1 && (args[0].equals("--help") || args[0].equals("-h"))) {
            out.print(Usage.TEXT);
            return 0;
        }
        Flags flags;
        try {
            flags = Flags.parse(args);
            if (flags.useExistingDb && flags.db == null) {
                throw new FlagException("--use_existing_db=1 needs --db=PATH");
            }
        } catch (FlagException e) {
            err.println(e.getMessage());
            return 2;
        }
        Impl impl;
        try {
            impl = Impls.load(flags.impl);
        } catch (ImplUnavailableException e) {
            err.println(e.getMessage());
            return 1;
        }
        DbOptions options;
        try {
            options = DbOptions.of(flags, impl);
        } catch (FlagException e) {
            err.println(e.getMessage());
            return 2;
        }
        Path temporary = null;
        try {
            File dir;
            if (flags.db != null) {
                dir = new File(flags.db);
            } else {
                temporary = Files.createTempDirectory("dbbench-");
                dir = temporary.toFile();
            }
            Header.print(out, flags, impl, options.warnings());
            out.flush();
            if (flags.memoryIntervalSeconds > 0) {
                MemoryReport.sampleEvery(flags.memoryIntervalSeconds, err);
            }
            warmUp(flags, impl, err, progress);
            new Benchmark(flags, impl, options, dir, out, progress).run();
            return 0;
        } catch (BenchmarkException | FlagException e) {
            out.flush();
            progress.clear();
            err.println(e.getMessage());
            return 1;
        } catch (IOException | RuntimeException e) {
            out.flush();
            progress.clear();
            err.println("db error: " + e);
            return 1;
        } finally {
            if (temporary != null) {
                deleteQuietly(temporary, err);
            }
        }
    }

    /**
     * Runs the workloads once on a scratch database of {@link Flags#effectiveWarmup()} entries,
     * and after each of them waits for the compilations it queued ({@link JitSettle}), so that
     * the measured run finds the code compiled (a JVM library lives in long-running processes;
     * db_bench's native code needs no warm-up). It says so on {@code err} first, reports its
     * workloads' progress as {@code ... warm-up fillseq: finished N ops}, and ends with a line
     * saying how long it took.
     *
     * <p>Why after each workload rather than once at the end: while the one C2 thread of a
     * two-processor machine has a long queue, the JVM compiles hot methods with a C1 level that
     * records no branch profile. Methods the warm-up's forward scans made hot (the database
     * iterator's {@code key()} and {@code value()}, the cursor's entry copy) then ran its
     * backward scans without recording them, were compiled by C2 later for forward scans only,
     * and were deoptimized by the measured run's first backward scan, which then ran partly in
     * the interpreter while C2 compiled them again (JFR: four deoptimizations and six
     * compilations of them at the start of the measured readreverse). Letting the queue drain
     * before each workload gives every workload's methods their full profile.
     */
    private static void warmUp(Flags flags, Impl impl, PrintStream err, Progress progress)
            throws IOException, BenchmarkException, FlagException {
        int entries = flags.effectiveWarmup();
        if (entries == 0 || flags.benchmarks.isEmpty()) {
            return;
        }
        err.printf(Locale.ROOT, "Warming up: running the workloads on %d entries in a scratch database, so that the JIT"
                + " has compiled their code before it is measured (--warmup=0: no warm-up)%n", entries);
        err.flush();
        Path scratch = Files.createTempDirectory("dbbench-warmup-");
        long start = System.nanoTime();
        long[] settled = new long[1];
        try {
            Flags warm = flags.forWarmup(scratch.toString());
            PrintStream discard = new PrintStream(OutputStream.nullOutputStream());
            new Benchmark(warm, impl, DbOptions.of(warm, impl), scratch.toFile(), discard, progress)
                    .progressPrefix(WARM_UP_PREFIX)
                    .afterEachWorkload(name -> {
                        progress.status("... " + WARM_UP_PREFIX + name + ": done, waiting for the JIT to go quiet");
                        settled[0] += JitSettle.await();
                    })
                    .run();
        } finally {
            progress.clear();
            deleteQuietly(scratch, err);
        }
        err.printf(Locale.ROOT, "Warmed up:  %.1f s, %.1f s of it waiting for the JIT to go quiet after each workload%n",
                (System.nanoTime() - start) / 1e9, settled[0] / 1e3);
        err.flush();
    }

    /** What the warm-up's progress lines put before the workload's name. */
    static final String WARM_UP_PREFIX = "warm-up ";

    private static void deleteQuietly(Path root, PrintStream err) {
        try {
            Files.walkFileTree(root, new SimpleFileVisitor<Path>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs)
                        throws IOException {
                    Files.delete(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path dir, IOException e)
                        throws IOException {
                    Files.delete(dir);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            err.println("could not delete " + root + ": " + e);
        }
    }
}
