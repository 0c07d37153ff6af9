package org.leveldbj.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ManyDatabasesTest {
    @Test
    void aHundredDatabasesShareOnePoolOneBudgetAndOneCache(@TempDir Path dir) throws Exception {
        assertEquals(List.of(
                "databases on the pool: 100",
                "closing the pool first fails",
                "memtables held after closing: 0",
                "databases holding their last key: 100"),
                ExampleOutput.of(ManyDatabases::main, dir.toString()));
    }
}
