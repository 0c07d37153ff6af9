package org.leveldbj.cli;

import java.io.IOException;
import java.nio.file.Path;
import org.iq80.leveldb.DB;
import org.leveldbj.filename.FileType;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code leveldb compact DB}: compacts a key range (everything by default) down the levels,
 * dropping overwritten and deleted entries, and reports the tables before and after.
 */
@Command(name = "compact", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        header = "Compact a key range (all keys by default).",
        description = {
            "Rewrites the tables of the key range from --from to --to, both inclusive as in",
            "LevelDB's CompactRange (all keys by default), down the levels, dropping",
            "overwritten and deleted entries. Prints the tables before and after; in JSON,",
            "{\"database\":...,\"tables_before\":N,\"bytes_before\":N,\"tables_after\":N,",
            "\"bytes_after\":N}.",
        })
final class CompactCommand extends CommandBase {
    @Parameters(index = "0", paramLabel = "DB", description = "The database directory.")
    Path db;

    @Option(names = "--from", paramLabel = "KEY", converter = ByteArg.Converter.class,
            description = "The first key of the range (" + ByteArg.SYNTAX + "); default: the first key.")
    ByteArg from;

    @Option(names = "--to", paramLabel = "KEY", converter = ByteArg.Converter.class,
            description = "The last key of the range, inclusive as in LevelDB's CompactRange ("
                    + ByteArg.SYNTAX + "); default: the last key.")
    ByteArg to;

    @Mixin
    FormatOption format;

    @Override
    int run() throws Exception {
        Databases.requireDatabase(db);
        long[] before = tables(db);
        Progress progress = Progress.ticking(io(), quiet(), "compacting " + db);
        try (DB database = Databases.openWritable(db, false)) {
            database.compactRange(from == null ? null : from.bytes(), to == null ? null : to.bytes());
        } finally {
            progress.close();
        }
        long[] after = tables(db);
        if (format.json()) {
            out().println(Json.object().add("database", db.toString()).add("tables_before", before[0])
                    .add("bytes_before", before[1]).add("tables_after", after[0]).add("bytes_after", after[1]));
        } else {
            out().printf("compacted %s: %s (%s) before, %s (%s) after%n", db, Plural.count(before[0], "table"),
                    Progress.bytes(before[1]), Plural.count(after[0], "table"), Progress.bytes(after[1]));
        }
        return ExitCode.OK;
    }

    /** The number and total size of the table files in a directory. */
    static long[] tables(Path dir) throws IOException {
        return DbFile.countAndSize(dir, FileType.TABLE);
    }
}
