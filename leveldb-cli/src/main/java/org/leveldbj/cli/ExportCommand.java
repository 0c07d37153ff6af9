package org.leveldbj.cli;

import java.io.BufferedWriter;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.iq80.leveldb.DB;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/**
 * {@code leveldb export DB FILE}: writes every entry (of a key range) as JSON lines
 * {@code {"key":"<base64>","value":"<base64>"}}, in key order, streaming. Read-only.
 */
@Command(name = "export", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        header = "Write the entries as JSON lines.",
        description = {
            "Writes the entries, in key order, as {\"key\":\"...\",\"value\":\"...\"} lines with",
            "base64 strings (binary-safe; 'leveldb import' reads them back). FILE - is",
            "standard output. Opens the database read-only.",
        },
        footer = {
            "The range: --from is inclusive, --to is exclusive; with --prefix as well, the",
            "keys satisfying all of them.",
        })
final class ExportCommand extends CommandBase {
    @Parameters(index = "0", paramLabel = "DB", description = "The database directory.")
    Path db;

    @Parameters(index = "1", paramLabel = "FILE", description = "The output file (replaced if it exists), or - for standard output.")
    String file;

    @Mixin
    RangeOptions range;

    @Override
    int run() throws Exception {
        boolean toStdout = file.equals("-");
        long n;
        try (DB database = Databases.openReadOnly(db);
                OutputStream target = toStdout ? new NonClosing(out()) : Files.newOutputStream(Path.of(file));
                Writer writer = new BufferedWriter(new OutputStreamWriter(target, StandardCharsets.UTF_8), 1 << 16);
                Progress progress = Progress.start(io(), quiet(), "exporting", -1, Progress.Unit.ENTRIES)) {
            n = range.range().scan(database, false, 0, (key, value) -> {
                writer.write(OutputFormat.JSON.line(key, value));
                writer.write('\n');
                progress.add(1);
                return true;
            });
        }
        summary("exported " + Plural.count(n, "entry") + " from " + db + " to " + (toStdout ? "standard output" : file));
        return ExitCode.OK;
    }

    /** Standard output, flushed but not closed when the writer on it is closed. */
    private static final class NonClosing extends java.io.FilterOutputStream {
        NonClosing(OutputStream out) {
            super(out);
        }

        @Override
        public void write(byte[] b, int off, int len) throws java.io.IOException {
            out.write(b, off, len);
        }

        @Override
        public void close() throws java.io.IOException {
            flush();
        }
    }
}
