package org.leveldbj.cli;

import java.io.InputStream;
import java.io.PrintStream;

/**
 * The streams a run of the command uses, so that tests can run commands in-process with
 * captured output.
 *
 * <p>Thread safety: the streams are used by the command's thread (and a progress thread, which
 * only writes to {@code err}).
 *
 * @param out standard output: the command's results
 * @param err standard error: errors, progress and summaries
 * @param in standard input, read by {@code import -}
 * @param terminal whether standard error is a terminal (progress bars are drawn only then)
 */
record Io(PrintStream out, PrintStream err, InputStream in, boolean terminal) {
}
