package org.leveldbj.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.iq80.leveldb.CorruptDatabaseException;
import org.iq80.leveldb.CorruptionException;
import org.iq80.leveldb.DBException;
import org.iq80.leveldb.DBOpenException;
import org.iq80.leveldb.DatabaseLockedException;
import org.iq80.leveldb.DatabasePathNotDirectoryException;
import org.iq80.leveldb.Env;
import org.iq80.leveldb.DatabaseNotFoundException;
import org.iq80.leveldb.IOErrorException;
import org.iq80.leveldb.InvalidDatabaseArgumentException;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine;

/**
 * Turns what a command throws into one line on standard error ({@code leveldb: what, where,
 * what to do}) and an {@link ExitCode}; with {@code --verbose} the stack trace follows.
 *
 * <ul>
 *   <li>{@link CliFailure}: its own message and code.
 *   <li>{@link CorruptionException}: {@link ExitCode#CORRUPTION}, naming the file and offset and
 *       suggesting {@code leveldb repair}.
 *   <li>{@link IOException} (a held lock included) and the engine's I/O errors:
 *       {@link ExitCode#IO}.
 *   <li>Opening a database created with another comparator, and everything else:
 *       {@link ExitCode#OTHER}.
 * </ul>
 *
 * <p>Thread safety: stateless.
 */
final class Errors implements IExecutionExceptionHandler {
    @Override
    public int handleExecutionException(Exception e, CommandLine commandLine, ParseResult parseResult) {
        PrintStream err = ((LeveldbCommand) commandLine.getCommandSpec().root().userObject()).io().err();
        Report report = report(e);
        err.println("leveldb: " + report.message());
        if (verbose(parseResult)) {
            e.printStackTrace(err);
        }
        err.flush();
        return report.exitCode();
    }

    /** Whether {@code --verbose} was given to the command or any of its parents. */
    private static boolean verbose(ParseResult result) {
        for (ParseResult r = result; r != null; r = r.hasSubcommand() ? r.subcommand() : null) {
            if (r.hasMatchedOption("--verbose")) {
                return true;
            }
        }
        return false;
    }

    /**
     * The message and exit code for a failure.
     *
     * @param message the line after {@code leveldb: }
     * @param exitCode one of {@link ExitCode}
     */
    record Report(String message, int exitCode) {
    }

    /**
     * Explains a failure.
     *
     * @param e what the command threw
     * @return the message and exit code
     */
    static Report report(Throwable e) {
        if (e instanceof CliFailure) {
            return new Report(e.getMessage(), ((CliFailure) e).exitCode());
        }
        if (e instanceof CorruptionException) {
            return new Report(corruption((CorruptionException) e), ExitCode.CORRUPTION);
        }
        if (e instanceof UncheckedIOException && e.getCause() != null) {
            return report(e.getCause());
        }
        if (e instanceof CorruptDatabaseException) {
            return report(e.getCause());
        }
        if (e instanceof DatabaseNotFoundException) {
            return new Report(e.getMessage() + " (check the path)", ExitCode.IO);
        }
        if (e instanceof InvalidDatabaseArgumentException) {
            // The tool never opens with errorIfExists, so the only conflict left is the comparator.
            return new Report(e.getMessage() + " (this tool opens only databases ordered by"
                    + " leveldb.BytewiseComparator; 'leveldb dump' and 'leveldb verify' read any database)",
                    ExitCode.OTHER);
        }
        if (e instanceof DatabaseLockedException || e instanceof DatabasePathNotDirectoryException) {
            return new Report(e.getMessage(), ExitCode.IO); // the engine's message holds the hint
        }
        if (e instanceof DBOpenException) {
            return e.getCause() != null ? report(e.getCause()) : new Report(e.getMessage(), ExitCode.OTHER);
        }
        if (e instanceof IOException) {
            return new Report(io((IOException) e), ExitCode.IO);
        }
        if (e instanceof IOErrorException) {
            return new Report(e.getMessage(), ExitCode.IO);
        }
        if (e instanceof DBException) {
            if (e.getCause() instanceof CorruptionException) {
                return report(e.getCause());
            }
            return new Report(String.valueOf(e.getMessage()), ExitCode.OTHER);
        }
        return new Report("internal error: " + e + " (run with --verbose for the stack trace)", ExitCode.OTHER);
    }

    private static String corruption(CorruptionException e) {
        StringBuilder sb = new StringBuilder("corruption");
        if (e.file() != null) {
            sb.append(" in ").append(e.file());
            if (e.offset() != CorruptionException.UNKNOWN_OFFSET) {
                sb.append(" at offset ").append(e.offset());
            }
        }
        sb.append(": ").append(e.reason());
        Path dir = e.file() == null ? null : Path.of(e.file()).toAbsolutePath().getParent();
        sb.append(dir == null ? " (run 'leveldb repair DIR')" : " (run 'leveldb repair " + dir + "')");
        return sb.toString();
    }

    private static String io(IOException e) {
        String message = String.valueOf(e.getMessage());
        if (e instanceof Env.LockHeldException) {
            return message + " (another process, or another open database in this one, is using the database;"
                    + " close it and retry)";
        }
        if (e instanceof NoSuchFileException) {
            return "no such file: " + message;
        }
        if (e instanceof AccessDeniedException) {
            return "permission denied: " + message;
        }
        return "I/O error: " + message;
    }
}
