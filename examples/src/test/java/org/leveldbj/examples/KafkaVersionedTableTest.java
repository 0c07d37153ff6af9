package org.leveldbj.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KafkaVersionedTableTest {
    @Test
    void joinsOrdersWithThePriceOfTheirTime(@TempDir Path dir) throws Exception {
        assertEquals(List.of(
                "apple: order 1 at 1.20",
                "apple: order 2 (late) at 1.00",
                "apple at 09:05: 1.00, set at 2026-01-01T09:00:00Z",
                "apple now: 1.20"),
                ExampleOutput.of(KafkaVersionedTable::main, dir.toString()));
    }
}
