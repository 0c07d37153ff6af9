package org.leveldbj.backup;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.locks.ReentrantLock;
import org.iq80.leveldb.CorruptionException;
import org.iq80.leveldb.DBException;
import org.iq80.leveldb.Env;
import org.iq80.leveldb.ExtendedDB;
import org.iq80.leveldb.IOErrorException;
import org.iq80.leveldb.InvalidArgumentException;
import org.leveldbj.engine.DbImpl;
import org.leveldbj.engine.LiveFiles;
import org.leveldbj.env.FileSystemEnv;

/**
 * Incremental backups of live databases in one backup directory: {@link #createBackup} copies
 * only the tables and value files no backup there holds yet; {@link #listBackups},
 * {@link #verifyBackup}, {@link #restore} and {@link #purge} work on what is kept. The package
 * overview describes what a backup holds, the directory layout, and what a crash leaves.
 *
 * <pre>{@code
 * try (BackupEngine backups = BackupEngine.open(Path.of("/backups/app"))) {
 *     BackupInfo made = backups.createBackup(db);       // while the database is written to
 *     backups.purge(7);                                 // keep the newest seven
 *     backups.restore(made.id(), Path.of("/data/app-restored"));
 * }
 * }</pre>
 *
 * <p>Thread safety: safe for concurrent use; operations of one engine run one at a time (a
 * second thread waits for the first). Across engines and processes, the directory's lock file
 * makes create, verify, restore and purge exclusive: while one runs, another engine's call fails
 * at once with an {@link IOErrorException} saying the directory is in use. Listing takes no lock
 * and sees each backup whole or not at all.
 *
 * <p>Lifetime: an engine holds no file open between operations; {@link #close()} makes every
 * later call throw. A database being backed up must stay open until {@code createBackup}
 * returns; writes, flushes and compactions go on meanwhile (the files the backup copies are
 * kept until it is done).
 */
public final class BackupEngine implements AutoCloseable {
    private final BackupDirectory directory;
    private final ReentrantLock lock = new ReentrantLock();
    // Guarded by lock. (Not @GuardedBy: the annotation is absent from the class path of the
    // modules that use this public class, and javac warns about it there.)
    private boolean closed;

    private BackupEngine(BackupDirectory directory) {
        this.directory = directory;
    }

    /**
     * Opens a backup directory on the file system, making a new one where there is none or an
     * empty one.
     *
     * @param dir the backup directory
     * @return the engine
     * @throws NotABackupDirectoryException if {@code dir} is a file or holds something else
     * @throws IOErrorException if it cannot be read or made
     */
    public static BackupEngine open(Path dir) {
        return open(dir, FileSystemEnv.getDefault(), true);
    }

    /**
     * Opens a backup directory.
     *
     * @param dir the backup directory
     * @param env the environment it lives in (the databases backed up may live in others)
     * @param createIfMissing whether to make a missing or empty directory a backup directory;
     *     without it, such a directory is refused
     * @return the engine
     * @throws NotABackupDirectoryException if {@code dir} is missing or empty (without
     *     {@code createIfMissing}), a file, holds something else (it has no
     *     {@code LEVELDBJ-BACKUP} marker), or holds backups of a format this version does not read
     * @throws IOErrorException if it cannot be read or made
     */
    public static BackupEngine open(Path dir, Env env, boolean createIfMissing) {
        if (dir == null || env == null) {
            throw new IllegalArgumentException((dir == null ? "dir" : "env") + " must not be null");
        }
        try {
            return new BackupEngine(BackupDirectory.open(env, dir, createIfMissing));
        } catch (IOException e) {
            throw new IOErrorException("IO error: opening backup directory " + dir + ": " + e.getMessage(), e);
        }
    }

    /** @return the backup directory, absolute */
    public Path directory() {
        return directory.path();
    }

    /**
     * Backs up a database as it is now: every write acknowledged before the call, none that
     * starts after it returns. Copies the tables and value files no backup holds yet, checking
     * each file's size and computing its CRC32C as it copies; writes the backup's meta file last.
     * Before starting, deletes what interrupted backups left.
     *
     * @param db an open database of this library ({@code LevelDbFactory}); read-only ones too
     * @return the new backup
     * @throws InvalidArgumentException if {@code db} is not a database of this library
     * @throws IOErrorException if a file cannot be read or written, or the directory is in use;
     *     nothing is listed then, and what was stored is deleted (or, after a crash, by the next
     *     create or purge)
     * @throws CorruptionException if a meta file of the directory is damaged
     * @throws DBException if the database or this engine is closed
     */
    public BackupInfo createBackup(ExtendedDB db) {
        return createBackup(db, BackupProgress.NONE);
    }

    /**
     * Backs up a database as {@link #createBackup(ExtendedDB)} does, reporting the bytes copied.
     *
     * @param db an open database of this library
     * @param progress told of the bytes copied
     * @return the new backup
     */
    public BackupInfo createBackup(ExtendedDB db, BackupProgress progress) {
        if (!(db instanceof DbImpl)) {
            throw new InvalidArgumentException("Invalid argument: " + (db == null ? "null"
                    : db.getClass().getName()) + " is not a database opened by org.leveldbj.db.LevelDbFactory");
        }
        DbImpl database = (DbImpl) db;
        BackupProgress listener = progress == null ? BackupProgress.NONE : progress;
        return exclusive("backing up " + database.directory() + " to " + directory.path(),
                () -> create(database, listener));
    }

    /** An operation on the directory. */
    @FunctionalInterface
    private interface Operation<T> {
        T run() throws IOException;
    }

    /**
     * Runs an operation with this engine's lock and the directory's lock held; an
     * {@link IOException} becomes an {@link IOErrorException} saying what was being done.
     */
    private <T> T exclusive(String doing, Operation<T> operation) {
        lock.lock();
        try {
            checkOpen();
            Env.FileLock fileLock = directory.lock();
            T result;
            try {
                result = operation.run();
            } catch (IOException | RuntimeException e) {
                try {
                    fileLock.close();
                } catch (IOException suppressed) {
                    e.addSuppressed(suppressed);
                }
                throw e;
            }
            fileLock.close();
            return result;
        } catch (IOException e) {
            throw new IOErrorException("IO error: " + doing + ": " + e.getMessage(), e);
        } finally {
            lock.unlock();
        }
    }

    private BackupInfo create(DbImpl db, BackupProgress progress) throws IOException {
        TreeMap<Integer, BackupMeta> existing = directory.readAll();
        directory.makeSubdirectories();
        directory.deleteUnused(existing.values());
        int id = existing.isEmpty() ? 1 : existing.lastKey() + 1;
        if (id < 1) {
            throw new InvalidArgumentException("Invalid argument: " + directory.path() + ": no backup id left after "
                    + existing.lastKey());
        }
        try (LiveFiles live = db.captureLiveFiles()) {
            return new BackupCreation(directory, id).make(live, DatabaseSessions.of(db), existing.values(), progress)
                    .info();
        } catch (IOException | RuntimeException e) {
            discard(id, e);
            throw e;
        }
    }

    /** After a failed create: deletes its meta file, if it got that far, and everything it stored. */
    private void discard(int id, Exception failure) {
        try {
            Env env = directory.env();
            if (env.fileExists(directory.meta(id))) {
                env.deleteFile(directory.meta(id));
                env.syncDir(directory.meta(id).getParent());
            }
            directory.deleteUnused(directory.readAll().values());
        } catch (IOException | RuntimeException e) {
            failure.addSuppressed(e); // the next create or purge deletes it
        }
    }

    /**
     * Lists the backups there are, oldest first.
     *
     * @return their descriptions
     * @throws CorruptionException if a meta file is damaged (it names the file)
     * @throws IOErrorException if the directory cannot be read
     * @throws DBException if this engine is closed
     */
    public List<BackupInfo> listBackups() {
        lock.lock();
        try {
            checkOpen();
            List<BackupInfo> infos = new ArrayList<>();
            for (BackupMeta meta : directory.readAll().values()) {
                infos.add(meta.info());
            }
            return infos;
        } catch (IOException e) {
            throw new IOErrorException("IO error: listing backups in " + directory.path() + ": " + e.getMessage(), e);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Reads every file of a backup and checks its size and CRC32C against the meta file.
     *
     * @param id the backup
     * @return the backup verified
     * @throws BackupNotFoundException if there is no such backup
     * @throws CorruptionException naming the first file that is missing or differs and what
     *     differs; every further one is a suppressed exception of it
     * @throws IOErrorException if a file cannot be read, or the directory is in use
     * @throws DBException if this engine is closed
     */
    public BackupInfo verifyBackup(int id) {
        return verifyBackup(id, BackupProgress.NONE);
    }

    /**
     * Verifies a backup as {@link #verifyBackup(int)} does, reporting the bytes read.
     *
     * @param id the backup
     * @param progress told of the bytes read
     * @return the backup verified
     */
    public BackupInfo verifyBackup(int id, BackupProgress progress) {
        BackupProgress listener = progress == null ? BackupProgress.NONE : progress;
        return exclusive("verifying backup " + id + " in " + directory.path(), () -> {
            BackupMeta meta = existing(id);
            BackupVerification.verify(directory, meta, listener);
            return meta.info();
        });
    }

    /**
     * Restores a backup into a new database directory, checking every file's size and CRC32C as
     * it copies. The database is built in {@code target + ".restore-tmp"} and renamed to
     * {@code target} when complete and synced, so a failure leaves no {@code target}. It opens
     * with this library, and with C++ LevelDB when it has no separated values.
     *
     * @param id the backup
     * @param target the directory to create: it must not exist, or be empty
     * @return the backup restored
     * @throws BackupNotFoundException if there is no such backup
     * @throws InvalidArgumentException if {@code target} is a file or a directory that is not
     *     empty, or lies inside the backup directory
     * @throws CorruptionException if a file of the backup is missing or not what its meta file
     *     says (it names the file)
     * @throws IOErrorException if a file cannot be read or written, or the directory is in use
     * @throws DBException if this engine is closed
     */
    public BackupInfo restore(int id, Path target) {
        return restore(id, target, BackupProgress.NONE);
    }

    /**
     * Restores a backup as {@link #restore(int, Path)} does, reporting the bytes copied.
     *
     * @param id the backup
     * @param target the directory to create
     * @param progress told of the bytes copied
     * @return the backup restored
     */
    public BackupInfo restore(int id, Path target, BackupProgress progress) {
        if (target == null) {
            throw new IllegalArgumentException("target must not be null");
        }
        BackupProgress listener = progress == null ? BackupProgress.NONE : progress;
        return exclusive("restoring backup " + id + " of " + directory.path() + " to " + target, () -> {
            BackupMeta meta = existing(id);
            BackupRestore.restore(directory, meta, target, listener);
            return meta.info();
        });
    }

    /**
     * Deletes every backup but the newest {@code keepNewest}, then the files no remaining
     * backup holds, and what interrupted backups left. Each backup is deleted by deleting its
     * meta file first, so a crash leaves it whole or gone.
     *
     * @param keepNewest how many of the newest backups to keep, at least 0
     * @return what was deleted
     * @throws InvalidArgumentException if {@code keepNewest} is negative
     * @throws CorruptionException if a meta file is damaged: nothing is deleted then, since the
     *     files it lists are unknown (delete that meta file to give up that backup)
     * @throws IOErrorException if a file cannot be deleted, or the directory is in use
     * @throws DBException if this engine is closed
     */
    public PurgeResult purge(int keepNewest) {
        if (keepNewest < 0) {
            throw new InvalidArgumentException("Invalid argument: keepNewest is " + keepNewest + "; it must be at least 0");
        }
        return exclusive("purging backups in " + directory.path(), () -> purgeLocked(keepNewest));
    }

    private PurgeResult purgeLocked(int keepNewest) throws IOException {
        TreeMap<Integer, BackupMeta> backups = directory.readAll();
        List<Integer> deleted = new ArrayList<>();
        long[] freed = new long[2];
        Env env = directory.env();
        while (backups.size() > keepNewest) {
            Map.Entry<Integer, BackupMeta> oldest = backups.pollFirstEntry();
            Path meta = directory.meta(oldest.getKey());
            long size = env.getFileSize(meta);
            env.deleteFile(meta);
            freed[0]++;
            freed[1] += size;
            deleted.add(oldest.getKey());
        }
        if (!deleted.isEmpty()) {
            env.syncDir(directory.meta(deleted.get(0)).getParent());
        }
        long[] unused = directory.deleteUnused(backups.values());
        return new PurgeResult(deleted, (int) (freed[0] + unused[0]), freed[1] + unused[1]);
    }

    private BackupMeta existing(int id) throws IOException {
        BackupMeta meta = id < 1 ? null : directory.readMeta(id);
        if (meta == null) {
            List<Integer> ids = directory.ids();
            throw new BackupNotFoundException(id, "Invalid argument: no backup " + id + " in " + directory.path()
                    + (ids.isEmpty() ? " (it holds no backups)" : " (its backups: " + ranges(ids) + ")"));
        }
        return meta;
    }

    /** {@code 1-3, 5} for {@code [1, 2, 3, 5]}. */
    private static String ranges(List<Integer> ids) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < ids.size(); i++) {
            int start = ids.get(i);
            while (i + 1 < ids.size() && ids.get(i + 1) == ids.get(i) + 1) {
                i++;
            }
            if (sb.length() > 0) {
                sb.append(", ");
            }
            sb.append(start);
            if (ids.get(i) != start) {
                sb.append('-').append(ids.get(i));
            }
        }
        return sb.toString();
    }

    /** Requires: the lock. */
    private void checkOpen() {
        assert lock.isHeldByCurrentThread();
        if (closed) {
            throw new DBException("backup engine of " + directory.path() + " is closed");
        }
    }

    /** Makes every later call throw; waits for an operation in progress. */
    @Override
    public void close() {
        lock.lock();
        try {
            closed = true;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public String toString() {
        return "BackupEngine[" + directory.path() + "]";
    }
}
