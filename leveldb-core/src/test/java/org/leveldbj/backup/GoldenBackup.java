package org.leveldbj.backup;

import static org.leveldbj.backup.BackupFixtures.utf8;
import static org.leveldbj.db.LevelDbFactory.factory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.TreeMap;
import org.iq80.leveldb.CompressionType;
import org.iq80.leveldb.ExtendedDB;
import org.iq80.leveldb.Options;

/**
 * The backup directory kept in the test resources ({@code golden-format-1}), made once by this
 * version with {@link #main}, and what each of its backups must restore to. Backup 1: twenty
 * keys in a table, one value separated into a value file, five keys and a deletion in the
 * memtable. Backup 2: ten more keys in a second table, a deletion in the memtable; it shares
 * backup 1's table.
 *
 * <p>Run (once, for a new format): {@code java -cp <test class path> org.leveldbj.backup.GoldenBackup
 * leveldb-core/src/test/resources/org/leveldbj/backup/golden-format-1}. Never rewrite the kept
 * directory for an existing format: it is what later versions must go on restoring.
 */
final class GoldenBackup {
    /** The resource directory. */
    static final String RESOURCE = "golden-format-1";

    private GoldenBackup() {
    }

    /** What backup {@code id} holds. */
    static TreeMap<String, String> expected(int id) {
        TreeMap<String, String> model = new TreeMap<>();
        for (int i = 0; i < 20; i++) {
            model.put(String.format("a%03d", i), i == 7 ? "large-".repeat(50) : "value-" + i);
        }
        for (int i = 0; i < 5; i++) {
            model.put(String.format("b%03d", i), "memtable-" + i);
        }
        model.remove("a003");
        if (id == 2) {
            for (int i = 0; i < 10; i++) {
                model.put(String.format("c%03d", i), "second-" + i);
            }
            model.remove("b001");
        }
        return model;
    }

    /**
     * Writes the directory.
     *
     * @param args the backup directory to make (it must not exist); the database is made in a
     *     temporary directory
     */
    public static void main(String[] args) throws IOException {
        Path target = Path.of(args[0]);
        if (Files.exists(target)) {
            throw new IllegalArgumentException(target + " exists");
        }
        Path dbDir = Files.createTempDirectory("golden-db");
        Options options = new Options().compressionType(CompressionType.NONE).valueThreshold(100);
        try (ExtendedDB db = factory.open(dbDir.toFile(), options); BackupEngine backups = BackupEngine.open(target)) {
            TreeMap<String, String> one = expected(1);
            for (String key : one.keySet()) {
                if (key.startsWith("a")) {
                    db.put(utf8(key), utf8(one.get(key)));
                }
            }
            db.put(utf8("a003"), utf8("value-3"));
            db.flushMemTable();
            for (String key : one.keySet()) {
                if (key.startsWith("b")) {
                    db.put(utf8(key), utf8(one.get(key)));
                }
            }
            db.delete(utf8("a003"));
            backups.createBackup(db);
            TreeMap<String, String> two = expected(2);
            for (String key : two.keySet()) {
                if (key.startsWith("c")) {
                    db.put(utf8(key), utf8(two.get(key)));
                }
            }
            db.flushMemTable();
            db.delete(utf8("b001"));
            backups.createBackup(db);
        }
        try (var files = Files.walk(dbDir)) {
            for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
        Files.deleteIfExists(target.resolve(BackupDirectory.LOCK));
    }
}
