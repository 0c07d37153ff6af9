package org.leveldbj.cli;

import java.nio.file.Path;
import org.iq80.leveldb.Options;
import org.leveldbj.db.LevelDbFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code leveldb destroy DB --yes}: deletes the database's files ({@code DBFactory.destroy});
 * files of other names stay, and so does the directory then. Refuses without {@code --yes}.
 */
@Command(name = "destroy", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        header = "Delete a database (needs --yes).",
        description = {
            "Deletes every file whose name a database uses, then the directory if nothing",
            "else is left in it. In JSON: {\"destroyed\":\"DB\"}.",
        })
final class DestroyCommand extends CommandBase {
    @Parameters(index = "0", paramLabel = "DB", description = "The database directory.")
    Path db;

    @Option(names = "--yes", description = "Confirm that the database is to be deleted.")
    boolean yes;

    @Mixin
    FormatOption format;

    @Override
    int run() throws Exception {
        if (!yes) {
            throw new CliFailure(ExitCode.USAGE, "destroy deletes the database in " + db
                    + " and cannot be undone; add --yes to confirm");
        }
        Databases.requireDirectory(db);
        LevelDbFactory.factory.destroy(db.toFile(), new Options());
        out().println(format.json() ? Json.object().add("destroyed", db.toString()).toString() : "destroyed " + db);
        return ExitCode.OK;
    }
}
