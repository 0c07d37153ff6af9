package org.leveldbj.backup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.leveldbj.backup.BackupFixtures.contents;
import static org.leveldbj.backup.BackupFixtures.ids;
import static org.leveldbj.backup.BackupFixtures.key;
import static org.leveldbj.backup.BackupFixtures.restored;
import static org.leveldbj.backup.BackupFixtures.utf8;
import static org.leveldbj.db.LevelDbFactory.factory;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeMap;
import org.iq80.leveldb.ExtendedDB;
import org.iq80.leveldb.IOErrorException;
import org.iq80.leveldb.Options;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.leveldbj.testing.FaultInjectionEnv;
import org.leveldbj.testing.FaultInjectionEnv.Op;

/**
 * I/O failures during a backup or a restore: a failing write, a full disk, a failing read of the
 * database's files. Each gives an {@link IOErrorException} naming the file and the reason; no
 * backup is listed, what was stored is deleted, the database works on, and the next attempt
 * succeeds. Links are never used: a backup shares no file with its database.
 */
class BackupFaultTest {
    private static final Path DB = Path.of("/db");
    private static final Path BACKUPS = Path.of("/backups");

    private final FaultInjectionEnv dbEnv = new FaultInjectionEnv();
    private final FaultInjectionEnv backupEnv = new FaultInjectionEnv();
    private ExtendedDB db;
    private BackupEngine backups;
    private TreeMap<String, String> first;

    @BeforeEach
    void aDatabaseWithOneBackup() throws IOException {
        db = factory.open(DB.toFile(), new Options().env(dbEnv).writeBufferSize(16 << 10).maxFileSize(8 << 10));
        for (int i = 0; i < 1000; i++) {
            db.put(key(i), utf8("first" + i));
        }
        backups = BackupEngine.open(BACKUPS, backupEnv, true);
        first = contents(db);
        backups.createBackup(db);
        for (int i = 0; i < 1000; i += 3) {
            db.put(key(i), utf8("second" + i));
        }
        // Settled: no background compaction opens or writes a file while faults are injected.
        db.compactRange(null, null);
        db.put(key(5000), utf8("in the memtable"));
    }

    @AfterEach
    void close() throws IOException {
        backups.close();
        db.close();
    }

    /** Only the first backup, none of the failed one's files, and the database as it was. */
    private void nothingOfTheFailedBackup() throws IOException {
        assertEquals(List.of(1), ids(backups));
        assertEquals(List.of("1"), backupEnv.getChildren(BACKUPS.resolve("private")));
        assertEquals(List.of("1"), backupEnv.getChildren(BACKUPS.resolve("meta")));
        BackupMeta one = BackupDirectory.open(backupEnv, BACKUPS, false).readMeta(1);
        assertEquals(one.files().stream().filter(BackupMeta.StoredFile::shared).count(),
                backupEnv.getChildren(BACKUPS.resolve("shared")).size(), "shared/ holds backup 1's files only");
        db.put(key(6000), utf8("still writable"));
        assertEquals("still writable", new String(db.get(key(6000))));
    }

    private void theNextBackupSucceeds() throws IOException {
        TreeMap<String, String> expected = contents(db);
        assertEquals(2, backups.createBackup(db).id());
        assertEquals(expected, restored(backups, 2, backupEnv, Path.of("/restored")));
        assertEquals(first, restored(backups, 1, backupEnv, Path.of("/restored1")));
    }

    @Test
    void aFailingWrite() throws IOException {
        backupEnv.fail(Op.APPEND, 1);
        IOErrorException e = assertThrows(IOErrorException.class, () -> backups.createBackup(db));
        assertTrue(e.getMessage().startsWith("IO error: backing up /db to /backups: copying /db/"), e.getMessage());
        assertTrue(e.getMessage().contains(FaultInjectionEnv.INJECTED + " (APPEND): /backups/shared/"), e.getMessage());
        nothingOfTheFailedBackup();
        theNextBackupSucceeds();
    }

    @Test
    void aFullDisk() throws IOException {
        backupEnv.setSpaceLeft(p -> p.startsWith(BACKUPS), 3000);
        IOErrorException e = assertThrows(IOErrorException.class, () -> backups.createBackup(db));
        assertTrue(e.getMessage().contains(FaultInjectionEnv.NO_SPACE), e.getMessage());
        assertTrue(e.getMessage().matches("IO error: backing up /db to /backups: copying /db/\\d+\\.sst to"
                + " /backups/shared/\\d+\\.sst\\.tmp: .*No space left on device"), "names the file: " + e.getMessage());
        nothingOfTheFailedBackup();
        backupEnv.clearFaults();
        theNextBackupSucceeds();
    }

    @Test
    void aFullDiskWhileTheBackupsOwnFilesAreWritten() throws IOException {
        backupEnv.setSpaceLeft(p -> p.startsWith(BACKUPS.resolve("private")), 10);
        IOErrorException e = assertThrows(IOErrorException.class, () -> backups.createBackup(db));
        assertTrue(e.getMessage().matches("IO error: backing up /db to /backups: /backups/private/2/\\d+\\.log: "
                + "No space left on device"), e.getMessage());
        nothingOfTheFailedBackup();
        backupEnv.clearFaults();
        theNextBackupSucceeds();
    }

    @Test
    void aFailingReadOfTheDatabase() throws IOException {
        dbEnv.fail(Op.OPEN_READ, 1);
        IOErrorException e = assertThrows(IOErrorException.class, () -> backups.createBackup(db));
        assertTrue(e.getMessage().matches("IO error: backing up /db to /backups: copying /db/\\d+\\.sst to"
                + " /backups/shared/\\d+\\.sst\\.tmp: " + FaultInjectionEnv.INJECTED + " \\(OPEN_READ\\): /db/\\d+\\.sst"),
                e.getMessage());
        nothingOfTheFailedBackup();
        theNextBackupSucceeds();
    }

    @Test
    void aFullDiskDuringARestoreLeavesNoTarget() throws IOException {
        backupEnv.setSpaceLeft(p -> p.toString().startsWith("/restored"), 5000);
        IOErrorException e = assertThrows(IOErrorException.class, () -> backups.restore(1, Path.of("/restored")));
        assertTrue(e.getMessage().startsWith("IO error: restoring backup 1 of /backups to /restored: "), e.getMessage());
        assertTrue(e.getMessage().contains(FaultInjectionEnv.NO_SPACE), e.getMessage());
        assertFalse(backupEnv.fileExists(Path.of("/restored")));
        assertFalse(backupEnv.fileExists(Path.of("/restored" + BackupRestore.TEMPORARY_SUFFIX)));
        backupEnv.clearFaults();
        assertEquals(first, restored(backups, 1, backupEnv, Path.of("/restored")));
    }

    @Test
    void aFailingReadWhileVerifyingIsAnIoErrorNotCorruption() {
        backupEnv.fail(Op.OPEN_READ, 1);
        IOErrorException e = assertThrows(IOErrorException.class, () -> backups.verifyBackup(1));
        assertTrue(e.getMessage().startsWith("IO error: verifying backup 1 in /backups: "
                + FaultInjectionEnv.INJECTED + " (OPEN_READ): /backups/"), e.getMessage());
        backups.verifyBackup(1);
    }

    /** Backups copy: links, which would share the database's files, are never made. */
    @Test
    void noLinkIsMade() throws IOException {
        backupEnv.failAlways(Op.LINK);
        dbEnv.failAlways(Op.LINK);
        theNextBackupSucceeds();
        assertEquals(0, backupEnv.injectedFaults() + dbEnv.injectedFaults());
    }
}
