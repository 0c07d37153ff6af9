package org.leveldbj.cli;

/**
 * The exit codes of the {@code leveldb} command, listed once in its top-level help and in
 * doc/cli.md.
 *
 * <p>Thread safety: constants only.
 */
final class ExitCode {
    /** The command did what it was asked. */
    static final int OK = 0;
    /** {@code get}: the key is not in the database. */
    static final int NOT_FOUND = 1;
    /**
     * The command line is wrong: an unknown option, a missing argument, a refused confirmation,
     * an unknown backup id, a target directory that is not empty.
     */
    static final int USAGE = 2;
    /** A file of the database is damaged ({@code verify} found problems, or a read failed). */
    static final int CORRUPTION = 3;
    /** A file could not be read or written: missing, not a database or backup directory, locked, no permission. */
    static final int IO = 4;
    /** Anything else: bad input data, an unsupported comparator, an internal error. */
    static final int OTHER = 5;

    /** The lines of the top-level help ({@code leveldb --help}) that list the exit codes. */
    static final String[] HELP = {
        "  0  ok",
        "  1  key not found (get)",
        "  2  usage error: bad option or argument, missing confirmation, unknown backup id",
        "  3  corruption: a damaged file, or problems found by verify or backup verify",
        "  4  I/O error: missing path, not a database, lock held elsewhere, permissions",
        "  5  other error: bad input data, unsupported comparator, internal error",
    };

    private ExitCode() {
    }
}
