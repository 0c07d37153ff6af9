package org.iq80.leveldb;

/**
 * Opening found damaged files (the {@code CURRENT} file, the MANIFEST, a log replayed with
 * {@link Options#paranoidChecks()}, a table named but missing, a value file the tables refer to
 * but missing). The database was not changed;
 * {@link DBFactory#repair} recovers what can be read. The cause is the
 * {@link CorruptionException} that names the file and offset, also available through
 * {@link #reason()}, {@link #file()} and {@link #offset()}; the message is the same
 * {@code "Corruption: ..."} text.
 */
public class CorruptDatabaseException extends DBOpenException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates an exception for a corruption found while opening.
     *
     * @param corruption what the engine found
     */
    public CorruptDatabaseException(CorruptionException corruption) {
        super(corruption.getMessage(), corruption);
    }

    @Override
    public synchronized CorruptionException getCause() {
        return (CorruptionException) super.getCause();
    }

    /**
     * What is wrong, without the location.
     *
     * @return the reason, e.g. {@code "bad record length"}
     */
    public String reason() {
        return getCause().reason();
    }

    /**
     * The damaged file.
     *
     * @return its name or path, or {@code null} when unknown
     */
    public String file() {
        return getCause().file();
    }

    /**
     * Where in {@link #file()} the damage is.
     *
     * @return the byte offset, or {@link CorruptionException#UNKNOWN_OFFSET}
     */
    public long offset() {
        return getCause().offset();
    }
}
