package org.leveldbj.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.File;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FaultInjectionTest {
    @Test
    void aCrashLosesWhatWasNotSynced(@TempDir Path dir) throws Exception {
        assertEquals(List.of("synced: 1, unsynced: null"), ExampleOutput.of(FaultInjection::main, dir.toString()));
        assertEquals(List.of(), List.of(new File(dir.toString()).list()), "nothing reached the disk");
    }
}
