package org.leveldbj.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code leveldb backup}: incremental backups in a backup directory
 * ({@code org.leveldbj.backup.BackupEngine}); every action is a subcommand.
 *
 * <p>Thread safety: one instance serves one run.
 */
@Command(name = "backup", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        synopsisSubcommandLabel = "COMMAND",
        header = "Make, list, verify, restore and purge incremental backups.",
        description = {
            "A backup directory keeps any number of backups of a database; each table and",
            "value file is stored once, however many backups hold it, and every stored",
            "file is checked by size and CRC32C when it is verified or restored. A backup",
            "holds every write acknowledged before 'backup create' and none after it.",
        },
        commandListHeading = "%nCommands:%n",
        subcommands = {
            BackupCreateCommand.class,
            BackupListCommand.class,
            BackupVerifyCommand.class,
            BackupRestoreCommand.class,
            BackupPurgeCommand.class,
        })
final class BackupCommand implements Runnable {
    @Spec
    CommandSpec spec;

    /** Without a subcommand: the usage, as an error. */
    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "no backup command given (create, list, verify, restore, purge)");
    }
}
