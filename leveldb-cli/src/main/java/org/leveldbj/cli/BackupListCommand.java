package org.leveldbj.cli;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.leveldbj.backup.BackupEngine;
import org.leveldbj.backup.BackupInfo;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code leveldb backup list BACKUPDIR}: the backups a directory keeps, oldest first. */
@Command(name = "list", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        header = "List the backups of a backup directory.",
        description = {
            "One line per backup, oldest first: its id, when it was made (UTC), the last",
            "sequence number it holds, its files and bytes, and the files and bytes it",
            "stored new (the rest it shares with earlier backups). Changes no file.",
            "In JSON, one object per backup: {\"id\":N,\"time\":\"...Z\",\"sequence\":N,",
            "\"files\":N,\"bytes\":N,\"new_files\":N,\"new_bytes\":N,\"database\":...,",
            "\"library\":...,\"format\":N}.",
        })
final class BackupListCommand extends CommandBase {
    @Parameters(index = "0", paramLabel = "BACKUPDIR", description = "The backup directory.")
    Path backupDir;

    @Mixin
    FormatOption format;

    @Override
    int run() throws Exception {
        BackupSupport.requireExisting(backupDir);
        List<BackupInfo> infos;
        try (BackupEngine engine = BackupSupport.openExisting(backupDir)) {
            infos = BackupSupport.call(engine::listBackups);
        }
        if (format.json()) {
            for (BackupInfo info : infos) {
                out().println(BackupSupport.json(info));
            }
            return ExitCode.OK;
        }
        if (infos.isEmpty()) {
            summary("no backups in " + backupDir);
            return ExitCode.OK;
        }
        String row = "%-4s  %-20s  %12s  %6s  %10s  %10s%n";
        out().printf(Locale.ROOT, row, "id", "time (UTC)", "sequence", "files", "size", "new");
        for (BackupInfo info : infos) {
            out().printf(Locale.ROOT, row, info.id(), BackupSupport.time(info.time()), info.sequence(),
                    info.fileCount(), Progress.bytes(info.size()), Progress.bytes(info.newBytes()));
        }
        return ExitCode.OK;
    }
}
