package org.iq80.leveldb;

/**
 * The unchecked exception every database operation throws when it fails.
 *
 * <p>Subclasses name particular causes a caller may want to handle separately, such as
 * {@link CorruptionException}.
 */
public class DBException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** Creates an exception with neither message nor cause. */
    public DBException() {
    }

    /**
     * Creates an exception with a message.
     *
     * @param s the message
     */
    public DBException(String s) {
        super(s);
    }

    /**
     * Creates an exception with a message and a cause.
     *
     * @param s the message
     * @param throwable the cause
     */
    public DBException(String s, Throwable throwable) {
        super(s, throwable);
    }

    /**
     * Creates an exception wrapping a cause.
     *
     * @param throwable the cause
     */
    public DBException(Throwable throwable) {
        super(throwable);
    }
}
