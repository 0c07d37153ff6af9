package org.leveldbj.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class QuickStartTest {
    @Test
    void printsWhatTheReadmeSays(@TempDir Path dir) throws Exception {
        assertEquals(List.of(
                "world",
                "a",
                "b",
                "c",
                "RocksJava-style loop: [c, b]",
                "backwards: [c, b, a]",
                "Invalid argument: " + dir.resolve("no-such-db") + ": does not exist (create_if_missing is false)",
                "created: false"),
                ExampleOutput.of(QuickStart::main, dir.toString()));
        assertTrue(Files.exists(dir.resolve("example-db").resolve("CURRENT")), "the database stays in the given directory");
        assertFalse(Files.exists(dir.resolve("no-such-db")));
    }

    @Test
    void withoutAnArgumentItWorksInATemporaryDirectoryAndDeletesIt() throws Exception {
        List<String> output = ExampleOutput.of(QuickStart::main);
        String notFound = output.get(6);
        String prefix = "Invalid argument: ";
        assertTrue(notFound.startsWith(prefix), notFound);
        Path missing = Path.of(notFound.substring(prefix.length(), notFound.indexOf(": does not exist")));
        Path workDir = missing.getParent();
        assertTrue(workDir.getFileName().toString().startsWith("leveldbj-example-"), workDir.toString());
        assertFalse(Files.exists(workDir), workDir + " is deleted");
    }
}
