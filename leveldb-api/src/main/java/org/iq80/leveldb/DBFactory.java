package org.iq80.leveldb;

import java.io.File;
import java.io.IOException;

/**
 * Opens, destroys and repairs databases. Each implementation of this API provides one; this
 * project's engine registers its factory with {@link java.util.ServiceLoader} under this
 * interface's name and also exposes it as a static field, as described in the
 * {@linkplain org.iq80.leveldb package overview}.
 *
 * <p>Thread safety: a factory is safe for concurrent use. A database directory may be open in
 * only one {@link DB} at a time, in this process or any other; a second {@code open} fails
 * while the first holds the directory's lock.
 */
public interface DBFactory {

    /**
     * Opens the database in a directory, creating it when
     * {@link Options#createIfMissing()} is set.
     *
     * @param path the database directory
     * @param options how to open the database and how it behaves while open
     * @return the open database; the caller closes it
     * @throws DatabaseNotFoundException if it does not exist and {@code createIfMissing} is off
     *     (or it is to be opened read-only)
     * @throws InvalidDatabaseArgumentException if it exists and {@link Options#errorIfExists()}
     *     is on, or it was created with another comparator
     * @throws CorruptDatabaseException if its files are damaged
     * @throws IOException if it cannot be opened for another reason: it is locked by another
     *     user, or its files cannot be read ({@link DBOpenException} when the engine, not the
     *     file system, refused)
     */
    DB open(File path, Options options) throws IOException;

    /**
     * Deletes a database: its files and then its directory if nothing else is left in it. Files
     * that do not belong to the database are kept. Destroying a database that does not exist is
     * not an error. The database must not be open.
     *
     * @param path the database directory
     * @param options the options the database was used with
     * @throws IOException if the database is open or its files cannot be deleted
     */
    void destroy(File path, Options options) throws IOException;

    /**
     * Recovers as much data as possible from a damaged database, so that it can be opened again.
     * Entries in damaged parts of files are lost, and entries that were deleted may reappear.
     * The database must not be open. Use it after an open or read failed with a
     * {@link CorruptionException}.
     *
     * @param path the database directory
     * @param options the options the database was used with; the comparator must be the one it
     *     was created with
     * @throws IOException if the repair fails
     */
    void repair(File path, Options options) throws IOException;
}
