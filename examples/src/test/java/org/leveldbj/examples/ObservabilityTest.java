package org.leveldbj.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ObservabilityTest {
    @Test
    void theSnapshotTheBeanAndTheMetersAgree(@TempDir Path dir) throws Exception {
        assertEquals(List.of(
                "keys written: 1000",
                "gets: 2, found: 1",
                "tables: 1, in level 2: 1",
                "write stalls: 0",
                "JMX KeysWritten: 1000",
                "leveldb.keys.written: 1000.0"),
                ExampleOutput.of(Observability::main, dir.toString()));
    }
}
