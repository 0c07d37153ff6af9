package org.leveldbj.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.iq80.leveldb.CorruptionException;
import org.iq80.leveldb.DB;
import org.leveldbj.version.FileMetaData;
import org.leveldbj.version.VersionEdit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/**
 * {@code leveldb sstables DB}: the live tables level by level with their sizes and key ranges
 * (the {@code leveldb.sstables} property; in JSON, one object per table from the MANIFEST).
 * Read-only.
 */
@Command(name = "sstables", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        header = "Print the live tables per level.",
        description = {
            "Number, size and key range of every table (the leveldb.sstables property).",
            "In JSON, one object per table: level, number, size, and the smallest and",
            "largest keys (base64), sequences and types, as 'leveldb dump' names them.",
            "Opens the database read-only.",
        })
final class SstablesCommand extends CommandBase {
    @Parameters(index = "0", paramLabel = "DB", description = "The database directory.")
    Path db;

    @Mixin
    FormatOption format;

    @Override
    int run() throws Exception {
        try (DB database = Databases.openReadOnly(db)) {
            if (!format.json()) {
                out().print(database.getProperty("leveldb.sstables"));
                return ExitCode.OK;
            }
            // The database is open, so its lock is held: the MANIFEST does not change meanwhile.
            List<CorruptionException> problems = new ArrayList<>();
            Manifest m = Manifest.read(db, problems::add, null);
            if (m == null || !problems.isEmpty()) {
                throw problems.get(0);
            }
            for (int level = 0; level < VersionEdit.NUM_LEVELS; level++) {
                for (FileMetaData f : m.levels.get(level).values()) {
                    Json.JsonObject o = Json.object().add("level", level).add("number", f.number())
                            .add("size", f.fileSize());
                    DumpSink.internalKey(o, "smallest_", f.smallest());
                    out().println(DumpSink.internalKey(o, "largest_", f.largest()));
                }
            }
        }
        return ExitCode.OK;
    }
}
