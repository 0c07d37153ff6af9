package org.leveldbj.cli;

import picocli.CommandLine.Option;

/**
 * The options every command takes: {@code --verbose} and {@code --quiet}.
 *
 * <p>Thread safety: set by the parser, read by the command's thread.
 */
final class CommonOptions {
    @Option(names = {"-v", "--verbose"}, description = "On failure, print the stack trace too.")
    boolean verbose;

    @Option(names = {"-q", "--quiet"}, description = "No progress bar and no summary on standard error.")
    boolean quiet;
}
