package org.leveldbj.backup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.leveldbj.backup.BackupFixtures.contents;
import static org.leveldbj.backup.BackupFixtures.ids;
import static org.leveldbj.backup.BackupFixtures.key;
import static org.leveldbj.backup.BackupFixtures.restored;
import static org.leveldbj.backup.BackupFixtures.utf8;
import static org.leveldbj.db.LevelDbFactory.factory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import org.iq80.leveldb.CompressionType;
import org.iq80.leveldb.Env;
import org.iq80.leveldb.ExtendedDB;
import org.iq80.leveldb.Options;
import org.iq80.leveldb.WriteBatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.leveldbj.testing.LeakCheck;
import org.leveldbj.testing.MemEnv;
import org.leveldbj.testing.SeedExtension;

/**
 * A random history of writes, flushes, compactions, reopens, backups, purges, verifications and
 * restores, against a model: the database's contents in a {@code TreeMap}, and the contents each
 * backup must hold. Every listed backup must be one the model has, restore to exactly its model,
 * and verify; at the end, {@code shared/} holds exactly the files the listed backups name, and
 * no file handle is left open. The seed is printed on failure; {@code -Dleveldbj.seed=N} replays it.
 */
@ExtendWith(SeedExtension.class)
class BackupModelTest {
    private static final Path DB = Path.of("/db");
    private static final Path BACKUPS = Path.of("/backups");

    @RegisterExtension
    final LeakCheck leaks = new LeakCheck();

    private final MemEnv mem = new MemEnv();
    private final Env env = leaks.env(mem);
    private int restores;

    private static Options options(Env env, Random random) {
        Options options = new Options().env(env).writeBufferSize(4 << 10 << random.nextInt(3)).maxFileSize(4 << 10)
                .compressionType(random.nextBoolean() ? CompressionType.SNAPPY : CompressionType.NONE);
        if (random.nextBoolean()) {
            options.valueThreshold(200);
        }
        return options;
    }

    @Test
    void everyListedBackupRestoresToItsModel(Random random) throws IOException {
        TreeMap<String, String> model = new TreeMap<>();
        TreeMap<Integer, TreeMap<String, String>> backups = new TreeMap<>();
        Options options = options(env, random);
        ExtendedDB db = factory.open(DB.toFile(), options);
        BackupEngine engine = BackupEngine.open(BACKUPS, env, true);
        try {
            for (int step = 0; step < 250; step++) {
                int action = random.nextInt(100);
                if (action < 50) {
                    write(db, model, random);
                } else if (action < 56) {
                    db.flushMemTable();
                } else if (action < 60) {
                    db.compactRange(null, null);
                } else if (action < 64) {
                    db.close();
                    db = factory.open(DB.toFile(), options);
                } else if (action < 66) {
                    engine.close();
                    engine = BackupEngine.open(BACKUPS, env, false);
                } else if (action < 80) {
                    int expected = backups.isEmpty() ? 1 : backups.lastKey() + 1;
                    BackupInfo made = engine.createBackup(db);
                    assertEquals(expected, made.id());
                    backups.put(made.id(), new TreeMap<>(model));
                } else if (action < 86) {
                    int keep = random.nextInt(4);
                    PurgeResult purged = engine.purge(keep);
                    List<Integer> deleted = new ArrayList<>();
                    while (backups.size() > keep) {
                        deleted.add(backups.pollFirstEntry().getKey());
                    }
                    assertEquals(deleted, purged.deletedBackups());
                } else if (!backups.isEmpty()) {
                    List<Integer> ids = new ArrayList<>(backups.keySet());
                    int id = ids.get(random.nextInt(ids.size()));
                    if (action < 92) {
                        engine.verifyBackup(id);
                    } else {
                        assertEquals(backups.get(id), restore(engine, id), "backup " + id + " at step " + step);
                    }
                }
                assertEquals(new ArrayList<>(backups.keySet()), ids(engine), "the backups listed at step " + step);
            }
            assertEquals(model, contents(db));
            for (int id : backups.keySet()) {
                engine.verifyBackup(id);
                assertEquals(backups.get(id), restore(engine, id), "backup " + id);
            }
            assertEquals(referencedSharedFiles(), new TreeSet<>(env.getChildren(BACKUPS.resolve("shared"))));
        } finally {
            engine.close();
            db.close();
        }
    }

    private TreeMap<String, String> restore(BackupEngine engine, int id) throws IOException {
        return restored(engine, id, env, Path.of("/restored-" + restores++));
    }

    private static void write(ExtendedDB db, TreeMap<String, String> model, Random random) {
        try (WriteBatch batch = db.createWriteBatch()) {
            for (int n = 1 + random.nextInt(20); n > 0; n--) {
                int k = random.nextInt(300);
                String key = new String(key(k), StandardCharsets.UTF_8);
                if (random.nextInt(5) == 0) {
                    batch.delete(key(k));
                    model.remove(key);
                } else {
                    String value = "v" + random.nextInt(1000) + "-" + "x".repeat(random.nextInt(random.nextBoolean() ? 50 : 600));
                    batch.put(key(k), utf8(value));
                    model.put(key, value);
                }
            }
            db.write(batch);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    private TreeSet<String> referencedSharedFiles() throws IOException {
        TreeSet<String> names = new TreeSet<>();
        for (BackupMeta meta : BackupDirectory.open(env, BACKUPS, false).readAll().values()) {
            for (BackupMeta.StoredFile f : meta.files()) {
                if (f.shared()) {
                    names.add(f.path().substring("shared/".length()));
                }
            }
        }
        return names;
    }
}
