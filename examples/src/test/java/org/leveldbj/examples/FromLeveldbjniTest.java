package org.leveldbj.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FromLeveldbjniTest {
    @Test
    void leveldbjniCodeRunsOnTheCompatJar(@TempDir Path dir) throws Exception {
        assertEquals(List.of(
                "leveldbjni version 1.8 (leveldbjni-compat on leveldbj)",
                "London = red",
                "Tampa = blue",
                "a JniDB: true",
                "not found: true"),
                ExampleOutput.of(FromLeveldbjni::main, dir.toString()));
    }
}
