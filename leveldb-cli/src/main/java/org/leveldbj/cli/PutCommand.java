package org.leveldbj.cli;

import java.nio.file.Path;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.WriteOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code leveldb put DB KEY VALUE}: writes one entry, synced to disk. */
@Command(name = "put", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        header = "Set a key to a value.",
        description = {
            "A synced write.",
        })
final class PutCommand extends CommandBase {
    @Parameters(index = "0", paramLabel = "DB", description = "The database directory.")
    Path db;

    @Parameters(index = "1", paramLabel = "KEY", converter = ByteArg.Converter.class,
            description = "The key: " + ByteArg.SYNTAX + ".")
    ByteArg key;

    @Parameters(index = "2", paramLabel = "VALUE", converter = ByteArg.Converter.class,
            description = "The value: " + ByteArg.SYNTAX + ".")
    ByteArg value;

    @Option(names = "--create", description = "Create the database when it does not exist.")
    boolean create;

    @Override
    int run() throws Exception {
        try (DB database = Databases.openWritable(db, create)) {
            database.put(key.bytes(), value.bytes(), new WriteOptions().sync(true));
        }
        return ExitCode.OK;
    }
}
