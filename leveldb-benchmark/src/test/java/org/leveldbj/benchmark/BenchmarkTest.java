package org.leveldbj.benchmark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The runner's hook between workloads, which the warm-up uses to let the JIT settle. */
class BenchmarkTest {
    @TempDir
    Path temp;

    @Test
    void theHookRunsAfterEachWorkloadHasPrintedItsLine() throws Exception {
        Flags flags = Flags.parse("--num=300", "--benchmarks=fillseq,readseq,stats,readreverse", "--db=" + temp);
        Impl impl = Impls.load("leveldbj");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        List<String> seen = new ArrayList<>();
        new Benchmark(flags, impl, DbOptions.of(flags, impl), temp.toFile(), out, Progress.silent())
                .afterEachWorkload(name -> {
                    out.flush();
                    String printed = bytes.toString(StandardCharsets.UTF_8);
                    seen.add(name + (name.equals("stats") || printed.contains(String.format("%-12s : ", name))
                            ? "" : " (before its line)"));
                })
                .run();
        assertEquals(List.of("fillseq", "readseq", "stats", "readreverse"), seen);
    }

    @Test
    void anInterruptedHookStopsTheRunWithTheWorkloadsName() throws Exception {
        Flags flags = Flags.parse("--num=100", "--benchmarks=fillseq,readseq", "--db=" + temp);
        Impl impl = Impls.load("leveldbj");
        PrintStream out = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        List<String> seen = new ArrayList<>();
        BenchmarkException e = assertThrows(BenchmarkException.class,
                () -> new Benchmark(flags, impl, DbOptions.of(flags, impl), temp.toFile(), out, Progress.silent())
                        .afterEachWorkload(name -> {
                            seen.add(name);
                            throw new InterruptedException();
                        })
                        .run());
        assertTrue(e.getMessage().contains("fillseq"), e.getMessage());
        assertEquals(List.of("fillseq"), seen, "no workload runs after the interruption");
        assertTrue(Thread.interrupted(), "the interrupt is kept for the caller");
    }
}
