package org.leveldbj.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MultiGetTest {
    @Test
    void valuesComeInTheOrderOfTheKeysAtOneState(@TempDir Path dir) throws Exception {
        assertEquals(List.of("dark red", "(none)", "red", "red, yellow", "null"),
                ExampleOutput.of(MultiGet::main, dir.toString()));
    }
}
