package org.leveldbj.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BackupsTest {
    @Test
    void aCheckpointAndTwoBackupsTheSecondSharingTheTable(@TempDir Path dir) throws Exception {
        assertEquals(List.of(
                "backup 1: sequence 1, 4 files, 4 new",
                "backup 2: sequence 2, 4 files, 3 new",
                "alice",
                "null",
                "alice"),
                ExampleOutput.of(Backups::main, dir.toString()));
        assertEquals(List.of("2"), List.of(dir.resolve("backups").resolve("meta").toFile().list()));
        assertEquals(true, Files.isDirectory(dir.resolve("checkpoint")));
    }
}
