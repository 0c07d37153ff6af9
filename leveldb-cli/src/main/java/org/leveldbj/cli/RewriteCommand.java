package org.leveldbj.cli;

import java.nio.file.Path;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.ExtendedDB;
import org.leveldbj.filename.FileType;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/**
 * {@code leveldb rewrite DB}: turns a database with separated values back into plain LevelDB
 * format, which C++ LevelDB, goleveldb and leveldbjni can open.
 */
@Command(name = "rewrite", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        header = "Turn a database with separated values into plain LevelDB format.",
        description = {
            "A database written with a value threshold keeps large values in value files",
            "(NNNNNN.vlog) and names a comparator other LevelDB implementations refuse.",
            "This rewrites every table with its values in it, deletes the value files and",
            "starts a MANIFEST with the plain comparator name: C++ LevelDB, goleveldb and",
            "leveldbjni can then open the database. Open it without a value threshold",
            "afterwards to keep it so. A database without value files is left as it is.",
            "In JSON: {\"database\":...,\"value_files_before\":N,\"value_file_bytes_before\":N,",
            "\"value_files_after\":N}.",
        })
final class RewriteCommand extends CommandBase {
    @Parameters(index = "0", paramLabel = "DB", description = "The database directory.")
    Path db;

    @Mixin
    FormatOption format;

    @Override
    int run() throws Exception {
        Databases.requireDatabase(db);
        long[] before = DbFile.countAndSize(db, FileType.VALUE);
        Progress progress = Progress.ticking(io(), quiet(), "rewriting " + db);
        try (DB database = Databases.openWritable(db, false)) {
            ((ExtendedDB) database).inlineSeparatedValues();
        } finally {
            progress.close();
        }
        long[] after = DbFile.countAndSize(db, FileType.VALUE);
        if (format.json()) {
            out().println(Json.object().add("database", db.toString()).add("value_files_before", before[0])
                    .add("value_file_bytes_before", before[1]).add("value_files_after", after[0]));
        } else {
            out().printf("rewrote %s in plain LevelDB format: %s (%s) before, %d after%n", db,
                    Plural.count(before[0], "value file"), Progress.bytes(before[1]), after[0]);
        }
        return ExitCode.OK;
    }
}
