package org.leveldbj.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KafkaWindowedCountsTest {
    @Test
    void countsClicksPerMinuteAndPerSessionInLeveldbjStores(@TempDir Path dir) throws Exception {
        assertEquals(List.of(
                // Key first within a segment (30 minutes here), as Kafka's RocksDB window store.
                "minute 2026-01-01T12:00:00Z ada 3",
                "minute 2026-01-01T12:01:00Z ada 1",
                "minute 2026-01-01T12:03:00Z ada 2",
                "minute 2026-01-01T12:00:00Z bob 1",
                "session 2026-01-01T12:00:00Z..2026-01-01T12:00:20Z ada 3",
                "session 2026-01-01T12:01:10Z..2026-01-01T12:01:10Z ada 1",
                "session 2026-01-01T12:03:20Z..2026-01-01T12:03:35Z ada 2"),
                ExampleOutput.of(KafkaWindowedCounts::main, dir.toString()));
    }
}
