package org.leveldbj.cli;

/**
 * A failure the command explains itself: a one-line message (what, where, what to do) and the
 * exit code. The top level prints {@code leveldb: <message>} on standard error and exits with the
 * code.
 *
 * <p>Thread safety: immutable.
 */
final class CliFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int exitCode;

    /**
     * Creates a failure.
     *
     * @param exitCode one of {@link ExitCode}
     * @param message the one-line message, without the {@code leveldb: } prefix
     */
    CliFailure(int exitCode, String message) {
        super(message);
        this.exitCode = exitCode;
    }

    /**
     * Creates a failure caused by an exception (shown with {@code --verbose}).
     *
     * @param exitCode one of {@link ExitCode}
     * @param message the one-line message, without the {@code leveldb: } prefix
     * @param cause the exception behind it
     */
    CliFailure(int exitCode, String message, Throwable cause) {
        super(message, cause);
        this.exitCode = exitCode;
    }

    /** @return the exit code, one of {@link ExitCode} */
    int exitCode() {
        return exitCode;
    }
}
