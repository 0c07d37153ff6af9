package org.iq80.leveldb;

import java.io.IOException;

/**
 * Thrown by {@link DBFactory#open} when a database cannot be opened for a reason the engine
 * recognises: it does not exist ({@link DatabaseNotFoundException}), the options conflict with
 * it ({@link InvalidDatabaseArgumentException}), or its files are damaged
 * ({@link CorruptDatabaseException}). Other causes (a lock held by another user, a file that
 * cannot be read) stay the {@link IOException}s the file system raised.
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
