package org.iq80.leveldb;

import java.nio.file.Path;

/**
 * The database to open, repair or destroy is in use: another process, or another open database
 * in this JVM (C++ LevelDB, goleveldb or this engine, read-only or not), holds its {@code LOCK}
 * file. Nothing was changed. The message is C++ LevelDB's status text followed by a hint:
 * {@code "IO error: lock DIR/LOCK: already held by process (another process, or another open
 * database in this JVM, is using the database; close it and retry)"}.
 *
 * <p>This is an extension of the 0.12 API, where the same failure was a plain
 * {@link java.io.IOException}; since it is one too, code that catches {@code IOException} is
 * unchanged.
 */
public class DatabaseLockedException extends DBOpenException {
    private static final long serialVersionUID = 1L;

    /** The lock file, as a string so that the exception stays serializable. */
    private final String lockFile;

    /**
     * Creates an exception.
     *
     * @param lockFile the {@code LOCK} file another holder has locked
     * @param cause what the file system or environment reported, or {@code null}
     */
    public DatabaseLockedException(Path lockFile, Throwable cause) {
        super(statusText(lockFile) + " (another process, or another open database in this JVM, is using the"
                + " database; close it and retry)", cause);
        this.lockFile = String.valueOf(lockFile);
    }

    /**
     * C++ LevelDB's status text for this failure, without the hint.
     *
     * @param lockFile the lock file
     * @return {@code "IO error: lock LOCKFILE: already held by process"}
     */
    public static String statusText(Path lockFile) {
        return "IO error: lock " + lockFile + ": already held by process";
    }

    /**
     * The lock file another holder has locked.
     *
     * @return its path, as given to the open
     */
    public String lockFile() {
        return lockFile;
    }
}
