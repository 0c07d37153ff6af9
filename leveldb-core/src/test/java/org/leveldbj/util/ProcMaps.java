package org.leveldbj.util;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Reads this process's memory mappings from {@code /proc/self/maps}, on Linux; for tests. */
public final class ProcMaps {
    private static final Path MAPS = Path.of("/proc/self/maps");

    private ProcMaps() {
    }

    /** Tells whether the mappings can be read here. */
    public static boolean available() {
        return System.getProperty("os.name", "").startsWith("Linux") && Files.isReadable(MAPS);
    }

    /** Counts the mappings of a file. */
    public static long count(Path file) throws IOException {
        String name = file.toRealPath().toString();
        try (var lines = Files.lines(MAPS)) {
            return lines.filter(line -> line.endsWith(name) || line.endsWith(name + " (deleted)")).count();
        }
    }
}
