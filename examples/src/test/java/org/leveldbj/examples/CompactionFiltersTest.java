package org.leveldbj.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CompactionFiltersTest {
    @Test
    void theCompactionRemovesTheObsoleteRecordAndUpgradesTheOldValue(@TempDir Path dir) throws Exception {
        assertEquals(List.of("obsolete:banana", "v2:apple", "null", "v2:cherry"),
                ExampleOutput.of(CompactionFilters::main, dir.toString()));
    }
}
