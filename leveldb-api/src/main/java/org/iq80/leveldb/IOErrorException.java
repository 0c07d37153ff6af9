package org.iq80.leveldb;

/**
 * An open database could not read or write a file: C++ LevelDB's "IO error" status. The message
 * is the same text ({@code "IO error: 000005.log: No space left on device"}), and the cause is
 * the file system's exception when there is one. A failed write of the log or of background
 * work is sticky: every later write fails, with the first failure as the cause.
 *
 * <p>This is an extension of the 0.12 API: a {@link DBException}, so code that catches
 * {@code DBException} keeps working, while code that wants to tell a full disk or a failing
 * device from other failures can catch this one. Failures to open a database are
 * {@link java.io.IOException}s instead (see {@link DBFactory#open}).
 */
public class IOErrorException extends DBException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates an exception.
     *
     * @param message C++ LevelDB's status text, {@code "IO error: ..."}
     * @param cause the file system's exception, or {@code null}
     */
    public IOErrorException(String message, Throwable cause) {
        super(message, cause);
    }
}
