package org.iq80.leveldb;

/**
 * The options conflict with the database to open: it exists and
 * {@link Options#errorIfExists()} is on, or it was created with another comparator than
 * {@link Options#comparator()}. Nothing was changed. The message is C++ LevelDB's
 * {@code "Invalid argument: ..."} text, for example
 * {@code "Invalid argument: leveldb.BytewiseComparator does not match existing comparator : reverse"}.
 */
public class InvalidDatabaseArgumentException extends DBOpenException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates an exception.
     *
     * @param message C++ LevelDB's status text
     */
    public InvalidDatabaseArgumentException(String message) {
        super(message);
    }
}
