package org.iq80.leveldb;

/**
 * The database to open does not exist, and {@link Options#createIfMissing()} is off or the
 * database was to be opened read-only. Nothing was created. The message is C++ LevelDB's:
 * {@code "Invalid argument: DIR: does not exist (create_if_missing is false)"}.
 */
public class DatabaseNotFoundException extends DBOpenException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates an exception.
     *
     * @param message C++ LevelDB's status text
     */
    public DatabaseNotFoundException(String message) {
        super(message);
    }
}
