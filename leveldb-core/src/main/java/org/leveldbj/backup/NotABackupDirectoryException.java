package org.leveldbj.backup;

import java.nio.file.Path;
import org.iq80.leveldb.InvalidArgumentException;

/**
 * A directory given as a backup directory is not one this library can use: it does not exist
 * (and was not to be created), it is a file, it holds other things (a database, say) and no
 * {@code LEVELDBJ-BACKUP} marker, or its marker names a format this version does not know. The
 * message says which, and what was found.
 *
 * <p>Thread safety: immutable.
 */
public class NotABackupDirectoryException extends InvalidArgumentException {
    private static final long serialVersionUID = 1L;

    private final transient Path path;

    /**
     * Creates an exception.
     *
     * @param path the directory
     * @param message the message, naming it and what was found
     */
    public NotABackupDirectoryException(Path path, String message) {
        super(message);
        this.path = path;
    }

    /** @return the directory, or {@code null} after deserialization */
    public Path path() {
        return path;
    }
}
