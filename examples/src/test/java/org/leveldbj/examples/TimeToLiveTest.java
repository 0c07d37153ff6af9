package org.leveldbj.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TimeToLiveTest {
    @Test
    void anExpiredValueIsHiddenAtOnceAndGoneFromTheFilesAfterACompaction(@TempDir Path dir) throws Exception {
        assertEquals(List.of("alice", "null", "2023-11-14T22:43:20Z", "11 bytes: value + 8-byte expiry", "null"),
                ExampleOutput.of(TimeToLive::main, dir.toString()));
    }
}
