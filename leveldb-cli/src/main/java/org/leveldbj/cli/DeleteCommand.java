package org.leveldbj.cli;

import java.nio.file.Path;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.WriteOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code leveldb delete DB KEY}: deletes one key (absent keys too), synced to disk. */
@Command(name = "delete", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        header = "Delete a key.",
        description = {
            "A synced write; deleting an absent key is not an error.",
        })
final class DeleteCommand extends CommandBase {
    @Parameters(index = "0", paramLabel = "DB", description = "The database directory.")
    Path db;

    @Parameters(index = "1", paramLabel = "KEY", converter = ByteArg.Converter.class,
            description = "The key: " + ByteArg.SYNTAX + ".")
    ByteArg key;

    @Override
    int run() throws Exception {
        try (DB database = Databases.openWritable(db, false)) {
            database.delete(key.bytes(), new WriteOptions().sync(true));
        }
        return ExitCode.OK;
    }
}
