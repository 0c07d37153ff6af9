package org.leveldbj.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BenchCompletionTest {
    @TempDir
    Path tmp;

    @Test
    void benchRunsTheDbBenchRunnerWithItsFlags() {
        Cli.Result r = Cli.run("bench", "--num=300", "--benchmarks=fillseq,readrandom", "--db=" + tmp.resolve("bench"));
        assertEquals(0, r.exit(), r.toString());
        assertTrue(r.out().contains("Entries:    300"), r.out());
        assertTrue(r.out().matches("(?s).*\nfillseq +: +[0-9.]+ micros/op;.*"), r.out());
        assertTrue(r.out().contains("(300 of 300 found)"), r.out());
        assertTrue(r.out().startsWith("LevelDB:    leveldbj"), r.out());

        Cli.Result bad = Cli.run("bench", "--no_such_flag=1");
        assertEquals(ExitCode.USAGE, bad.exit(), bad.toString());
        assertTrue(bad.err().contains("--no_such_flag=1"), bad.err());

        assertTrue(BenchCommand.available(), "leveldb-benchmark is on the tests' class path");
        assertNull(BenchCommand.runner("org.leveldbj.benchmark.NoSuchRunner"));

        Cli.Result help = Cli.run("bench", "--help");
        assertEquals(0, help.exit(), help.toString());
        assertTrue(help.out().startsWith("Run db_bench's workloads"), help.out());
        assertTrue(help.out().contains("Flags (bin/db-bench --help):"), help.out());
        assertTrue(help.out().contains("--benchmarks=a,b,..."), help.out());
        assertTrue(!help.out().contains("Exit codes:"), help.out());
    }

    @Test
    void completionCoversEveryCommandAndOption() {
        Cli.Result r = Cli.run("completion");
        assertEquals(0, r.exit(), r.toString());
        assertTrue(r.out().startsWith("#!/usr/bin/env bash"), r.out());
        assertTrue(r.out().contains("complete -F _complete_leveldb"), r.out());
        for (String word : new String[] {"verify", "approx-size", "--keys-only", "--batch-bytes", "--type"}) {
            assertTrue(r.out().contains(word), word);
        }
    }
}
