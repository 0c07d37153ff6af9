package org.iq80.leveldb;

import java.io.IOException;

/**
 * Thrown by {@link DBFactory#open} when a database cannot be opened for a reason the engine
 * recognises: it does not exist ({@link DatabaseNotFoundException}), the path is not a directory
 * ({@link DatabasePathNotDirectoryException}), another process or open database holds it
 * ({@link DatabaseLockedException}), the options conflict with it
 * ({@link InvalidDatabaseArgumentException}), or its files are damaged
 * ({@link CorruptDatabaseException}). Other causes (a file that cannot be read, a full disk)
 * stay the {@link IOException}s the file system raised.
 *
 * <p>This is an extension of the 0.12 API. Failures while open (a read, a write, a background
 * compaction) keep raising the unchecked {@link DBException} family.
 *
 * <p>The message is C++ LevelDB's status text, as leveldbjni reports it, for example
 * {@code "Invalid argument: /data/db: does not exist (create_if_missing is false)"}.
 */
public class DBOpenException extends IOException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates an exception.
     *
     * @param message C++ LevelDB's status text
     */
    public DBOpenException(String message) {
        super(message);
    }

    /**
     * Creates an exception with its cause.
     *
     * @param message C++ LevelDB's status text
     * @param cause what the engine raised, or {@code null}
     */
    public DBOpenException(String message, Throwable cause) {
        super(message, cause);
    }
}
