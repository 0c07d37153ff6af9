package org.leveldbj.stress;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.leveldbj.testing.Seed;
import org.leveldbj.testing.SeedExtension;

/**
 * A short crash-test run in this JVM (the stress and repair processes are child JVMs): a few
 * rounds that take each kind of kill in turn, every one verified. The driver prints its seed first
 * and a failure reports it; replay a run with {@code -Dleveldbj.seed=N}.
 */
@ExtendWith(SeedExtension.class)
class CrashTestDriverTest {
    @TempDir
    Path dir;

    @Test
    void shortRunVerifiesEveryRound(@Seed long seed) throws Exception {
        Summary summary = run("random,flush,compaction,manifest,repair,checkpoint,backup,purge,commit", 50, seed);
        assertTrue(summary.rounds >= 5, summary.line());
    }

    private Summary run(String points, int seconds, long seed) throws Exception {
        Config config = Config.parse("--duration=" + seconds, "--threads=2", "--keys-per-thread=500",
                "--kill-interval=1-2.5", "--kill-points=" + points, "--db=" + dir, "--seed=" + seed);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Summary summary;
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            summary = new Driver(config, out).run();
        }
        String log = bytes.toString(StandardCharsets.UTF_8);
        System.out.print(log);
        System.out.println(summary.line());
        assertTrue(summary.ok(), summary.failure + "\n" + log);
        assertFalse(Files.exists(OpLog.file(dir, 0)), "the expected-state logs are folded into the state");
        return summary;
    }
}
