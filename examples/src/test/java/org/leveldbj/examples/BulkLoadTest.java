package org.leveldbj.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BulkLoadTest {
    @Test
    void writesTwoTablesAndIngestsThemNewerThanTheOldValueAndHiddenFromTheSnapshot(@TempDir Path dir) throws Exception {
        assertEquals(List.of(
                "written: 50001 entries",
                "refused: a key out of order",
                "user:00042 = profile 42",
                "before the ingest: old"),
                ExampleOutput.of(BulkLoad::main, dir.toString()));
    }
}
