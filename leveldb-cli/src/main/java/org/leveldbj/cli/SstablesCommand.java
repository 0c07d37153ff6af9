package org.leveldbj.cli;

import java.nio.file.Path;
import org.iq80.leveldb.DB;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code leveldb sstables DB}: the live tables level by level with their sizes and key ranges
 * (the {@code leveldb.sstables} property). Read-only.
 */
@Command(name = "sstables", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        header = "Print the live tables per level.",
        description = {
            "Number, size and key range of every table (the leveldb.sstables property).",
            "Opens the database read-only.",
        })
final class SstablesCommand extends CommandBase {
    @Parameters(index = "0", paramLabel = "DB", description = "The database directory.")
    Path db;

    @Override
    int run() throws Exception {
        try (DB database = Databases.openReadOnly(db)) {
            out().print(database.getProperty("leveldb.sstables"));
        }
        return ExitCode.OK;
    }
}
