package org.iq80.leveldb.util;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** iq80's file helpers: temp directories, recursive copy and delete (links not followed), paths. */
class FileUtilsTest {
    @TempDir
    Path tmp;

    @Test
    void createCopyListAndDeleteRecursively() throws IOException {
        File dir = FileUtils.createTempDir(tmp.toFile(), "db");
        assertTrue(dir.isDirectory() && dir.getName().startsWith("db-"), dir.toString());
        File nested = FileUtils.newFile(dir, "a", "b");
        assertEquals(new File(new File(dir, "a"), "b"), nested);
        assertEquals(nested, FileUtils.newFile(dir.getPath(), "a", "b"));
        assertEquals(nested, FileUtils.newFile(dir, List.of("a", "b")));
        assertTrue(nested.mkdirs());
        Files.writeString(nested.toPath().resolve("f.txt"), "hello");
        Files.writeString(dir.toPath().resolve("top.txt"), "top");

        File copy = new File(tmp.toFile(), "copy");
        assertTrue(FileUtils.copyRecursively(dir, copy));
        assertArrayEquals("hello".getBytes(StandardCharsets.UTF_8),
                Files.readAllBytes(copy.toPath().resolve("a/b/f.txt")));
        assertEquals(2, FileUtils.listFiles(copy).size());
        assertEquals(List.of(new File(copy, "top.txt")), FileUtils.listFiles(copy, (d, n) -> n.endsWith(".txt")));
        assertEquals(List.of(), FileUtils.listFiles(new File(tmp.toFile(), "none")));

        // A link inside is removed, not followed.
        File outside = FileUtils.createTempDir(tmp.toFile(), "outside");
        Files.writeString(outside.toPath().resolve("keep.txt"), "keep");
        Files.createSymbolicLink(copy.toPath().resolve("link"), outside.toPath());
        assertTrue(FileUtils.isSymbolicLink(new File(copy, "link")));
        assertFalse(FileUtils.deleteDirectoryContents(new File(copy, "link")), "a link is not a directory to empty");
        assertTrue(FileUtils.deleteRecursively(copy));
        assertFalse(copy.exists());
        assertTrue(new File(outside, "keep.txt").exists(), "the link's target was deleted");

        assertTrue(FileUtils.deleteDirectoryContents(dir));
        assertEquals(List.of(), FileUtils.listFiles(dir));
    }
}
