package org.leveldbj.backup;

import org.iq80.leveldb.InvalidArgumentException;

/**
 * The backup directory has no backup of the id asked for: it was never made, was purged, or
 * was interrupted before it was complete. The message names the id, the directory and the ids
 * there are.
 *
 * <p>Thread safety: immutable.
 */
public class BackupNotFoundException extends InvalidArgumentException {
    private static final long serialVersionUID = 1L;

    private final int id;

    /**
     * Creates an exception.
     *
     * @param id the id asked for
     * @param message the message, naming the id and the directory
     */
    public BackupNotFoundException(int id, String message) {
        super(message);
        this.id = id;
    }

    /** @return the id asked for */
    public int id() {
        return id;
    }
}
