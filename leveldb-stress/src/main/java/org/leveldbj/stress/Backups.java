package org.leveldbj.stress;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.iq80.leveldb.Env;
import org.iq80.leveldb.ExtendedDB;
import org.iq80.leveldb.Options;
import org.leveldbj.backup.BackupEngine;
import org.leveldbj.backup.BackupInfo;
import org.leveldbj.env.FileSystemEnv;

/**
 * The backups stress thread 0 makes of the live database into {@code DIR/backups}, and what
 * each must hold: like {@link Checkpoints}, the thread's own keys have no write in flight while
 * it backs up, so a backup must restore to exactly the thread's model of them.
 *
 * <p>Before {@code createBackup} the thread writes its model to
 * {@code DIR/backup-expected/pending}; once the call returns, renames it to {@code ID}. After a
 * kill, a listed backup without its file is the one that was being made, and {@code pending}
 * holds its model. The thread restores each backup it made into {@code DIR/backup-restore},
 * compares, and deletes the restored copy; after every second backup it purges all but the newest
 * two.
 *
 * <p>{@link #verifyAll} (the driver, between rounds) verifies and restores every listed backup,
 * compares each with its model, then purges all but the newest two (so that the directory stays
 * small) and deletes the models of purged backups. Only thread 0 backs up, so at most one backup
 * is in flight when a kill comes.
 *
 * <p>Byte layout of a model: as {@link Checkpoints}'s expectation (thread 0).
 *
 * <p>Thread safety: used by one stress thread, or by the driver between rounds.
 */
final class Backups {
    /** How many backups a purge keeps. */
    static final int KEEP = 2;
    private static final String PENDING = "pending";

    private final Path work;
    private final BackupEngine engine;
    private final Options options;
    private int made;

    /**
     * @param work the crash test's directory
     * @param env the environment the backups are written with (the stress process's kill-point one)
     * @param options the options to open restored backups with
     */
    Backups(Path work, Env env, Options options) {
        this.work = work;
        this.engine = BackupEngine.open(work.resolve("backups"), env, true);
        this.options = options;
    }

    static Path expectations(Path work) {
        return work.resolve("backup-expected");
    }

    /**
     * Backs up the database, then restores the backup and checks thread 0's keys against its model.
     *
     * @param db the live database
     * @param model thread 0's model now (no write of its keys in flight)
     * @throws IOException if a model cannot be written
     * @throws IllegalStateException if the restored backup differs from the model
     */
    void backUpAndCheck(ExtendedDB db, long[] model) throws IOException {
        Path dir = expectations(work);
        Files.createDirectories(dir);
        Checkpoints.writeModel(dir.resolve(PENDING), 0, model);
        BackupInfo info = engine.createBackup(db);
        Files.move(dir.resolve(PENDING), dir.resolve(Integer.toString(info.id())), StandardCopyOption.ATOMIC_MOVE);
        List<String> failures = restoreAndCheck(engine, info.id(), model);
        if (!failures.isEmpty()) {
            throw new IllegalStateException(String.join("; ", failures));
        }
        if (++made % 2 == 0) {
            purge(engine, work);
        }
    }

    private List<String> restoreAndCheck(BackupEngine backups, int id, long[] model) throws IOException {
        Path restored = work.resolve("backup-restore");
        Checkpoints.deleteRecursively(restored);
        backups.restore(id, restored);
        List<String> failures = new ArrayList<>();
        for (String f : Checkpoints.check(restored, options, 0, model)) {
            failures.add("backup " + id + " (restored): " + f);
        }
        Checkpoints.deleteRecursively(restored);
        return failures;
    }

    private static void purge(BackupEngine backups, Path work) throws IOException {
        for (int id : backups.purge(KEEP).deletedBackups()) {
            Files.deleteIfExists(expectations(work).resolve(Integer.toString(id)));
        }
    }

    /**
     * Verifies and restores every listed backup and compares it with its model; then purges all
     * but the newest {@value #KEEP}.
     *
     * @param work the crash test's directory
     * @param options the options to open restored backups with
     * @return how many backups were checked, and the failures
     * @throws IOException if the models cannot be read
     */
    static Checkpoints.Result verifyAll(Path work, Options options) throws IOException {
        Path dir = work.resolve("backups");
        List<String> failures = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return new Checkpoints.Result(0, failures);
        }
        int checked = 0;
        try (BackupEngine backups = BackupEngine.open(dir, FileSystemEnv.getDefault(), false)) {
            Backups checker = new Backups(work, backups, options);
            List<BackupInfo> listed = backups.listBackups();
            int newest = listed.stream().mapToInt(BackupInfo::id).max().orElse(0);
            for (BackupInfo b : listed) {
                Path model = expectations(work).resolve(Integer.toString(b.id()));
                if (!Files.exists(model) && b.id() == newest) {
                    model = expectations(work).resolve(PENDING); // made just before the kill
                }
                if (!Files.exists(model)) {
                    failures.add("backup " + b.id() + " is listed but has no model");
                    continue;
                }
                try {
                    backups.verifyBackup(b.id());
                    failures.addAll(checker.restoreAndCheck(backups, b.id(), Checkpoints.readModel(model).ops()));
                } catch (RuntimeException e) {
                    failures.add("backup " + b.id() + ": " + e);
                }
                checked++;
            }
            if (failures.isEmpty()) {
                purge(backups, work);
                Files.deleteIfExists(expectations(work).resolve(PENDING));
                try (Stream<Path> s = Files.list(work)) {
                    for (Path p : s.filter(p -> p.getFileName().toString().startsWith("backup-restore")).toList()) {
                        Checkpoints.deleteRecursively(p);
                    }
                }
            }
        } catch (RuntimeException e) {
            failures.add("the backup directory does not open: " + e);
        }
        return new Checkpoints.Result(checked, failures);
    }

    private Backups(Path work, BackupEngine engine, Options options) {
        this.work = work;
        this.engine = engine;
        this.options = options;
    }
}
