package org.fusesource.leveldbjni.internal;

import java.io.IOException;

/**
 * leveldbjni 1.8's {@code NativeDB}, reduced to what applications reference: its nested
 * {@link DBException}, which {@code JniDBFactory.open}, {@code destroy} and {@code repair} throw.
 * The native handle and its methods, used only inside leveldbjni, are not provided: the
 * database behind {@link org.fusesource.leveldbjni.JniDBFactory} is this project's pure-Java
 * engine.
 */
public final class NativeDB {
    private NativeDB() {
    }

    /**
     * A failure reported by the database, carrying C++ LevelDB's status text
     * ({@code "Invalid argument: DIR: does not exist (create_if_missing is false)"},
     * {@code "IO error: lock DIR/LOCK: already held by process"}, {@code "Corruption: ..."}).
     *
     * <p>{@link #isNotFound()} is what leveldbjni 1.8 reports, and it reports {@code false} for
     * every failure of {@code open}: a missing database is C++ LevelDB's "Invalid argument" status,
     * which applications recognise by the text {@code " does not exist "} (Spark, Hadoop YARN and
     * Celeborn check {@code isNotFound() || getMessage().contains(" does not exist ")}). The cause,
     * when there is one, is the engine's own exception (a
     * {@link org.iq80.leveldb.DatabaseNotFoundException}, a
     * {@link org.iq80.leveldb.CorruptDatabaseException} naming file and offset, ...).
     */
    public static class DBException extends IOException {
        private static final long serialVersionUID = 1L;

        private final boolean notFound;

        /**
         * Creates an exception, as leveldbjni's package-private constructor does.
         *
         * @param message C++ LevelDB's status text
         * @param notFound whether the status was "not found"
         */
        public DBException(String message, boolean notFound) {
            super(message);
            this.notFound = notFound;
        }

        /**
         * Creates an exception for a failure of this project's engine.
         *
         * @param message C++ LevelDB's status text
         * @param notFound whether the status was "not found"
         * @param cause the engine's exception
         */
        public DBException(String message, boolean notFound, Throwable cause) {
            super(message, cause);
            this.notFound = notFound;
        }

        /**
         * Tells whether the failed status was C++ LevelDB's "not found".
         *
         * @return {@code true} for "not found" ({@code false} for every failure of {@code open},
         *     as in leveldbjni 1.8)
         */
        public boolean isNotFound() {
            return notFound;
        }
    }
}
