package org.leveldbj.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/** Every file of a directory (name to contents), to prove that commands change nothing. */
record DirSnapshot(Map<String, byte[]> files) {
    static DirSnapshot of(Path dir) {
        Map<String, byte[]> files = new TreeMap<>();
        try (Stream<Path> list = Files.list(dir)) {
            for (Path p : (Iterable<Path>) list::iterator) {
                files.put(p.getFileName().toString(), Files.isDirectory(p) ? new byte[0] : Files.readAllBytes(p));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new DirSnapshot(files);
    }

    /** Asserts that the directory holds exactly the same names, sizes and bytes now. */
    void assertUnchanged(Path dir, String after) {
        DirSnapshot now = of(dir);
        assertEquals(files.keySet(), now.files.keySet(), "file names after " + after);
        for (String name : files.keySet()) {
            assertEquals(files.get(name).length, now.files.get(name).length, "size of " + name + " after " + after);
            assertArrayEquals(files.get(name), now.files.get(name), "contents of " + name + " after " + after);
        }
    }
}
