package org.leveldbj.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PrefixScanTest {
    @Test
    void scansStopAtThePrefixAndAtTheBounds(@TempDir Path dir) throws Exception {
        assertEquals(List.of(
                "order:1:item:1 = pen",
                "order:1:item:2 = ink",
                "last: order:1:item:2",
                "backwards: user:1",
                "backwards: order:2:item:1"),
                ExampleOutput.of(PrefixScan::main, dir.toString()));
    }
}
