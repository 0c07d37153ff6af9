package org.leveldbj.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ScanIntoBuffersTest {
    @Test
    void theBufferScanReadsWhatNextReads(@TempDir Path dir) throws Exception {
        List<String> out = ExampleOutput.of(ScanIntoBuffers::main, dir.toString());
        assertEquals(2, out.size(), out.toString());
        assertEquals("100 entries, " + (10 * 200_000 + 90 * 100) + " value bytes", out.get(0));
        assertTrue(out.get(1).matches("checksum [0-9a-f]{8}, the same as with next\\(\\): true"), out.get(1));
    }
}
