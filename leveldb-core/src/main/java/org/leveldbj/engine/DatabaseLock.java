package org.leveldbj.engine;

import java.io.IOException;
import java.nio.file.Path;
import org.iq80.leveldb.DatabaseLockedException;
import org.iq80.leveldb.DatabasePathNotDirectoryException;
import org.iq80.leveldb.Env;
import org.leveldbj.filename.FileNames;

/**
 * Takes a database directory's {@code LOCK}, turning the two mistakes users make most into
 * typed failures: a path that is a file ({@link DatabasePathNotDirectoryException}) and a
 * database that another process or open database holds ({@link DatabaseLockedException},
 * from the {@link Env.LockHeldException} every environment throws for it).
 *
 * <p>Thread safety: stateless.
 */
final class DatabaseLock {
    private DatabaseLock() {
    }

    /**
     * Refuses a path that exists and is not a directory.
     *
     * @param env the environment
     * @param dir the database directory
     * @throws DatabasePathNotDirectoryException if {@code dir} exists and is not a directory
     */
    private static void checkNotAFile(Env env, Path dir) throws DatabasePathNotDirectoryException {
        if (env.fileExists(dir) && !env.isDirectory(dir)) {
            throw new DatabasePathNotDirectoryException(dir);
        }
    }

    /**
     * Locks a database directory, creating its {@code LOCK} file when missing (the directory
     * must exist).
     *
     * @param env the environment
     * @param dir the database directory
     * @return the held lock
     * @throws DatabasePathNotDirectoryException if {@code dir} is not a directory
     * @throws DatabaseLockedException if another process or open database holds it
     * @throws IOException if the lock cannot be taken for another reason
     */
    static Env.FileLock lock(Env env, Path dir) throws IOException {
        checkNotAFile(env, dir);
        return lockFile(env, dir, true);
    }

    /**
     * Creates a database directory when missing, then locks it, as opening a writable database
     * does; a path that is a file is refused before anything is created.
     *
     * @return the held lock
     * @throws DatabasePathNotDirectoryException if {@code dir} is not a directory
     * @throws DatabaseLockedException if another process or open database holds it
     * @throws IOException if the directory cannot be created or locked
     */
    static Env.FileLock createAndLock(Env env, Path dir) throws IOException {
        checkNotAFile(env, dir);
        env.createDir(dir);
        return lockFile(env, dir, true);
    }

    /**
     * Locks an existing {@code LOCK} file, as read-only opens do.
     *
     * @return the held lock, or {@code null} when the database has no {@code LOCK} file
     * @throws DatabaseLockedException if another process or open database holds it
     * @throws IOException if the lock cannot be taken for another reason
     */
    static Env.FileLock lockExisting(Env env, Path dir) throws IOException {
        checkNotAFile(env, dir);
        return lockFile(env, dir, false);
    }

    private static Env.FileLock lockFile(Env env, Path dir, boolean create) throws IOException {
        Path file = dir.resolve(FileNames.LOCK);
        try {
            return create ? env.lockFile(file) : env.lockExistingFile(file);
        } catch (Env.LockHeldException e) {
            throw new DatabaseLockedException(file, e);
        }
    }
}
