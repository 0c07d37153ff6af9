package org.leveldbj.backup;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.leveldbj.backup.BackupFixtures.contents;
import static org.leveldbj.backup.BackupFixtures.ids;
import static org.leveldbj.backup.BackupFixtures.key;
import static org.leveldbj.backup.BackupFixtures.restored;
import static org.leveldbj.backup.BackupFixtures.utf8;
import static org.leveldbj.db.LevelDbFactory.factory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.DBException;
import org.iq80.leveldb.DBIterator;
import org.iq80.leveldb.ExtendedDB;
import org.iq80.leveldb.IOErrorException;
import org.iq80.leveldb.Options;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.leveldbj.filename.FileNames;

/**
 * Backups on the real file system: a backup restores to the database as it was, including the
 * memtable's entries and deletions; one made under a concurrent writer holds exactly a prefix of
 * its writes; value files are stored per captured length; read-only databases are backed up;
 * purging keeps the newest; progress is reported; and a second engine finds the directory in
 * use while one works on it.
 */
class BackupEngineTest {
    @TempDir
    Path tmp;

    private static Options small() {
        return new Options().writeBufferSize(64 << 10).maxFileSize(32 << 10);
    }

    private static List<String> names(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void aBackupRestoresToTheDatabaseAsItWas() throws IOException {
        Path dir = tmp.resolve("db");
        TreeMap<String, String> expected;
        BackupInfo info;
        try (ExtendedDB db = factory.open(dir.toFile(), small());
             BackupEngine backups = BackupEngine.open(tmp.resolve("backups"))) {
            for (int i = 0; i < 3000; i++) {
                db.put(key(i), utf8("value" + i + "x".repeat(i % 50)));
            }
            db.flushMemTable();
            db.put(key(5), utf8("in the memtable"));
            db.delete(key(6));
            expected = contents(db);
            info = backups.createBackup(db);
            db.put(key(7), utf8("after the backup"));
            db.delete(key(8));
            db.compactRange(null, null);
        }
        assertEquals(1, info.id());
        assertEquals(dir.toAbsolutePath().toString(), info.database());
        assertEquals(BackupMeta.FORMAT, info.formatVersion());
        assertTrue(info.libraryVersion().matches("\\d+\\.\\d+\\.\\d+.*"), info.libraryVersion());
        assertEquals(info.size(), info.newBytes(), "the first backup stores everything");
        assertEquals(info.fileCount(), info.newFiles());
        assertEquals(3002, info.sequence(), "3000 puts, then a put and a delete");
        List<String> shared = names(tmp.resolve("backups").resolve("shared"));
        assertEquals(info.fileCount() - 3, shared.size(), "tables in shared/, the log, MANIFEST and CURRENT private");
        assertTrue(shared.size() >= 3, shared.toString());
        for (String name : shared) {
            assertTrue(name.matches("\\d{6}_[0-9a-f]{8}_\\d+\\.(ldb|sst)"), name);
            assertEquals(1, Files.getAttribute(tmp.resolve("backups").resolve("shared").resolve(name), "unix:nlink"),
                    name + ": a copy, not a link to the database's file");
        }
        try (BackupEngine backups = BackupEngine.open(tmp.resolve("backups"))) {
            assertEquals(List.of(info), backups.listBackups());
            assertEquals(info, backups.verifyBackup(1));
            assertEquals(expected, restored(backups, 1, null, tmp.resolve("restored")));
        }
        for (String name : names(tmp.resolve("restored"))) {
            assertTrue(FileNames.parse(name) != null, "a database's file: " + name);
        }
        assertFalse(Files.exists(tmp.resolve("restored" + BackupRestore.TEMPORARY_SUFFIX)));
        assertEquals(List.of("LEVELDBJ-BACKUP", "LOCK", "meta", "private", "shared"), names(tmp.resolve("backups")));
        assertEquals("leveldbj backup directory\nformat 1\n",
                Files.readString(tmp.resolve("backups").resolve("LEVELDBJ-BACKUP")));
    }

    @Test
    void aBackupUnderWritesHoldsExactlyAPrefix() throws Exception {
        AtomicLong acked = new AtomicLong(-1);
        AtomicLong started = new AtomicLong(-1);
        AtomicBoolean stop = new AtomicBoolean();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        byte[] value = new byte[100];
        List<long[]> bounds = new ArrayList<>();
        try (ExtendedDB db = factory.open(tmp.resolve("db").toFile(), small());
             BackupEngine backups = BackupEngine.open(tmp.resolve("backups"))) {
            Thread writer = new Thread(() -> {
                try {
                    for (long i = 0; !stop.get(); i++) {
                        started.set(i);
                        db.put(key(i), value);
                        acked.set(i);
                    }
                } catch (Throwable t) {
                    failure.set(t);
                }
            });
            writer.start();
            for (int round = 0; round < 3; round++) {
                long target = acked.get() + 5_000;
                while (acked.get() < target && writer.isAlive()) {
                    Thread.onSpinWait();
                }
                long ackedBefore = acked.get();
                backups.createBackup(db);
                bounds.add(new long[] {ackedBefore, started.get()});
            }
            stop.set(true);
            writer.join();
            assertNull(failure.get());
            for (int round = 0; round < 3; round++) {
                Path target = tmp.resolve("restored" + round);
                backups.restore(round + 1, target);
                try (DB copy = factory.open(target.toFile(), new Options().createIfMissing(false))) {
                    long count = 0;
                    try (DBIterator it = copy.iterator()) {
                        for (it.seekToFirst(); it.hasNext(); count++) {
                            assertArrayEquals(key(count), it.next().getKey(), "a prefix, in order");
                        }
                    }
                    long[] b = bounds.get(round);
                    assertTrue(count - 1 >= b[0], count + " entries, " + b[0] + " acknowledged before");
                    assertTrue(count - 1 <= b[1], count + " entries, " + b[1] + " started by the return");
                }
            }
        }
    }

    @Test
    void valueFilesAreStoredAsLongAsTheyWereAtEachBackup() throws IOException {
        Options options = small().valueThreshold(1024);
        byte[] large = new byte[4096];
        Arrays.fill(large, (byte) 'v');
        TreeMap<String, String> first;
        TreeMap<String, String> second;
        try (ExtendedDB db = factory.open(tmp.resolve("db").toFile(), options);
             BackupEngine backups = BackupEngine.open(tmp.resolve("backups"))) {
            for (int i = 0; i < 10; i++) {
                db.put(key(i), large);
            }
            db.flushMemTable();
            db.put(key(10), large);
            first = contents(db);
            backups.createBackup(db);
            db.put(key(11), large);
            db.delete(key(1));
            second = contents(db);
            backups.createBackup(db);
            assertEquals(first, restored(backups, 1, null, tmp.resolve("r1")));
            assertEquals(second, restored(backups, 2, null, tmp.resolve("r2")));
        }
        List<String> values = names(tmp.resolve("backups").resolve("shared")).stream()
                .filter(n -> n.endsWith(".vlog")).toList();
        assertEquals(2, values.size(), "one value file at two lengths: " + values);
        assertEquals(values.get(0).substring(0, 6), values.get(1).substring(0, 6), values.toString());
        assertNotEquals(first, second);
    }

    @Test
    void aReadOnlyDatabaseIsBackedUp() throws IOException {
        Path dir = tmp.resolve("db");
        try (DB db = factory.open(dir.toFile(), new Options())) {
            db.put(key(1), utf8("one"));
        }
        List<String> before = names(dir);
        try (ExtendedDB db = factory.open(dir.toFile(), new Options().readOnly(true));
             BackupEngine backups = BackupEngine.open(tmp.resolve("backups"))) {
            backups.createBackup(db);
            assertEquals(before, names(dir), "the database's directory is unchanged");
            assertEquals("one", restored(backups, 1, null, tmp.resolve("restored")).get(new String(key(1))));
        }
    }

    @Test
    void purgeKeepsTheNewestAndDeletesWhatOnlyTheOthersHeld() throws IOException {
        List<TreeMap<String, String>> states = new ArrayList<>();
        try (ExtendedDB db = factory.open(tmp.resolve("db").toFile(), small());
             BackupEngine backups = BackupEngine.open(tmp.resolve("backups"))) {
            for (int round = 0; round < 4; round++) {
                for (int i = 0; i < 1000; i++) {
                    db.put(key(i), utf8("round" + round + "-" + i));
                }
                db.compactRange(null, null); // every table replaced: nothing shared with the last backup
                states.add(contents(db));
                backups.createBackup(db);
            }
            long sharedBefore = names(tmp.resolve("backups").resolve("shared")).size();
            PurgeResult purged = backups.purge(2);
            assertEquals(List.of(1, 2), purged.deletedBackups());
            assertEquals(List.of(3, 4), ids(backups));
            assertTrue(purged.deletedFiles() > 2 * 3, purged.toString());
            assertTrue(purged.freedBytes() > 0, purged.toString());
            assertTrue(names(tmp.resolve("backups").resolve("shared")).size() < sharedBefore);
            assertEquals(List.of("3", "4"), names(tmp.resolve("backups").resolve("private")));
            assertEquals(states.get(2), restored(backups, 3, null, tmp.resolve("r3")));
            assertEquals(states.get(3), restored(backups, 4, null, tmp.resolve("r4")));
            assertEquals(List.of(), backups.purge(2).deletedBackups(), "nothing more to delete");
            assertEquals(List.of(3, 4), backups.purge(0).deletedBackups());
            assertEquals(List.of(), backups.listBackups());
            assertEquals(List.of(), names(tmp.resolve("backups").resolve("shared")));
            assertEquals(1, backups.createBackup(db).id(), "ids start again in an emptied directory");
            backups.purge(0);
            Files.delete(tmp.resolve("backups").resolve("shared"));
            Files.delete(tmp.resolve("backups").resolve("meta"));
            assertEquals(1, backups.createBackup(db).id(), "subdirectories deleted by hand are made again");
            assertEquals(states.get(3), restored(backups, 1, null, tmp.resolve("r5")));
        }
    }

    @Test
    void progressIsReportedUpToTheTotal() throws IOException {
        List<long[]> reports = new ArrayList<>();
        try (ExtendedDB db = factory.open(tmp.resolve("db").toFile(), small());
             BackupEngine backups = BackupEngine.open(tmp.resolve("backups"))) {
            for (int i = 0; i < 3000; i++) {
                db.put(key(i), new byte[200]);
            }
            BackupInfo info = backups.createBackup(db, (done, total) -> reports.add(new long[] {done, total}));
            assertFalse(reports.isEmpty());
            long[] last = reports.get(reports.size() - 1);
            assertEquals(last[1], last[0], "done at the end");
            long shared = info.size() - privateBytes(tmp.resolve("backups").resolve("private").resolve("1"));
            assertEquals(shared, last[0], "the bytes copied into shared/");
            for (int i = 1; i < reports.size(); i++) {
                assertTrue(reports.get(i)[0] >= reports.get(i - 1)[0], "never backwards");
            }
            reports.clear();
            backups.verifyBackup(1, (done, total) -> reports.add(new long[] {done, total}));
            assertEquals(info.size(), reports.get(reports.size() - 1)[0]);
            assertEquals(info.size(), reports.get(reports.size() - 1)[1]);
        }
    }

    private static long privateBytes(Path dir) throws IOException {
        long bytes = 0;
        for (String name : names(dir)) {
            bytes += Files.size(dir.resolve(name));
        }
        return bytes;
    }

    /** While one engine works on the directory, another in this process is refused, and lists whole backups. */
    @Test
    void anotherEngineFindsTheDirectoryInUse() throws IOException {
        Path dir = tmp.resolve("backups");
        try (ExtendedDB db = factory.open(tmp.resolve("db").toFile(), small());
             BackupEngine first = BackupEngine.open(dir);
             BackupEngine second = BackupEngine.open(dir)) {
            for (int i = 0; i < 3000; i++) {
                db.put(key(i), new byte[100]);
            }
            first.createBackup(db);
            for (int i = 3000; i < 4000; i++) {
                db.put(key(i), new byte[100]);
            }
            db.flushMemTable();
            List<String> seen = new ArrayList<>();
            first.createBackup(db, (done, total) -> {
                if (seen.isEmpty()) {
                    IOErrorException e = assertThrows(IOErrorException.class, () -> second.createBackup(db));
                    seen.add(e.getMessage());
                    e = assertThrows(IOErrorException.class, () -> second.purge(0));
                    seen.add(e.getMessage());
                    e = assertThrows(IOErrorException.class, () -> second.restore(1, tmp.resolve("r")));
                    seen.add(e.getMessage());
                    assertEquals(List.of(1), ids(second), "the backup being made is not listed");
                }
            });
            assertEquals(3, seen.size());
            for (String message : seen) {
                assertTrue(message.contains("already held by process") && message.contains("is using the backup directory"),
                        message);
            }
            assertEquals(List.of(1, 2), ids(second));
            assertFalse(Files.exists(tmp.resolve("r")));
        }
    }

    @Test
    void aClosedEngineRefusesEveryCall() throws IOException {
        BackupEngine backups = BackupEngine.open(tmp.resolve("backups"));
        backups.close();
        backups.close();
        DBException e = assertThrows(DBException.class, backups::listBackups);
        assertTrue(e.getMessage().endsWith("backups is closed"), e.getMessage());
        try (ExtendedDB db = factory.open(tmp.resolve("db").toFile(), new Options())) {
            assertThrows(DBException.class, () -> backups.createBackup(db));
        }
        assertThrows(DBException.class, () -> backups.verifyBackup(1));
        assertThrows(DBException.class, () -> backups.restore(1, tmp.resolve("r")));
        assertThrows(DBException.class, () -> backups.purge(1));
    }
}
