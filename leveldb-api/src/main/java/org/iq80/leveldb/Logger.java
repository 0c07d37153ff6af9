package org.iq80.leveldb;

/**
 * Receives the database's informational messages: opening, recovery, compactions, background
 * errors. Set with {@link Options#logger(Logger)}; without a logger the messages go to the
 * {@code LOG} file in the database directory, as in C++ LevelDB.
 *
 * <p>Thread safety: messages come from the caller's threads and from background threads, so an
 * implementation must be safe for concurrent use. It must not call back into the database.
 */
public interface Logger {

    /**
     * Records one message.
     *
     * @param message the message, a single line without a trailing line break
     */
    void log(String message);
}
