package org.leveldbj.cli;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.leveldbj.backup.BackupEngine;
import org.leveldbj.backup.BackupInfo;
import org.leveldbj.backup.PurgeResult;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code leveldb backup purge BACKUPDIR --keep N}: deletes all but the newest N backups and the
 * files only they held.
 */
@Command(name = "purge", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        header = "Delete all but the newest backups.",
        description = {
            "Deletes every backup of BACKUPDIR but the newest N, then the files no kept",
            "backup holds, and what interrupted backups left behind.",
            "In JSON: {\"deleted\":[ids],\"kept\":[ids],\"files_deleted\":N,\"bytes_freed\":N}.",
        })
final class BackupPurgeCommand extends CommandBase {
    @Parameters(index = "0", paramLabel = "BACKUPDIR", description = "The backup directory.")
    Path backupDir;

    @Option(names = "--keep", paramLabel = "N", required = true,
            description = "How many of the newest backups to keep (0 deletes all).")
    int keep;

    @Mixin
    FormatOption format;

    @Override
    int run() throws Exception {
        BackupSupport.requireExisting(backupDir);
        PurgeResult purged;
        List<Integer> kept;
        try (BackupEngine engine = BackupSupport.openExisting(backupDir)) {
            purged = BackupSupport.call(() -> engine.purge(keep));
            kept = BackupSupport.call(engine::listBackups).stream().map(BackupInfo::id).toList();
        }
        if (format.json()) {
            out().println(Json.object().array("deleted", purged.deletedBackups()).array("kept", kept)
                    .add("files_deleted", purged.deletedFiles()).add("bytes_freed", purged.freedBytes()));
        } else {
            out().printf("purged %s: %s deleted%s, %s (%s) freed; kept %s%n", backupDir,
                    Plural.count(purged.deletedBackups().size(), "backup"), ids(purged.deletedBackups()),
                    Plural.count(purged.deletedFiles(), "file"), Progress.bytes(purged.freedBytes()),
                    kept.isEmpty() ? "none" : kept.stream().map(String::valueOf).collect(Collectors.joining(", ")));
        }
        return ExitCode.OK;
    }

    /** {@code " (1, 2)"}, or nothing for no ids. */
    private static String ids(List<Integer> ids) {
        return ids.isEmpty() ? "" : ids.stream().map(String::valueOf).collect(Collectors.joining(", ", " (", ")"));
    }
}
