package org.leveldbj.cli;

import java.nio.file.Path;
import org.iq80.leveldb.ExtendedDB;
import org.leveldbj.backup.BackupEngine;
import org.leveldbj.backup.BackupInfo;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/**
 * {@code leveldb backup create DB BACKUPDIR}: backs up a database, copying only the files the
 * backup directory does not hold yet. Opens the database read-only.
 */
@Command(name = "create", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        header = "Back up a database, copying only what is new.",
        description = {
            "Adds a backup of DB to BACKUPDIR (made when missing or empty): the tables and",
            "value files no backup there holds yet are copied, each checked by size and",
            "CRC32C; the backup's own log, MANIFEST and CURRENT; its meta file last. Opens",
            "the database read-only and changes none of its files. Prints the new backup;",
            "in JSON as 'backup list' does, with \"backup_dir\".",
        })
final class BackupCreateCommand extends CommandBase {
    @Parameters(index = "0", paramLabel = "DB", description = "The database directory.")
    Path db;

    @Parameters(index = "1", paramLabel = "BACKUPDIR", description = "The backup directory.")
    Path backupDir;

    @Mixin
    FormatOption format;

    @Override
    int run() throws Exception {
        Databases.requireDatabase(db);
        BackupInfo info;
        try (BackupEngine engine = BackupSupport.call(() -> BackupEngine.open(backupDir));
             ExtendedDB database = (ExtendedDB) Databases.openReadOnly(db);
             BackupSupport.Bar bar = BackupSupport.bar(this, "backing up " + db)) {
            info = BackupSupport.call(() -> engine.createBackup(database, bar));
        }
        if (format.json()) {
            out().println(BackupSupport.json(info).add("backup_dir", backupDir.toString()));
        } else {
            out().printf("backup %d of %s in %s: sequence %d, %s (%s), %s new (%s)%n", info.id(), db, backupDir,
                    info.sequence(), Plural.count(info.fileCount(), "file"), Progress.bytes(info.size()),
                    Plural.count(info.newFiles(), "file"), Progress.bytes(info.newBytes()));
        }
        return ExitCode.OK;
    }
}
