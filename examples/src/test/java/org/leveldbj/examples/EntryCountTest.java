package org.leveldbj.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EntryCountTest {
    @Test
    void countsValuesMinusDeletionsAndVersionsUntilCompacted(@TempDir Path dir) throws Exception {
        assertEquals(List.of("1000", "500", "500", "500", "500"), ExampleOutput.of(EntryCount::main, dir.toString()));
    }
}
