package org.leveldbj.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.FilterPolicy;
import org.iq80.leveldb.Options;
import org.leveldbj.db.LevelDbFactory;
import org.leveldbj.filename.FileNames;

/**
 * Opening the database a command names, with the options the tool uses: read-only for every
 * command that only reads; for writing commands, bloom filters in new tables when the
 * database's tables have them.
 *
 * <p>Missing paths and directories that hold no database are refused before the engine is
 * involved, with {@link ExitCode#IO} and a message saying what was found.
 *
 * <p>Thread safety: stateless.
 */
final class Databases {
    /** Bits per key of the bloom filters written when the database's tables carry bloom filters. */
    static final int BLOOM_BITS = 10;

    private Databases() {
    }

    /**
     * Checks that a directory holds a database (a {@code CURRENT} file).
     *
     * @param dir the directory
     * @return the directory
     * @throws CliFailure with {@link ExitCode#IO} when it does not
     */
    static Path requireDatabase(Path dir) {
        requireDirectory(dir);
        if (!Files.isRegularFile(dir.resolve(FileNames.CURRENT))) {
            throw new CliFailure(ExitCode.IO, dir + " is not a LevelDB database (it has no CURRENT file;"
                    + " 'leveldb repair' can rebuild one from the tables and logs)");
        }
        return dir;
    }

    /**
     * Checks that a path is an existing directory.
     *
     * @param dir the path
     * @return the path
     * @throws CliFailure with {@link ExitCode#IO} when it is not
     */
    static Path requireDirectory(Path dir) {
        if (!Files.exists(dir)) {
            throw new CliFailure(ExitCode.IO, dir + " does not exist (give the directory of a database)");
        }
        if (!Files.isDirectory(dir)) {
            throw new CliFailure(ExitCode.IO, dir + " is not a directory (give the directory of a database,"
                    + " or use 'leveldb dump' for a single file)");
        }
        return dir;
    }

    /**
     * Opens a database read-only: nothing in its directory changes.
     *
     * @param dir the directory
     * @return the open database
     * @throws IOException if it cannot be opened (locked, unreadable)
     */
    static DB openReadOnly(Path dir) throws IOException {
        requireDatabase(dir);
        // The filter policy only lets reads use the bloom filters the tables already have.
        Options options = new Options().readOnly(true).createIfMissing(false).filterPolicy(FilterPolicy.bloom(BLOOM_BITS));
        return LevelDbFactory.factory.open(dir.toFile(), options);
    }

    /**
     * Opens a database for writing.
     *
     * @param dir the directory
     * @param create whether to create a missing database
     * @return the open database
     * @throws IOException if it cannot be opened (locked, unreadable)
     */
    static DB openWritable(Path dir, boolean create) throws IOException {
        if (!create) {
            requireDatabase(dir);
        } else if (Files.exists(dir) && !Files.isDirectory(dir)) {
            requireDirectory(dir);
        }
        return LevelDbFactory.factory.open(dir.toFile(), writeOptions(dir).createIfMissing(create));
    }

    /**
     * The options for writing to a database: bloom filters when its tables have them (so that
     * new tables, compaction outputs included, keep them), C++ LevelDB's defaults otherwise.
     *
     * @param dir the directory
     * @return new options
     */
    static Options writeOptions(Path dir) {
        Options options = new Options();
        if (Manifest.tablesHaveBloomFilters(dir)) {
            options.filterPolicy(FilterPolicy.bloom(BLOOM_BITS));
        }
        return options;
    }
}
