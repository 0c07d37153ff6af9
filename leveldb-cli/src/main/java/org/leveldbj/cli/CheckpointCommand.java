package org.leveldbj.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.iq80.leveldb.ExtendedDB;
import org.iq80.leveldb.InvalidArgumentException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/**
 * {@code leveldb checkpoint DB DIR}: a consistent copy of the database in a new directory
 * ({@code ExtendedDB.checkpoint}), its tables hard-linked where the file system allows. Opens the
 * database read-only; reports how many files were linked and how many bytes copied.
 */
@Command(name = "checkpoint", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        header = "Copy the database into a new directory, linking its tables.",
        description = {
            "Makes DIR a copy of the database that opens on its own (with C++ LevelDB too,",
            "unless it has separated values): tables hard-linked where the file system",
            "allows, so it takes little time and space; value files copied; the log's",
            "entries in a log of its own. DIR must not exist, or be empty. Opens the",
            "database read-only and changes none of its files.",
            "In JSON: {\"database\":...,\"checkpoint\":...,\"files\":N,\"bytes\":N,",
            "\"linked_files\":N,\"copied_files\":N,\"copied_bytes\":N}.",
        })
final class CheckpointCommand extends CommandBase {
    @Parameters(index = "0", paramLabel = "DB", description = "The database directory.")
    Path db;

    @Parameters(index = "1", paramLabel = "DIR", description = "The checkpoint's directory: new or empty.")
    Path dir;

    @Mixin
    FormatOption format;

    @Override
    int run() throws Exception {
        Progress progress = Progress.ticking(io(), quiet(), "checkpoint of " + db);
        try (ExtendedDB database = (ExtendedDB) Databases.openReadOnly(db)) {
            database.checkpoint(dir.toFile());
        } catch (InvalidArgumentException e) {
            throw new CliFailure(ExitCode.USAGE, e.getMessage(), e);
        } finally {
            progress.close();
        }
        long files = 0;
        long bytes = 0;
        long linked = 0;
        long copiedBytes = 0;
        for (Path f : list(dir)) {
            long size = Files.size(f);
            files++;
            bytes += size;
            Path live = db.resolve(f.getFileName());
            if (Files.exists(live) && Files.isSameFile(live, f)) {
                linked++;
            } else {
                copiedBytes += size;
            }
        }
        if (format.json()) {
            out().println(Json.object().add("database", db.toString()).add("checkpoint", dir.toString())
                    .add("files", files).add("bytes", bytes).add("linked_files", linked)
                    .add("copied_files", files - linked).add("copied_bytes", copiedBytes));
        } else {
            out().printf("checkpoint of %s in %s: %s (%s), %s linked, %s copied (%s)%n", db, dir,
                    Plural.count(files, "file"), Progress.bytes(bytes), Plural.count(linked, "file"),
                    Plural.count(files - linked, "file"), Progress.bytes(copiedBytes));
        }
        return ExitCode.OK;
    }

    private static List<Path> list(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(Files::isRegularFile).sorted().toList();
        }
    }
}
