package org.leveldbj.cli;

import java.nio.file.Path;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.Range;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/**
 * {@code leveldb approx-size DB FROM TO}: the approximate number of table bytes holding the keys
 * in {@code [FROM, TO)} ({@code DB.getApproximateSizes}). Read-only.
 */
@Command(name = "approx-size", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        header = "Print the approximate table bytes of a key range.",
        description = {
            "The approximate size in bytes of the table data holding the keys from FROM",
            "(inclusive) to TO (exclusive). Writes still in the log are not counted. In JSON,",
            "{\"from\":\"<base64>\",\"to\":\"<base64>\",\"bytes\":N}. Opens the database read-only.",
        })
final class ApproxSizeCommand extends CommandBase {
    @Parameters(index = "0", paramLabel = "DB", description = "The database directory.")
    Path db;

    @Parameters(index = "1", paramLabel = "FROM", converter = ByteArg.Converter.class,
            description = "The first key (" + ByteArg.SYNTAX + ").")
    ByteArg from;

    @Parameters(index = "2", paramLabel = "TO", converter = ByteArg.Converter.class,
            description = "The key after the last (" + ByteArg.SYNTAX + ").")
    ByteArg to;

    @Mixin
    FormatOption format;

    @Override
    int run() throws Exception {
        try (DB database = Databases.openReadOnly(db)) {
            long bytes = database.getApproximateSizes(new Range(from.bytes(), to.bytes()))[0];
            out().println(format.json() ? Json.object().bytes("from", from.bytes()).bytes("to", to.bytes())
                    .add("bytes", bytes).toString() : Long.toString(bytes));
        }
        return ExitCode.OK;
    }
}
