package org.leveldbj.cli;

import java.nio.file.Path;
import java.util.List;
import org.iq80.leveldb.CorruptionException;
import org.iq80.leveldb.Env;
import org.leveldbj.env.FileSystemEnv;
import org.leveldbj.filename.FileNames;
import org.leveldbj.filename.FileType;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/**
 * {@code leveldb verify DB}: reads everything the database is made of with checksums on (see
 * {@link Verifier}), prints each problem with its file and offset and a summary; exits with
 * {@link ExitCode#CORRUPTION} when anything is wrong. Changes no file; holds the database's lock
 * (when it has a {@code LOCK} file) while it reads.
 */
@Command(name = "verify", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        header = "Check every block and record of a database.",
        description = {
            "Reads every block of every live table, every record of every live log, of",
            "every value file and of the MANIFEST, checksums on; prints each problem with",
            "its file and offset, then a summary. A damaged stretch of a value file, or a",
            "missing one, is one problem, with notes naming the entries it breaks.",
            "Exit code 3 when a problem is found. Changes no file.",
            "In JSON, one object per line: {\"kind\":\"problem\",\"file\":...,\"offset\":...,",
            "\"reason\":...}, {\"kind\":\"note\",\"note\":...}, then {\"kind\":\"summary\",...}",
            "with the counts, \"problems\" and \"ok\".",
        })
final class VerifyCommand extends CommandBase {
    @Parameters(index = "0", paramLabel = "DB", description = "The database directory.")
    Path db;

    @Mixin
    FormatOption format;

    @Override
    int run() throws Exception {
        Databases.requireDirectory(db);
        long total = 0;
        for (DbFile f : DbFile.list(db)) {
            if (f.type() == FileType.TABLE || f.type() == FileType.LOG || f.type() == FileType.DESCRIPTOR) {
                total += f.size();
            }
        }
        Env.FileLock lock = FileSystemEnv.getDefault().lockExistingFile(db.resolve(FileNames.LOCK));
        DumpSink sink = new DumpSink(out(), format.json());
        Verifier verifier;
        List<CorruptionException> problems;
        try (Progress progress = Progress.start(io(), quiet(), "verifying", total, Progress.Unit.BYTES)) {
            verifier = new Verifier(db, sink, progress);
            verifier.run();
            problems = verifier.problems();
        } finally {
            if (lock != null) {
                lock.close();
            }
        }
        sink.text(verifier.summary());
        sink.json(verifier.summaryJson());
        if (!problems.isEmpty()) {
            throw new CliFailure(ExitCode.CORRUPTION, Plural.count(problems.size(), "problem")
                    + " in " + db + "; the first: " + Errors.report(problems.get(0)).message());
        }
        return ExitCode.OK;
    }
}
