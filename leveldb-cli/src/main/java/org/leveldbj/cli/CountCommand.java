package org.leveldbj.cli;

import java.nio.file.Path;
import org.iq80.leveldb.DB;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code leveldb count DB}: prints how many entries a key range holds. Read-only. */
@Command(name = "count", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        header = "Count the entries of a key range.",
        description = {
            "Prints how many entries the key range holds (every entry without range",
            "options); in JSON, {\"count\":N}. Opens the database read-only.",
        },
        footer = {
            "The range: --from is inclusive, --to is exclusive; with --prefix as well, the",
            "keys satisfying all of them.",
        })
final class CountCommand extends CommandBase {
    @Parameters(index = "0", paramLabel = "DB", description = "The database directory.")
    Path db;

    @Mixin
    RangeOptions range;

    @Mixin
    FormatOption format;

    @Override
    int run() throws Exception {
        long n;
        try (DB database = Databases.openReadOnly(db)) {
            n = range.range().scan(database, false, 0, (key, value) -> true);
        }
        out().println(format.json() ? Json.object().add("count", n).toString() : Long.toString(n));
        return ExitCode.OK;
    }
}
