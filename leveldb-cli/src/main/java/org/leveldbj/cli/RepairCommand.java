package org.leveldbj.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.iq80.leveldb.Options;
import org.leveldbj.db.LevelDbFactory;
import org.leveldbj.filename.FileType;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/**
 * {@code leveldb repair DB}: rebuilds a usable database from whatever tables and logs can be
 * read ({@code DBFactory.repair}); unusable files are moved to {@code DB/lost/}. Prints what
 * the repair did.
 */
@Command(name = "repair", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        header = "Rebuild a database from its readable files.",
        description = {
            "Keeps every readable entry of the tables and logs, moves damaged files to the",
            "lost/ subdirectory and writes a new MANIFEST. Entries in damaged blocks are",
            "lost; 'leveldb verify' shows them first. Prints what the repair did and the",
            "tables it left; in JSON, {\"database\":...,\"tables\":N,\"bytes\":N,\"log\":[...]}.",
        })
final class RepairCommand extends CommandBase {
    @Parameters(index = "0", paramLabel = "DB", description = "The database directory.")
    Path db;

    @Mixin
    FormatOption format;

    @Override
    int run() throws Exception {
        Databases.requireDirectory(db);
        boolean anything = DbFile.list(db).stream().anyMatch(f -> f.type() == FileType.TABLE
                || f.type() == FileType.LOG || f.type() == FileType.DESCRIPTOR);
        if (!anything) {
            throw new CliFailure(ExitCode.IO, "nothing to repair in " + db + ": it holds no table, log or MANIFEST file"
                    + " (check the path)");
        }
        List<String> log = new ArrayList<>();
        Options options = Databases.writeOptions(db).logger(message -> {
            synchronized (log) {
                log.add(message);
            }
        });
        Progress progress = Progress.ticking(io(), quiet(), "repairing " + db);
        try {
            LevelDbFactory.factory.repair(db.toFile(), options);
        } finally {
            progress.close();
        }
        List<String> lines;
        synchronized (log) {
            lines = new ArrayList<>(log);
        }
        long[] tables = CompactCommand.tables(db);
        if (format.json()) {
            out().println(Json.object().add("database", db.toString()).add("tables", tables[0])
                    .add("bytes", tables[1]).array("log", lines));
        } else {
            lines.forEach(out()::println);
            out().printf("repaired %s: %s (%s)%n", db, Plural.count(tables[0], "table"), Progress.bytes(tables[1]));
        }
        return ExitCode.OK;
    }
}
