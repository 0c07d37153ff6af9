package org.iq80.leveldb;

/**
 * An operation the open database refuses as a misuse of it: C++ LevelDB's "Invalid argument"
 * category, here a write, {@code compactRange} or compaction control on a database opened
 * {@link Options#readOnly(boolean) read-only}. The message says what was refused
 * ({@code "database DIR is open read-only: put is not allowed"}).
 *
 * <p>This is an extension of the 0.12 API: a {@link DBException}, so code that catches
 * {@code DBException} keeps working. Options that conflict with an existing database are
 * reported when it is opened, by {@link InvalidDatabaseArgumentException}.
 */
public class InvalidArgumentException extends DBException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates an exception.
     *
     * @param message what was refused
     */
    public InvalidArgumentException(String message) {
        super(message);
    }
}
