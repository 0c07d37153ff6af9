package org.leveldbj.engine;

import java.io.IOException;
import java.nio.file.Path;
import org.iq80.leveldb.Env;
import org.iq80.leveldb.Options;
import org.leveldbj.cache.TableCache;
import org.leveldbj.comparator.UserComparators;
import org.leveldbj.env.FileSystemEnv;
import org.leveldbj.filename.FileNames;
import org.leveldbj.filename.FileType;
import org.leveldbj.key.InternalKeyComparator;
import org.leveldbj.table.BlockCache;
import org.leveldbj.table.TableOptions;

/**
 * What the factory does to a database directory that is not open: destroying and repairing
 * it. Each takes the directory's {@code LOCK} first, so neither touches a database in use.
 *
 * <p>Thread safety: stateless; the lock keeps two callers off one directory.
 */
public final class DatabaseDirectory {
    private DatabaseDirectory() {
    }

    /**
     * Deletes the database's files (those whose names a database uses), the files
     * {@link #repair} moved into {@code lost/} and that directory, and then the database
     * directory when it is empty. Files of other names are kept. (C++ LevelDB leaves
     * {@code lost/} behind, and with it the directory.)
     *
     * @param dir the database directory; nothing happens when it does not exist
     * @param options the options naming the environment, or {@code null}
     * @throws org.iq80.leveldb.DatabaseLockedException if the database is open
     * @throws org.iq80.leveldb.DatabasePathNotDirectoryException if the path is a file
     * @throws IOException if a file cannot be deleted
     */
    public static void destroy(Path dir, Options options) throws IOException {
        Arguments.checkNotNull(dir, "path");
        Env env = options != null && options.env() != null ? options.env() : FileSystemEnv.getDefault();
        if (!env.fileExists(dir)) {
            return;
        }
        Path lockPath = dir.resolve(FileNames.LOCK);
        IOException failure = null;
        Env.FileLock lock = DatabaseLock.lock(env, dir);
        try {
            for (String name : env.getChildren(dir)) {
                FileNames.Parsed p = FileNames.parse(name);
                if (p == null || p.type() == FileType.LOCK) {
                    continue;
                }
                try {
                    env.deleteFile(dir.resolve(name));
                } catch (IOException e) {
                    failure = failure == null ? e : failure;
                }
            }
            failure = deleteArchive(env, dir.resolve(Repairer.LOST_DIR), failure);
        } finally {
            lock.close();
        }
        if (env.fileExists(lockPath)) {
            env.deleteFile(lockPath);
        }
        if (failure != null) {
            throw failure;
        }
        if (env.getChildren(dir).isEmpty()) {
            env.deleteDir(dir);
        }
    }

    /**
     * Deletes what {@link #repair} moved into {@code lost/} (database file names, possibly with a
     * {@code .N} suffix telling apart files of the same name from several repairs), then the
     * directory when nothing else is in it.
     *
     * @return the first failure so far
     */
    private static IOException deleteArchive(Env env, Path lost, IOException failure) {
        if (!env.fileExists(lost)) {
            return failure;
        }
        try {
            for (String name : env.getChildren(lost)) {
                if (FileNames.parse(name.replaceFirst("\\.[0-9]+$", "")) != null) {
                    env.deleteFile(lost.resolve(name));
                }
            }
            if (env.getChildren(lost).isEmpty()) {
                env.deleteDir(lost);
            }
        } catch (IOException e) {
            return failure == null ? e : failure;
        }
        return failure;
    }

    /**
     * Rebuilds a usable database from the readable logs and tables in the directory (see
     * {@link Repairer}); files that cannot be used are moved into its {@code lost/}
     * subdirectory. The database must not be open.
     *
     * @param dir the database directory
     * @param options the options it is used with, or {@code null} for the defaults
     * @throws org.iq80.leveldb.DatabaseLockedException if the database is open
     * @throws org.iq80.leveldb.DatabasePathNotDirectoryException if the path is a file
     * @throws IOException if the repair cannot read or write what it needs
     */
    public static void repair(Path dir, Options options) throws IOException {
        Arguments.checkNotNull(dir, "path");
        Options opts = options != null ? options : new Options();
        Env env = opts.env() != null ? opts.env() : FileSystemEnv.getDefault();
        Env.FileLock lock = DatabaseLock.lock(env, dir);
        try {
            InfoLog infoLog = InfoLog.open(env, dir, opts.logger());
            InternalKeyComparator icmp = new InternalKeyComparator(UserComparators.of(opts.comparator()));
            TableOptions tableOptions = DbImpl.tableOptions(opts, icmp, BlockCache.NONE);
            TableCache tables = new TableCache(env, dir, Math.max(1, opts.maxOpenFiles() - 10), tableOptions);
            try {
                new Repairer(env, dir, icmp, tableOptions, new TableCacheSource(tables), opts.maxFileSize(),
                        opts.tableFileSuffix(),
                        line -> infoLog.log("%s", line)).run();
            } finally {
                tables.close();
                infoLog.close();
            }
        } finally {
            lock.close();
        }
    }
}
