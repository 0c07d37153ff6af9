package org.leveldbj.cli;

import java.io.PrintStream;
import java.nio.file.Path;
import org.iq80.leveldb.DB;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code leveldb scan DB}: prints the entries of a key range, one per line, in one of the
 * {@link OutputFormat}s. Read-only.
 */
@Command(name = "scan", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        header = "Print the entries of a key range.",
        description = {
            "One entry per line, in key order (or reversed). Opens the database read-only.",
        },
        footerHeading = "%nFormats:%n",
        footer = {
            "  text    key<TAB>value, escaped: printable ASCII stands for itself except the",
            "          backslash; every other byte (backslash, tab, newline...) is \\xNN",
            "  hex     key<TAB>value in lowercase hex",
            "  base64  key<TAB>value in base64",
            "  json    {\"key\":\"...\",\"value\":\"...\"} with base64 strings (as export writes)",
            "",
            "The range: --from is inclusive, --to is exclusive; with --prefix as well, the",
            "keys satisfying all of them. --reverse goes from the range's last key to its first.",
        })
final class ScanCommand extends CommandBase {
    @Parameters(index = "0", paramLabel = "DB", description = "The database directory.")
    Path db;

    @Mixin
    RangeOptions range;

    @Option(names = "--reverse", description = "From the last key to the first.")
    boolean reverse;

    @Option(names = "--limit", paramLabel = "N", description = "Print at most N entries.")
    long limit;

    @Option(names = "--keys-only", description = "Print the keys only.")
    boolean keysOnly;

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "text",
            description = "${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
    OutputFormat format;

    @Override
    int run() throws Exception {
        PrintStream out = out();
        try (DB database = Databases.openReadOnly(db)) {
            long[] printed = {0};
            range.range().scan(database, reverse, limit, (key, value) -> {
                out.println(format.line(key, keysOnly ? null : value));
                // A closed pipe (scan ... | head) ends the scan; checking flushes, so not every line.
                return ++printed[0] % 4096 != 0 || !out.checkError();
            });
        }
        return ExitCode.OK;
    }
}
