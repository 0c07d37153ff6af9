package org.leveldbj.benchmark;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ManyDatabasesRunTest {
    @Test
    void aSmallRunReportsEveryFigureAndLeavesNothingBehind(@TempDir Path dir) throws Exception {
        String report = ManyDatabasesRun.run(5, 1, 64, 4096, 1, dir);
        assertTrue(Pattern.compile("5 databases, a pool of 1, 64 KiB each, write buffer 4096, budget 1 MiB: threads \\d+"
                + " before, \\d+ at most; open \\d+ ms, writes [0-9.]+ us/put, memtables after writes \\d+ MiB, flushing"
                + " all \\d+ ms, closing \\d+ ms; RSS .+, heap \\d+ MiB, direct \\d+ MiB; level-0 tables per database"
                + " [0-9.]+").matcher(report).matches(), report);
        try (var left = Files.list(dir)) {
            assertTrue(left.findAny().isEmpty(), "the run's directory is removed");
        }
    }
}
