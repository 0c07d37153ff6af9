package org.leveldbj.examples;

import static org.leveldbj.db.LevelDbFactory.*;      // factory, bytes(String), asString(byte[])
import java.io.File;
import java.io.IOException;
import org.iq80.leveldb.*;
import org.leveldbj.backup.*;

/**
 * Copies of a live database: a checkpoint (a new database directory, its tables hard-linked),
 * and incremental backups in a backup directory, listed and restored. The Java blocks of
 * doc/backup.md are this code.
 *
 * <p>Run: {@code Backups [directory]}; without a directory it works in a temporary one.
 */
public final class Backups {
    private Backups() {
    }

    /**
     * Runs the example.
     *
     * @param args nothing, or the directory to work in
     */
    public static void main(String[] args) throws Exception {
        ExampleDirectory.run(args, Backups::run);
    }

    static void run(File dir) throws IOException {
        try (ExtendedDB db = factory.open(new File(dir, "example-db"), new Options())) {
            db.put(bytes("user:1"), bytes("alice"));
            db.flushMemTable();                                  // now in a table

            // A checkpoint: a database of its own, made while writes go on; tables are linked.
            db.checkpoint(new File(dir, "checkpoint"));

            // Backups: each stores only the files no earlier backup in the directory holds.
            try (BackupEngine backups = BackupEngine.open(new File(dir, "backups").toPath())) {
                BackupInfo first = backups.createBackup(db);
                db.put(bytes("user:2"), bytes("bob"));
                backups.createBackup(db);
                for (BackupInfo b : backups.listBackups()) {
                    System.out.println("backup " + b.id() + ": sequence " + b.sequence() + ", "
                            + b.fileCount() + " files, " + b.newFiles() + " new");
                }
                backups.verifyBackup(first.id());                // re-reads every file, checks its CRC32C
                backups.restore(first.id(), new File(dir, "restored").toPath());
                backups.purge(1);                                // keeps the newest backup only
            }
        }

        try (DB restored = factory.open(new File(dir, "restored"), new Options())) {
            System.out.println(asString(restored.get(bytes("user:1"))));   // alice
            System.out.println(restored.get(bytes("user:2")));             // null: written after backup 1
        }
        try (DB checkpoint = factory.open(new File(dir, "checkpoint"), new Options())) {
            System.out.println(asString(checkpoint.get(bytes("user:1"))));  // alice
        }
    }
}
