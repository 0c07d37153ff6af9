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
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.iq80.leveldb.CorruptionException;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.DBException;
import org.iq80.leveldb.ExtendedDB;
import org.iq80.leveldb.InvalidArgumentException;
import org.iq80.leveldb.Options;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the engine refuses, and how it says so: a directory that is not a backup directory, a
 * restore target that is not empty, an unknown id, a damaged stored file or meta file, a
 * database of another implementation, a negative count.
 */
class BackupBadInputTest {
    @TempDir
    Path tmp;

    private Path backupDir;
    private TreeMap<String, String> first;
    private TreeMap<String, String> second;

    /** Two backups; the second holds one table the first does not. */
    @BeforeEach
    void twoBackups() throws IOException {
        backupDir = tmp.resolve("backups");
        try (ExtendedDB db = factory.open(tmp.resolve("db").toFile(), new Options());
             BackupEngine backups = BackupEngine.open(backupDir)) {
            for (int i = 0; i < 100; i++) {
                db.put(key(i), utf8("v" + i));
            }
            db.flushMemTable();
            first = contents(db);
            backups.createBackup(db);
            db.put(key(1000), utf8("new"));
            db.flushMemTable();
            second = contents(db);
            backups.createBackup(db);
        }
    }

    private BackupMeta meta(int id) throws IOException {
        return BackupDirectory.open(org.leveldbj.env.FileSystemEnv.getDefault(), backupDir, false).readMeta(id);
    }

    /** The stored path of the table only backup 2 holds. */
    private Path tableOfTheSecondOnly() throws IOException {
        List<String> firstPaths = meta(1).files().stream().map(BackupMeta.StoredFile::path).toList();
        return meta(2).files().stream().filter(f -> f.shared() && !firstPaths.contains(f.path()))
                .map(f -> backupDir.resolve(f.path())).findFirst().orElseThrow();
    }

    @Test
    void restoreRefusesATargetThatIsNotEmpty() throws IOException {
        Files.createDirectories(tmp.resolve("full"));
        Files.writeString(tmp.resolve("full").resolve("notes.txt"), "mine");
        Files.writeString(tmp.resolve("file"), "x");
        try (BackupEngine backups = BackupEngine.open(backupDir)) {
            InvalidArgumentException e = assertThrows(InvalidArgumentException.class,
                    () -> backups.restore(1, tmp.resolve("full")));
            assertEquals("Invalid argument: " + tmp.resolve("full") + ": not empty (it holds notes.txt;"
                    + " a backup is restored into a new or empty directory)", e.getMessage());
            e = assertThrows(InvalidArgumentException.class, () -> backups.restore(1, tmp.resolve("file")));
            assertTrue(e.getMessage().endsWith("file: exists and is not a directory (a backup is restored into a new"
                    + " or empty directory)"), e.getMessage());
            e = assertThrows(InvalidArgumentException.class, () -> backups.restore(1, backupDir.resolve("inside")));
            assertTrue(e.getMessage().contains("inside the backup directory"), e.getMessage());
            e = assertThrows(InvalidArgumentException.class, () -> backups.restore(1, tmp));
            assertTrue(e.getMessage().contains("or holding it"), e.getMessage());
            Files.createDirectories(tmp.resolve("empty"));
            assertEquals(first, restored(backups, 1, null, tmp.resolve("empty")));
        }
        assertEquals("mine", Files.readString(tmp.resolve("full").resolve("notes.txt")));
    }

    @Test
    void aDirectoryOfSomethingElseIsNotABackupDirectory() throws IOException {
        NotABackupDirectoryException e = assertThrows(NotABackupDirectoryException.class,
                () -> BackupEngine.open(tmp.resolve("db")));
        assertEquals(tmp.resolve("db"), e.path());
        assertTrue(e.getMessage().startsWith("Invalid argument: " + tmp.resolve("db") + ": not a backup directory (it"
                + " has no LEVELDBJ-BACKUP file and holds "), e.getMessage());
        assertTrue(e.getMessage().endsWith("; it looks like a database; give a backup directory, or a new or empty"
                + " one)"), e.getMessage());

        Path random = tmp.resolve("random");
        Files.createDirectories(random.resolve("sub"));
        Files.writeString(random.resolve("a.txt"), "a");
        e = assertThrows(NotABackupDirectoryException.class, () -> BackupEngine.open(random));
        assertEquals("Invalid argument: " + random + ": not a backup directory (it has no LEVELDBJ-BACKUP file and"
                + " holds 2 entries, e.g. a.txt; give a backup directory, or a new or empty one)", e.getMessage());
        assertEquals(List.of("a.txt", "sub"), names(random), "left as it was");

        e = assertThrows(NotABackupDirectoryException.class, () -> BackupEngine.open(random.resolve("a.txt")));
        assertTrue(e.getMessage().endsWith("a.txt: not a directory (give a backup directory, or a new or empty one)"),
                e.getMessage());
        org.leveldbj.env.FileSystemEnv env = org.leveldbj.env.FileSystemEnv.getDefault();
        e = assertThrows(NotABackupDirectoryException.class, () -> BackupEngine.open(tmp.resolve("missing"), env, false));
        assertTrue(e.getMessage().endsWith("missing: does not exist (not a backup directory; creating a backup makes"
                + " one)"), e.getMessage());
        assertFalse(Files.exists(tmp.resolve("missing")));
        Files.createDirectories(tmp.resolve("empty"));
        e = assertThrows(NotABackupDirectoryException.class, () -> BackupEngine.open(tmp.resolve("empty"), env, false));
        assertTrue(e.getMessage().endsWith("empty: not a backup directory (it is empty; creating a backup makes it"
                + " one)"), e.getMessage());
        assertEquals(List.of(), names(tmp.resolve("empty")));
    }

    @Test
    void aMarkerOfAnotherFormatOrDamagedIsRefused() throws IOException {
        Path marker = backupDir.resolve("LEVELDBJ-BACKUP");
        Files.writeString(marker, "leveldbj backup directory\nformat 2\n");
        NotABackupDirectoryException e = assertThrows(NotABackupDirectoryException.class,
                () -> BackupEngine.open(backupDir));
        assertEquals("Invalid argument: " + backupDir + ": backups of format 2, and this version of leveldbj reads"
                + " format 1 (use the newer version that made them)", e.getMessage());
        Files.writeString(marker, "something else\n");
        e = assertThrows(NotABackupDirectoryException.class, () -> BackupEngine.open(backupDir));
        assertTrue(e.getMessage().contains("not a marker of a backup directory of leveldbj"), e.getMessage());
    }

    @Test
    void anUnknownIdIsNamedWithTheIdsThereAre() {
        try (BackupEngine backups = BackupEngine.open(backupDir)) {
            BackupNotFoundException e = assertThrows(BackupNotFoundException.class, () -> backups.verifyBackup(7));
            assertEquals(7, e.id());
            assertEquals("Invalid argument: no backup 7 in " + backupDir + " (its backups: 1-2)", e.getMessage());
            assertThrows(BackupNotFoundException.class, () -> backups.restore(0, tmp.resolve("r")));
            assertThrows(BackupNotFoundException.class, () -> backups.restore(-1, tmp.resolve("r")));
            assertFalse(Files.exists(tmp.resolve("r")));
            backups.purge(0);
            e = assertThrows(BackupNotFoundException.class, () -> backups.verifyBackup(1));
            assertEquals("Invalid argument: no backup 1 in " + backupDir + " (it holds no backups)", e.getMessage());
        }
    }

    @Test
    void aDamagedStoredFileIsNamedByVerifyAndRefusedByRestore() throws IOException {
        Path table = tableOfTheSecondOnly();
        byte[] bytes = Files.readAllBytes(table);
        bytes[bytes.length / 2] ^= 0x40;
        Files.write(table, bytes);
        try (BackupEngine backups = BackupEngine.open(backupDir)) {
            backups.verifyBackup(1);
            CorruptionException e = assertThrows(CorruptionException.class, () -> backups.verifyBackup(2));
            assertEquals(table.toString(), e.file());
            assertTrue(e.reason().matches("backup 2: checksum mismatch \\(its meta file says crc32c [0-9a-f]{8}, the"
                    + " bytes give [0-9a-f]{8}\\)"), e.reason());
            assertTrue(e.getMessage().startsWith("Corruption: backup 2: checksum mismatch"), e.getMessage());
            e = assertThrows(CorruptionException.class, () -> backups.restore(2, tmp.resolve("r")));
            assertEquals(table.toString(), e.file());
            assertFalse(Files.exists(tmp.resolve("r")));
            assertFalse(Files.exists(tmp.resolve("r" + BackupRestore.TEMPORARY_SUFFIX)));

            Files.write(table, java.util.Arrays.copyOf(bytes, bytes.length - 10));
            e = assertThrows(CorruptionException.class, () -> backups.verifyBackup(2));
            assertTrue(e.reason().matches("backup 2: size mismatch \\(its meta file says \\d+ bytes, the file has \\d+\\)"),
                    e.reason());
            Path log = backupDir.resolve("private").resolve("2").resolve(
                    meta(2).files().stream().filter(f -> f.name().endsWith(".log")).findFirst().orElseThrow().name());
            Files.delete(log);
            e = assertThrows(CorruptionException.class, () -> backups.verifyBackup(2));
            assertEquals(1, e.getSuppressed().length, "every problem: the table, then the log");
            CorruptionException missing = (CorruptionException) e.getSuppressed()[0];
            assertEquals("backup 2: missing file", missing.reason());
            assertEquals(log.toString(), missing.file());
            assertEquals(first, restored(backups, 1, null, tmp.resolve("r1")), "backup 1 is sound");
        }
    }

    @Test
    void aDamagedMetaFileIsNamedAndStopsPurging() throws IOException {
        Path meta = backupDir.resolve("meta").resolve("1");
        byte[] bytes = Files.readAllBytes(meta);
        bytes[20] ^= 1;
        Files.write(meta, bytes);
        long sharedFiles = names(backupDir.resolve("shared")).size();
        try (BackupEngine backups = BackupEngine.open(backupDir)) {
            CorruptionException e = assertThrows(CorruptionException.class, backups::listBackups);
            assertEquals(meta.toString(), e.file());
            assertTrue(e.reason().startsWith("backup meta file checksum mismatch"), e.reason());
            e = assertThrows(CorruptionException.class, () -> backups.purge(1));
            assertEquals(meta.toString(), e.file());
            assertEquals(sharedFiles, names(backupDir.resolve("shared")).size(), "nothing deleted");
            backups.verifyBackup(2);
            assertEquals(second, restored(backups, 2, null, tmp.resolve("r2")));
            assertThrows(CorruptionException.class, () -> backups.verifyBackup(1));
            Files.delete(meta); // giving up that backup
            assertEquals(List.of(2), ids(backups));
            backups.purge(1);
            backups.verifyBackup(2);
        }
    }

    @Test
    void filesOfOtherNamesAreLeftAlone() throws IOException {
        Files.writeString(backupDir.resolve("shared").resolve("notes.txt"), "mine");
        Files.writeString(backupDir.resolve("README"), "backups of the app");
        try (BackupEngine backups = BackupEngine.open(backupDir)) {
            backups.purge(0);
            assertEquals(List.of("notes.txt"), names(backupDir.resolve("shared")));
        }
        assertEquals("backups of the app", Files.readString(backupDir.resolve("README")));
    }

    @Test
    void otherArgumentsAreRefused() throws IOException {
        try (BackupEngine backups = BackupEngine.open(backupDir)) {
            InvalidArgumentException e = assertThrows(InvalidArgumentException.class, () -> backups.purge(-1));
            assertEquals("Invalid argument: keepNewest is -1; it must be at least 0", e.getMessage());
            ExtendedDB foreign = (ExtendedDB) Proxy.newProxyInstance(getClass().getClassLoader(),
                    new Class<?>[] {ExtendedDB.class}, (proxy, method, args) -> null);
            e = assertThrows(InvalidArgumentException.class, () -> backups.createBackup(foreign));
            assertTrue(e.getMessage().endsWith(" is not a database opened by org.leveldbj.db.LevelDbFactory"),
                    e.getMessage());
            ExtendedDB closed = factory.open(tmp.resolve("closed").toFile(), new Options());
            closed.close();
            assertThrows(DBException.class, () -> backups.createBackup(closed));
            assertEquals(List.of(1, 2), ids(backups));
            assertThrows(IllegalArgumentException.class, () -> BackupEngine.open(null));
        }
        try (DB db = factory.open(tmp.resolve("db").toFile(), new Options())) {
            assertEquals(second, contents(db));
        }
    }

    private static List<String> names(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}
