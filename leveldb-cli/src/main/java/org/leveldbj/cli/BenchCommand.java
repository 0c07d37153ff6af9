package org.leveldbj.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Unmatched;

/**
 * {@code leveldb bench [db_bench flags]}: runs the db_bench runner of leveldb-benchmark
 * in-process with the same flags as {@code bin/db-bench}; its exit code becomes this command's
 * (1 a workload failed, 2 bad flags). The help shows the runner's flags.
 *
 * <p>The runner is found by name on the class path, where a source checkout's
 * {@code bin/leveldb} puts it; the self-contained distribution (the {@code -all} jar) leaves
 * leveldb-benchmark out, and there the command says so ({@link ExitCode#OTHER}).
 */
@Command(name = "bench", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        customSynopsis = "leveldb bench [-hqvV] [--flag=value...]",
        header = "Run db_bench's workloads (the flags of bin/db-bench).",
        description = {
            "Runs C++ LevelDB's db_bench workloads on leveldbj (or, with --impl, on a peer)",
            "and prints db_bench's report; the flags are bin/db-bench's, listed below.",
            "Peers (--impl=iq80|leveldbjni|rocksdb) need leveldb-benchmark built: bin/leveldb",
            "finds them in leveldb-benchmark/target/peers. Available from a source checkout",
            "(bin/leveldb), not in the self-contained jar.",
        })
final class BenchCommand extends CommandBase {
    /** The runner, in leveldb-benchmark. */
    static final String RUNNER = "org.leveldbj.benchmark.DbBench";

    /** The header of this command where the runner is missing. */
    static final String UNAVAILABLE_HEADER = "Run db_bench's workloads (not in this build: see bin/db-bench).";

    /** Why the command cannot run where the runner is missing. */
    static final String UNAVAILABLE = "bench needs the db_bench runner of leveldb-benchmark, which this build of the"
            + " tool leaves out; run it from a source checkout: bin/db-bench, or bin/leveldb bench";

    @Unmatched
    List<String> flags = new ArrayList<>();

    @Override
    int run() {
        MethodHandle runner = runner(RUNNER);
        if (runner == null) {
            throw new CliFailure(ExitCode.OTHER, UNAVAILABLE);
        }
        return run(runner, flags.toArray(new String[0]), out(), err(), io().terminal() && !quiet());
    }

    /**
     * The runner's {@code static int run(String[] args, PrintStream out, PrintStream err,
     * boolean progress)}.
     *
     * @param className the runner's class
     * @return the method, or {@code null} when the class is not on the class path
     */
    static MethodHandle runner(String className) {
        Class<?> runner;
        try {
            runner = Class.forName(className, true, BenchCommand.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            return null;
        }
        try {
            return MethodHandles.publicLookup().findStatic(runner, "run", MethodType.methodType(int.class,
                    String[].class, PrintStream.class, PrintStream.class, boolean.class));
        } catch (NoSuchMethodException | IllegalAccessException e) {
            throw new IllegalStateException(className + " has no public static int run(String[], PrintStream,"
                    + " PrintStream, boolean): leveldb-benchmark and leveldb-cli are of different builds", e);
        }
    }

    /** @return whether the runner is on the class path */
    static boolean available() {
        return runner(RUNNER) != null;
    }

    private static int run(MethodHandle runner, String[] args, PrintStream out, PrintStream err, boolean progress) {
        try {
            return (int) runner.invokeExact(args, out, err, progress);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /**
     * The runner's own help text, shown as the footer of this command's help.
     *
     * @return db_bench's flags and workloads
     */
    static String runnerHelp() {
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(text, true, StandardCharsets.UTF_8)) {
            run(runner(RUNNER), new String[] {"--help"}, out, out, false);
        }
        return text.toString(StandardCharsets.UTF_8);
    }

    /** The start of the help's footer: the runner's help, produced only when shown. */
    static String footerSection() {
        if (!available()) {
            return System.lineSeparator() + UNAVAILABLE + "." + System.lineSeparator();
        }
        return System.lineSeparator() + "Flags (bin/db-bench --help):" + System.lineSeparator() + runnerHelp();
    }
}
