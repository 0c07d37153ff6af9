package org.leveldbj.kafka.streams;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * What a Kafka Streams state directory holds, by the files' names: RocksDB's files and leveldbj's
 * stores. RocksDB marks each database with {@code IDENTITY} and {@code OPTIONS-*} files and names
 * its tables {@code .sst}; Kafka keeps a plain RocksDB store under {@code rocksdb/} and a segmented
 * one in {@code task/store/store.segment/}. leveldbj names its tables {@code .sst} too, but keeps
 * every store's database under {@code leveldb/}.
 *
 * <p>Thread safety: stateless.
 */
final class StateDirectoryFiles {
    private StateDirectoryFiles() {
    }

    /** Every file or directory under {@code stateDir} that belongs to a RocksDB store. */
    static List<Path> rocksDbFiles(Path stateDir) {
        return walk(stateDir, f -> {
            String n = f.getFileName().toString();
            boolean inLeveldb = stateDir.relativize(f).toString().contains("/leveldb/");
            return n.equals("IDENTITY") || n.startsWith("OPTIONS-") || n.equals("rocksdb") || n.endsWith(".sst") && !inLeveldb;
        }).toList();
    }

    /** The name of every leveldbj store under {@code stateDir}, once per task that keeps it. */
    static List<String> leveldbStores(Path stateDir) {
        return walk(stateDir, f -> f.getFileName().toString().equals("CURRENT")
                && f.getParent().getParent().getFileName().toString().equals("leveldb"))
                .map(f -> f.getParent().getFileName().toString()).toList();
    }

    /**
     * The paths under {@code stateDir} that {@code which} accepts. A running store's background
     * compactions delete files while the walk goes on: a file gone before it is looked at is
     * not there, and the walk goes on.
     */
    private static Stream<Path> walk(Path stateDir, Predicate<Path> which) {
        List<Path> found = new ArrayList<>();
        try {
            Files.walkFileTree(stateDir, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                    if (which.test(dir)) {
                        found.add(dir);
                    }
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                    if (which.test(file)) {
                        found.add(file);
                    }
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
                    if (e instanceof NoSuchFileException) {
                        return FileVisitResult.CONTINUE;
                    }
                    throw e;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
                    if (e != null && !(e instanceof NoSuchFileException)) {
                        throw e;
                    }
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException("listing " + stateDir, e);
        }
        return found.stream();
    }
}
