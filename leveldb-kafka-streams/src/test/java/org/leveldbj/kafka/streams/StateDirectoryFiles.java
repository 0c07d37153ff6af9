package org.leveldbj.kafka.streams;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
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

    private static Stream<Path> walk(Path stateDir, java.util.function.Predicate<Path> which) {
        try (Stream<Path> files = Files.walk(stateDir)) {
            return files.filter(which).toList().stream();
        } catch (IOException e) {
            throw new UncheckedIOException("listing " + stateDir, e);
        }
    }
}
