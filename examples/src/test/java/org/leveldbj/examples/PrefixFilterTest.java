package org.leveldbj.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PrefixFilterTest {
    @Test
    void aScanOfAnAbsentPrefixReadsNoBlock(@TempDir Path dir) throws Exception {
        assertEquals(List.of(
                "user42: 2 keys, 1 blocks read",
                "user43: 0 keys, 0 blocks read"),
                ExampleOutput.of(PrefixFilter::main, dir.toString()));
    }
}
