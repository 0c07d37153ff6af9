package org.iq80.leveldb;

import java.nio.file.Path;

/**
 * The path given to open, repair or destroy a database exists but is not a directory: a
 * database is a directory of files, and a single table or log file is not one. Nothing was
 * changed. The message names the path and says what to give instead:
 * {@code "Invalid argument: PATH: not a directory (give the directory of a database)"}.
 *
 * <p>This is an extension of the 0.12 API, where the same mistake surfaced as whatever the file
 * system raised (for instance {@link java.nio.file.FileAlreadyExistsException}).
 */
public class DatabasePathNotDirectoryException extends DBOpenException {
    private static final long serialVersionUID = 1L;

    /** The path, as a string so that the exception stays serializable. */
    private final String path;

    /**
     * Creates an exception.
     *
     * @param path the path that is not a directory
     */
    public DatabasePathNotDirectoryException(Path path) {
        super("Invalid argument: " + path + ": not a directory (give the directory of a database)");
        this.path = String.valueOf(path);
    }

    /**
     * The path that is not a directory.
     *
     * @return it, as given
     */
    public String path() {
        return path;
    }
}
