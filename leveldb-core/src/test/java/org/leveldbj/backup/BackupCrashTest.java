package org.leveldbj.backup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.leveldbj.backup.BackupFixtures.contents;
import static org.leveldbj.backup.BackupFixtures.ids;
import static org.leveldbj.backup.BackupFixtures.key;
import static org.leveldbj.backup.BackupFixtures.utf8;
import static org.leveldbj.db.LevelDbFactory.factory;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.iq80.leveldb.DBException;
import org.iq80.leveldb.Env;
import org.iq80.leveldb.ExtendedDB;
import org.iq80.leveldb.Options;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.leveldbj.engine.ScriptedEnv;
import org.leveldbj.testing.FaultInjectionEnv;
import org.leveldbj.testing.MemEnv;

/**
 * A create, a purge and a restore interrupted at every one of their file operations, in two
 * ways: a power failure there (nothing after it reaches the disk, unsynced data is lost), and a
 * single failing call (the engine's own clean-up runs). Afterwards no half-made backup is listed,
 * every listed backup verifies and restores to exactly what the database held when it was made,
 * a failed create leaves nothing behind, and the next create or purge deletes what a crash left.
 */
class BackupCrashTest {
    private static final Path BACKUPS = Path.of("/backups");
    private static final Path DB = Path.of("/db");

    private final MemEnv dbEnv = new MemEnv();
    private ExtendedDB db;
    /** The backup directory with backups 1 and 2 (and 3 for the purge), made without faults. */
    private MemEnv base;
    private final Map<Integer, TreeMap<String, String>> models = new TreeMap<>();

    @BeforeEach
    void backupsOfAChangingDatabase() throws IOException {
        Options options = new Options().env(dbEnv).writeBufferSize(8 << 10).maxFileSize(4 << 10).valueThreshold(500);
        db = factory.open(DB.toFile(), options);
        base = new MemEnv();
        try (BackupEngine engine = BackupEngine.open(BACKUPS, base, true)) {
            for (int id = 1; id <= 3; id++) {
                for (int i = 0; i < 300; i++) {
                    int k = (i * 7 + id * 100) % 500;
                    db.put(key(k), utf8("round " + id + " " + (k % 13 == 0 ? "x".repeat(600) : "v" + i)));
                }
                db.delete(key(id));
                if (id == 2) {
                    db.compactRange(null, null);
                }
                db.put(key(1000 + id), utf8("in the memtable"));
                models.put(id, contents(db));
                if (id < 3) {
                    assertEquals(id, engine.createBackup(db).id());
                }
            }
        }
        // Read-only from here: no compaction or value collection changes the files between the
        // run that counts an operation's steps and the runs interrupted at each of them.
        db.close();
        db = factory.open(DB.toFile(), options.readOnly(true).createIfMissing(false));
        assertEquals(models.get(3), contents(db));
    }

    @AfterEach
    void closeDatabase() throws IOException {
        db.close();
    }

    /** A fresh environment holding a copy of the base directory. */
    private ScriptedEnv copyOfBase(MemEnv from) throws IOException {
        MemEnv to = new MemEnv();
        copyTree(from, to, BACKUPS);
        return new ScriptedEnv(new FaultInjectionEnv(to));
    }

    private static void copyTree(Env from, Env to, Path path) throws IOException {
        if (from.isDirectory(path)) {
            to.createDir(path);
            for (String name : from.getChildren(path)) {
                copyTree(from, to, path.resolve(name));
            }
            return;
        }
        try (Env.SequentialFile in = from.newSequentialFile(path); Env.WritableFile out = to.newWritableFile(path)) {
            ByteBuffer buffer = ByteBuffer.allocate(64 << 10);
            while (in.read(buffer.clear()) > 0) {
                out.append(buffer.flip());
            }
            out.sync();
        }
    }

    /**
     * Runs an operation interrupted after {@code n} of its file operations, for every n from 0
     * to the number an uninterrupted run makes, and checks the directory after each.
     *
     * @param from the directory to start from
     * @param crash whether the interruption is a power failure (else one failing call)
     * @param operation the operation
     * @param check what must hold afterwards, told whether the operation completed
     */
    private void interruptEverywhere(MemEnv from, boolean crash, Consumer<BackupEngine> operation,
                                     BiConsumer<ScriptedEnv, Boolean> check) throws IOException {
        ScriptedEnv counting = copyOfBase(from);
        try (BackupEngine engine = BackupEngine.open(BACKUPS, counting, false)) {
            operation.accept(engine);
        }
        long steps = counting.mutations();
        assertTrue(steps > 10, "only " + steps + " file operations");
        // n == steps: the operation completes, then the power fails (what it made must be durable).
        for (long n = 0; n <= steps; n++) {
            ScriptedEnv env = copyOfBase(from);
            try (BackupEngine engine = BackupEngine.open(BACKUPS, env, false)) {
                if (crash) {
                    env.freezeAfter(n);
                } else {
                    env.failAfter(n);
                }
                if (n < steps) {
                    long after = n;
                    DBException e = assertThrows(DBException.class, () -> operation.accept(engine),
                            "interrupted after " + after + " of " + steps + " file operations");
                    assertTrue(String.valueOf(e.getMessage()).contains("injected crash"), e.toString());
                } else {
                    operation.accept(engine);
                }
            }
            if (crash) {
                env.crashAndThaw();
            } else {
                env.clearFailure();
            }
            try {
                check.accept(env, n == steps);
            } catch (AssertionError | RuntimeException e) {
                throw new AssertionError((crash ? "crash" : "failure") + " after " + n + " of " + steps
                        + " file operations: " + e.getMessage(), e);
            }
        }
    }

    /** Every listed backup verifies and restores to its model; {@code required} are listed. */
    private void listedBackupsAreWhole(Env env, Set<Integer> required, Set<Integer> allowed) {
        try (BackupEngine engine = BackupEngine.open(BACKUPS, env, false)) {
            List<Integer> listed = ids(engine);
            assertTrue(listed.containsAll(required), "listed " + listed + ", required " + required);
            assertTrue(allowed.containsAll(listed), "listed " + listed + ", allowed " + allowed);
            for (int id : listed) {
                engine.verifyBackup(id);
                Path target = Path.of("/restored-" + id + "-" + System.nanoTime());
                assertEquals(models.get(id), BackupFixtures.restored(engine, id, env, target), "backup " + id);
            }
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    /** Nothing but the files of listed backups: no temporary files, no unlisted private/ID, no unused shared file. */
    private static void noLeftovers(Env env) {
        try {
            BackupDirectory directory = BackupDirectory.open(env, BACKUPS, false);
            TreeMap<Integer, BackupMeta> metas = directory.readAll();
            Set<String> ids = new TreeSet<>();
            Set<String> shared = new TreeSet<>();
            for (BackupMeta meta : metas.values()) {
                ids.add(Integer.toString(meta.id()));
                for (BackupMeta.StoredFile f : meta.files()) {
                    if (f.shared()) {
                        shared.add(f.path().substring("shared/".length()));
                    }
                }
                Set<String> own = new TreeSet<>();
                for (BackupMeta.StoredFile f : meta.files()) {
                    if (!f.shared()) {
                        own.add(f.name());
                    }
                }
                assertEquals(own, new TreeSet<>(env.getChildren(directory.privateDir(meta.id()))));
            }
            assertEquals(ids, new TreeSet<>(env.getChildren(BACKUPS.resolve("meta"))), "meta/");
            assertEquals(ids, new TreeSet<>(env.getChildren(BACKUPS.resolve("private"))), "private/");
            assertEquals(shared, new TreeSet<>(env.getChildren(BACKUPS.resolve("shared"))), "shared/");
            assertEquals(Set.of("LEVELDBJ-BACKUP", "LOCK", "meta", "private", "shared"),
                    new HashSet<>(env.getChildren(BACKUPS)));
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void aCreateInterruptedAnywhere() throws IOException {
        for (boolean crash : new boolean[] {true, false}) {
            interruptEverywhere(base, crash, engine -> engine.createBackup(db), (env, completed) -> {
                listedBackupsAreWhole(env, completed ? Set.of(1, 2, 3) : Set.of(1, 2), Set.of(1, 2, 3));
                if (!crash) {
                    noLeftovers(env); // a failed create deletes what it stored
                }
                try (BackupEngine engine = BackupEngine.open(BACKUPS, env, false)) {
                    int next = engine.createBackup(db).id();
                    models.put(next, models.get(3));
                    noLeftovers(env);
                    listedBackupsAreWhole(env, Set.of(1, 2, next), new HashSet<>(List.of(1, 2, 3, next)));
                }
            });
        }
        assertEquals(models.get(3), contents(db), "the database is unaffected");
    }

    @Test
    void aPurgeInterruptedAnywhere() throws IOException {
        try (BackupEngine engine = BackupEngine.open(BACKUPS, base, false)) {
            assertEquals(3, engine.createBackup(db).id());
        }
        for (boolean crash : new boolean[] {true, false}) {
            interruptEverywhere(base, crash, engine -> engine.purge(1), (env, completed) -> {
                listedBackupsAreWhole(env, Set.of(3), completed ? Set.of(3) : Set.of(1, 2, 3));
                try (BackupEngine engine = BackupEngine.open(BACKUPS, env, false)) {
                    engine.purge(1);
                    assertEquals(List.of(3), ids(engine));
                }
                noLeftovers(env);
                listedBackupsAreWhole(env, Set.of(3), Set.of(3));
            });
        }
    }

    @Test
    void aRestoreInterruptedAnywhereLeavesNoTargetOrAWholeOne() throws IOException {
        Path target = Path.of("/restored");
        for (boolean crash : new boolean[] {true, false}) {
            interruptEverywhere(base, crash, engine -> engine.restore(2, target), (env, completed) -> {
                List<String> left = new ArrayList<>();
                try {
                    assertTrue(!completed || env.fileExists(target), "a completed restore is durable");
                    if (env.fileExists(target)) {
                        assertEquals(models.get(2), contents(env, target), "a whole restore");
                        left.add("target");
                    } else {
                        try (BackupEngine engine = BackupEngine.open(BACKUPS, env, false)) {
                            engine.restore(2, target); // clears what a crashed restore left
                        }
                        assertEquals(models.get(2), contents(env, target));
                    }
                    assertFalse(env.fileExists(Path.of("/restored" + BackupRestore.TEMPORARY_SUFFIX)), left.toString());
                } catch (IOException e) {
                    fail(e);
                }
            });
        }
    }
}
