package org.leveldbj.cli;

import java.nio.file.Path;
import org.leveldbj.backup.BackupEngine;
import org.leveldbj.backup.BackupInfo;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/**
 * {@code leveldb backup restore BACKUPDIR ID TARGET}: restores a backup into a new database
 * directory, checking every file as it is copied.
 */
@Command(name = "restore", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        header = "Restore a backup into a new database directory.",
        description = {
            "Copies backup ID (a number, or latest) into TARGET, which must not exist or",
            "be empty, checking every file's size and CRC32C as it copies. The database is",
            "built in TARGET.restore-tmp and renamed to TARGET when complete, so a failure",
            "leaves no TARGET. It opens with this tool, and with C++ LevelDB when it has no",
            "separated values.",
            "In JSON: {\"id\":N,\"target\":...,\"sequence\":N,\"files\":N,\"bytes\":N}.",
        })
final class BackupRestoreCommand extends CommandBase {
    @Parameters(index = "0", paramLabel = "BACKUPDIR", description = "The backup directory.")
    Path backupDir;

    @Parameters(index = "1", paramLabel = "ID", description = "The backup: its id, or latest.")
    String id;

    @Parameters(index = "2", paramLabel = "TARGET", description = "The database directory to make: new or empty.")
    Path target;

    @Mixin
    FormatOption format;

    @Override
    int run() throws Exception {
        BackupSupport.requireExisting(backupDir);
        BackupInfo info;
        try (BackupEngine engine = BackupSupport.openExisting(backupDir)) {
            int backup = BackupSupport.id(engine, id);
            try (BackupSupport.Bar bar = BackupSupport.bar(this, "restoring backup " + backup)) {
                info = BackupSupport.call(() -> engine.restore(backup, target, bar));
            }
        }
        if (format.json()) {
            out().println(Json.object().add("id", info.id()).add("target", target.toString())
                    .add("sequence", info.sequence()).add("files", info.fileCount()).add("bytes", info.size()));
        } else {
            out().printf("restored backup %d of %s to %s: sequence %d, %s (%s)%n", info.id(), backupDir, target,
                    info.sequence(), Plural.count(info.fileCount(), "file"), Progress.bytes(info.size()));
        }
        return ExitCode.OK;
    }
}
