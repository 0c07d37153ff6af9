package org.leveldbj.cli;

import java.nio.file.Path;
import org.iq80.leveldb.DB;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code leveldb get DB KEY}: prints the key's value; exits with {@link ExitCode#NOT_FOUND} when
 * the key is absent. Read-only.
 */
@Command(name = "get", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        header = "Print the value of a key.",
        description = {
            "Exit code 1 when the key is absent. Opens the database read-only.",
        })
final class GetCommand extends CommandBase {
    @Parameters(index = "0", paramLabel = "DB", description = "The database directory.")
    Path db;

    @Parameters(index = "1", paramLabel = "KEY", converter = ByteArg.Converter.class,
            description = "The key: " + ByteArg.SYNTAX + ".")
    ByteArg key;

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "text",
            description = "How to print the value: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE});"
                    + " see 'leveldb scan --help'.")
    OutputFormat format;

    @Option(names = "--raw", description = "Write the value's bytes unchanged, without a newline.")
    boolean raw;

    @Override
    int run() throws Exception {
        byte[] value;
        try (DB database = Databases.openReadOnly(db)) {
            value = database.get(key.bytes());
        }
        if (value == null) {
            summary("leveldb: key not found: " + OutputFormat.TEXT.render(key.bytes()));
            return ExitCode.NOT_FOUND;
        }
        if (raw) {
            out().write(value);
        } else if (format == OutputFormat.JSON) {
            out().println(Json.object().bytes("value", value));
        } else {
            out().println(format.render(value));
        }
        return ExitCode.OK;
    }
}
