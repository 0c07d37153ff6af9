package org.leveldbj.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.iq80.leveldb.CorruptionException;
import org.leveldbj.backup.BackupEngine;
import org.leveldbj.backup.BackupInfo;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/**
 * {@code leveldb backup verify BACKUPDIR ID}: reads every file of a backup and checks its size
 * and CRC32C; each problem is printed; exit code 3 when any is found.
 */
@Command(name = "verify", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        header = "Check every file of a backup.",
        description = {
            "Reads every file of backup ID (a number, or latest) and checks its size and",
            "CRC32C against the backup's meta file; prints each file that is missing or",
            "differs, then a summary. Exit code 3 when a problem is found.",
            "In JSON, one object per line: {\"kind\":\"problem\",\"file\":...,\"reason\":...},",
            "then {\"kind\":\"summary\",\"id\":N,\"files\":N,\"bytes\":N,\"problems\":N,\"ok\":...}.",
        })
final class BackupVerifyCommand extends CommandBase {
    @Parameters(index = "0", paramLabel = "BACKUPDIR", description = "The backup directory.")
    Path backupDir;

    @Parameters(index = "1", paramLabel = "ID", description = "The backup: its id, or latest.")
    String id;

    @Mixin
    FormatOption format;

    @Override
    int run() throws Exception {
        BackupSupport.requireExisting(backupDir);
        List<CorruptionException> problems = new ArrayList<>();
        BackupInfo info = null;
        int backup;
        try (BackupEngine engine = BackupSupport.openExisting(backupDir)) {
            backup = BackupSupport.id(engine, id);
            try (BackupSupport.Bar bar = BackupSupport.bar(this, "verifying backup " + backup)) {
                info = BackupSupport.call(() -> engine.verifyBackup(backup, bar));
            } catch (CliFailure e) {
                if (!(e.getCause() instanceof CorruptionException)) {
                    throw e;
                }
                CorruptionException first = (CorruptionException) e.getCause();
                problems.add(first);
                for (Throwable more : first.getSuppressed()) {
                    if (more instanceof CorruptionException) {
                        problems.add((CorruptionException) more);
                    }
                }
            }
            if (info == null) {
                info = BackupSupport.call(engine::listBackups).stream().filter(i -> i.id() == backup).findFirst()
                        .orElse(null);
            }
        }
        DumpSink sink = new DumpSink(out(), format.json());
        for (CorruptionException p : problems) {
            sink.text(p.file() + ": " + p.reason());
            sink.json(Json.object().add("kind", "problem").add("file", p.file()).add("reason", p.reason()));
        }
        long files = info == null ? 0 : info.fileCount();
        long bytes = info == null ? 0 : info.size();
        sink.text("verified backup " + backup + " in " + backupDir + ": " + Plural.count(files, "file") + " ("
                + Progress.bytes(bytes) + "): " + (problems.isEmpty() ? "OK" : Plural.count(problems.size(), "problem")));
        sink.json(Json.object().add("kind", "summary").add("id", backup).add("files", files).add("bytes", bytes)
                .add("problems", problems.size()).add("ok", problems.isEmpty()));
        if (!problems.isEmpty()) {
            throw new CliFailure(ExitCode.CORRUPTION, Plural.count(problems.size(), "problem") + " in backup " + backup
                    + " of " + backupDir + "; the first: " + BackupSupport.corruption(problems.get(0)));
        }
        return ExitCode.OK;
    }
}
