package org.leveldbj.backup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.leveldbj.backup.BackupFixtures.contents;
import static org.leveldbj.backup.BackupFixtures.key;
import static org.leveldbj.backup.BackupFixtures.restored;
import static org.leveldbj.backup.BackupFixtures.utf8;
import static org.leveldbj.db.LevelDbFactory.factory;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import org.iq80.leveldb.Env;
import org.iq80.leveldb.ExtendedDB;
import org.iq80.leveldb.Options;
import org.junit.jupiter.api.Test;
import org.leveldbj.filename.FileNames;
import org.leveldbj.filename.FileType;
import org.leveldbj.testing.ForwardingEnv;
import org.leveldbj.testing.MemEnv;

/**
 * A second backup of an open database after a few changes stores only the new table and its own
 * three files, and reads no table the first one stored. After the database is closed and opened
 * again, its tables are read once and compared by content, and none is stored again. A database
 * deleted and made again at the same path, with tables of the same numbers and sizes but other
 * contents, has them stored anew.
 */
class IncrementalBackupTest {
    private static final Path DB = Path.of("/db");
    private static final Path BACKUPS = Path.of("/backups");

    /** Counts the sequential opens of table files: how a backup reads them (the database itself reads tables at random). */
    private static final class CountingEnv extends ForwardingEnv {
        final List<String> tablesRead = new ArrayList<>();

        CountingEnv(Env target) {
            super(target);
        }

        @Override
        public SequentialFile newSequentialFile(Path file) throws IOException {
            FileNames.Parsed parsed = FileNames.parse(file.getFileName().toString());
            if (parsed != null && parsed.type() == FileType.TABLE) {
                synchronized (this) {
                    tablesRead.add(file.getFileName().toString());
                }
            }
            return super.newSequentialFile(file);
        }

        synchronized List<String> takeTablesRead() {
            List<String> read = new ArrayList<>(tablesRead);
            tablesRead.clear();
            return read;
        }
    }

    private static Set<String> tables(Env env) throws IOException {
        Set<String> tables = new HashSet<>();
        for (String name : env.getChildren(DB)) {
            FileNames.Parsed parsed = FileNames.parse(name);
            if (parsed != null && parsed.type() == FileType.TABLE) {
                tables.add(name);
            }
        }
        return tables;
    }

    private static Options options(Env env) {
        return new Options().env(env).writeBufferSize(32 << 10).maxFileSize(16 << 10).compressionType(
                org.iq80.leveldb.CompressionType.NONE);
    }

    @Test
    void theSecondBackupStoresOnlyTheNewTableAndItsOwnFiles() throws IOException {
        MemEnv mem = new MemEnv();
        CountingEnv env = new CountingEnv(mem);
        try (ExtendedDB db = factory.open(DB.toFile(), options(env));
             BackupEngine backups = BackupEngine.open(BACKUPS, mem, true)) {
            for (int i = 0; i < 5000; i++) {
                db.put(key(i), utf8("value" + i));
            }
            db.compactRange(null, null); // settled: no compaction runs on while the backups are made
            Set<String> before = tables(mem);
            assertTrue(before.size() >= 5, before.toString());
            BackupInfo first = backups.createBackup(db);
            assertEquals(before.size(), env.takeTablesRead().size(), "the first backup reads every table");

            for (int i = 0; i < 10; i++) {
                db.put(key(100_000 + i), utf8("new" + i));
            }
            db.flushMemTable();
            Set<String> added = tables(mem);
            added.removeAll(before);
            assertEquals(1, added.size(), added.toString());
            String newTable = added.iterator().next();
            TreeMap<String, String> expected = contents(db);
            BackupInfo second = backups.createBackup(db);

            assertEquals(List.of(newTable), env.takeTablesRead(), "only the new table is read");
            long newTableSize = mem.getFileSize(DB.resolve(newTable));
            long privateBytes = 0;
            for (String name : mem.getChildren(BACKUPS.resolve("private").resolve("2"))) {
                privateBytes += mem.getFileSize(BACKUPS.resolve("private").resolve("2").resolve(name));
            }
            assertEquals(1 + 3, second.newFiles(), "the new table, the log, MANIFEST and CURRENT");
            assertEquals(newTableSize + privateBytes, second.newBytes());
            assertEquals(first.fileCount() + 1, second.fileCount());
            assertTrue(second.newBytes() * 10 < second.size(), second.toString());
            assertEquals(before.size() + 1, mem.getChildren(BACKUPS.resolve("shared")).size());
            assertEquals(expected, restored(backups, 2, mem, Path.of("/restored")));
        }
    }

    @Test
    void afterAReopenTablesAreReadOnceAndNotStoredAgain() throws IOException {
        MemEnv mem = new MemEnv();
        CountingEnv env = new CountingEnv(mem);
        try (ExtendedDB db = factory.open(DB.toFile(), options(env));
             BackupEngine backups = BackupEngine.open(BACKUPS, mem, true)) {
            for (int i = 0; i < 3000; i++) {
                db.put(key(i), utf8("value" + i));
            }
            db.compactRange(null, null); // and the memtable flushed: the reopen makes no table
            backups.createBackup(db);
        }
        Set<String> before = tables(mem);
        env.takeTablesRead();
        try (ExtendedDB db = factory.open(DB.toFile(), options(env));
             BackupEngine backups = BackupEngine.open(BACKUPS, mem, true)) {
            TreeMap<String, String> expected = contents(db);
            BackupInfo second = backups.createBackup(db);
            Set<String> after = tables(mem);
            List<String> read = env.takeTablesRead();
            assertEquals(after.size(), read.size(), "each table read once: " + read);
            assertEquals(after, new HashSet<>(read));
            assertEquals(before, after);
            assertEquals(3, second.newFiles(), "only its own files");
            assertEquals(expected, restored(backups, 2, mem, Path.of("/restored")));
        }
    }

    @Test
    void tablesOfAnotherDatabaseAtTheSamePathAreStoredAnew() throws IOException {
        MemEnv mem = new MemEnv();
        TreeMap<String, String> firstDb;
        // A write buffer that holds everything: each database's one flush makes one table, of the
        // same number in both.
        Options oneTable = new Options().env(mem).compressionType(org.iq80.leveldb.CompressionType.NONE);
        try (ExtendedDB db = factory.open(DB.toFile(), oneTable);
             BackupEngine backups = BackupEngine.open(BACKUPS, mem, true)) {
            for (int i = 0; i < 2000; i++) {
                db.put(key(i), utf8("first-" + i));
            }
            db.flushMemTable();
            firstDb = contents(db);
            backups.createBackup(db);
        }
        Set<String> firstTables = tables(mem);
        for (String name : mem.getChildren(DB)) {
            mem.deleteFile(DB.resolve(name));
        }
        // The same writes with other values of the same lengths: the same table numbers and sizes,
        // and the same sequence number.
        TreeMap<String, String> secondDb;
        try (ExtendedDB db = factory.open(DB.toFile(), oneTable);
             BackupEngine backups = BackupEngine.open(BACKUPS, mem, true)) {
            for (int i = 0; i < 2000; i++) {
                db.put(key(i), utf8("again-" + i));
            }
            db.flushMemTable();
            secondDb = contents(db);
            assertEquals(1, firstTables.size(), firstTables.toString());
            assertEquals(firstTables, tables(mem));
            BackupInfo second = backups.createBackup(db);
            assertEquals(backups.listBackups().get(0).sequence(), second.sequence());
            assertEquals(second.fileCount(), second.newFiles(), "every file stored anew: other contents");
            assertEquals(firstDb, restored(backups, 1, mem, Path.of("/r1")));
            assertEquals(secondDb, restored(backups, 2, mem, Path.of("/r2")));
        }
    }
}
