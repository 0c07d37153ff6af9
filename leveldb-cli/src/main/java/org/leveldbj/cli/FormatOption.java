package org.leveldbj.cli;

import picocli.CommandLine.Option;

/**
 * The {@code --format text|json} option of the commands that print a report ({@link ReportFormat}).
 *
 * <p>Thread safety: set by the parser, read by the command's thread.
 */
final class FormatOption {
    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "text",
            description = "${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}); json is described in 'leveldb --help'.")
    ReportFormat format;

    /** @return whether JSON was asked for */
    boolean json() {
        return format == ReportFormat.JSON;
    }
}
