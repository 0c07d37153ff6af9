package org.leveldbj.examples;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Where an example keeps its databases: the directory its one optional argument names (created
 * when missing and left in place, so the databases can be looked at afterwards, for instance with
 * {@code bin/leveldb}), or else a fresh temporary directory, deleted when the example ends.
 *
 * <p>Thread safety: stateless.
 */
final class ExampleDirectory {
    /** An example's body: everything it does, in {@code dir}. */
    @FunctionalInterface
    interface Body {
        void run(File dir) throws Exception;
    }

    private ExampleDirectory() {
    }

    /**
     * Runs {@code body} in the directory {@code args} names, or in a temporary one.
     *
     * @param args the example's command-line arguments: none, or a directory
     * @param body the example
     * @throws IllegalArgumentException if there are two or more arguments
     */
    static void run(String[] args, Body body) throws Exception {
        if (args.length > 1) {
            throw new IllegalArgumentException("usage: <example> [directory]; got " + List.of(args));
        }
        if (args.length == 1) {
            body.run(Files.createDirectories(Path.of(args[0])).toFile());
            return;
        }
        Path dir = Files.createTempDirectory("leveldbj-example-");
        try {
            body.run(dir.toFile());
        } finally {
            deleteRecursively(dir);
        }
    }

    private static void deleteRecursively(Path dir) throws IOException {
        List<Path> paths;
        try (Stream<Path> walk = Files.walk(dir)) {
            paths = walk.sorted(Comparator.reverseOrder()).collect(Collectors.toList());
        }
        for (Path p : paths) {
            Files.delete(p);
        }
    }
}
