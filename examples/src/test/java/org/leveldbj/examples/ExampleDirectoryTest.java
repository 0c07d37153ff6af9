package org.leveldbj.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExampleDirectoryTest {
    @Test
    void aGivenDirectoryIsCreatedAndKept(@TempDir Path tmp) throws Exception {
        Path dir = tmp.resolve("a").resolve("b");
        List<File> seen = new ArrayList<>();
        ExampleDirectory.run(new String[] {dir.toString()}, d -> {
            seen.add(d);
            Files.writeString(d.toPath().resolve("file"), "x");
        });
        assertEquals(List.of(dir.toFile()), seen);
        assertTrue(Files.exists(dir.resolve("file")));
    }

    @Test
    void aTemporaryDirectoryIsDeletedWithItsContentsAlsoWhenTheExampleFails() {
        List<File> seen = new ArrayList<>();
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> ExampleDirectory.run(new String[0], d -> {
            seen.add(d);
            Files.createDirectories(d.toPath().resolve("sub"));
            Files.writeString(d.toPath().resolve("sub").resolve("file"), "x");
            throw new IllegalStateException("failed");
        }));
        assertEquals("failed", e.getMessage());
        assertEquals(1, seen.size());
        assertTrue(!seen.get(0).exists(), seen.get(0) + " is deleted");
    }

    @Test
    void twoArgumentsAreRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ExampleDirectory.run(new String[] {"a", "b"}, d -> { }));
        assertEquals("usage: <example> [directory]; got [a, b]", e.getMessage());
    }
}
