package org.leveldbj.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.leveldbj.benchmark.DbBench;
import picocli.CommandLine.Command;
import picocli.CommandLine.Unmatched;

/**
 * {@code leveldb bench [db_bench flags]}: runs the db_bench runner of leveldb-benchmark
 * in-process with the same flags as {@code bin/db-bench}; its exit code becomes this command's
 * (1 a workload failed, 2 bad flags). The help shows the runner's flags.
 */
@Command(name = "bench", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        customSynopsis = "leveldb bench [-hqvV] [--flag=value...]",
        header = "Run db_bench's workloads (the flags of bin/db-bench).",
        description = {
            "Runs C++ LevelDB's db_bench workloads on leveldbj (or, with --impl, on a peer)",
            "and prints db_bench's report; the flags are bin/db-bench's, listed below.",
            "Peers (--impl=iq80|leveldbjni|rocksdb) need leveldb-benchmark built: bin/leveldb",
            "finds them in leveldb-benchmark/target/peers.",
        })
final class BenchCommand extends CommandBase {
    @Unmatched
    List<String> flags = new ArrayList<>();

    @Override
    int run() {
        return DbBench.run(flags.toArray(new String[0]), out(), err(), io().terminal() && !quiet());
    }

    /**
     * The runner's own help text, shown as the footer of this command's help.
     *
     * @return db_bench's flags and workloads
     */
    static String runnerHelp() {
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(text, true, StandardCharsets.UTF_8)) {
            DbBench.run(new String[] {"--help"}, out, out, false);
        }
        return text.toString(StandardCharsets.UTF_8);
    }

    /** The start of the help's footer: the runner's help, produced only when shown. */
    static String footerSection() {
        return System.lineSeparator() + "Flags (bin/db-bench --help):" + System.lineSeparator() + runnerHelp();
    }
}
