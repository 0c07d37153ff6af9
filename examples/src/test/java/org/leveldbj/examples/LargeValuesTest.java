package org.leveldbj.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LargeValuesTest {
    @Test
    void aLargeValueGoesToAValueFileAndComesBack(@TempDir Path dir) throws Exception {
        assertEquals(List.of(
                "102400 bytes, the same: true",
                "values separated: 1",
                "value files: 1",
                "holding the document: true",
                "reopened: true, a small one"),
                ExampleOutput.of(LargeValues::main, dir.toString()));
    }
}
