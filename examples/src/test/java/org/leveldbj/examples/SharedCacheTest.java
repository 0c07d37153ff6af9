package org.leveldbj.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SharedCacheTest {
    @Test
    void everyDatabaseFillsTheOneCache(@TempDir Path dir) throws Exception {
        assertEquals(List.of(
                "capacity: 8388608",
                "after reading one more database, the cache holds more: true",
                "after reading one more database, the cache holds more: true",
                "after reading one more database, the cache holds more: true",
                "within capacity: true"),
                ExampleOutput.of(SharedCache::main, dir.toString()));
    }
}
