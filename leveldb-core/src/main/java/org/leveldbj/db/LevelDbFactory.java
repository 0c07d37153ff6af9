package org.leveldbj.db;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.iq80.leveldb.Cache;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.DBFactory;
import org.iq80.leveldb.Env;
import org.iq80.leveldb.Options;
import org.leveldbj.cache.ClockBlockCache;
import org.leveldbj.cache.TableCache;
import org.leveldbj.comparator.UserComparators;
import org.leveldbj.env.FileSystemEnv;
import org.leveldbj.filename.FileNames;
import org.leveldbj.filename.FileType;
import org.leveldbj.key.InternalKeyComparator;
import org.leveldbj.table.BlockCache;
import org.leveldbj.table.TableOptions;

/**
 * This engine's {@link DBFactory}, registered with {@link java.util.ServiceLoader} and available
 * as {@link #factory}, like leveldbjni's {@code JniDBFactory.factory}. The static helpers
 * {@link #bytes(String)} and {@link #asString(byte[])} convert with UTF-8, as leveldbjni's do.
 *
 * <p>Thread safety: stateless; safe for concurrent use.
 */
public final class LevelDbFactory implements DBFactory {
    /** The shared instance. */
    public static final LevelDbFactory factory = new LevelDbFactory();

    /** Creates a factory; {@link #factory} is the usual way to get one. */
    public LevelDbFactory() {
    }

    /**
     * Encodes a string as UTF-8.
     *
     * @param value the string
     * @return its bytes, or {@code null} for {@code null}
     */
    public static byte[] bytes(String value) {
        return value == null ? null : value.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Decodes UTF-8 bytes.
     *
     * @param value the bytes
     * @return the string, or {@code null} for {@code null}
     */
    public static String asString(byte[] value) {
        return value == null ? null : new String(value, StandardCharsets.UTF_8);
    }

    /**
     * Creates a block cache that several databases can share ({@link Options#cache(Cache)}),
     * so that one memory budget serves them all: for instance every Kafka Streams store of an
     * application.
     *
     * @param capacityBytes the most bytes of uncompressed blocks it holds, at least 0
     * @return the cache
     * @throws IllegalArgumentException if the capacity is negative
     */
    public static Cache newCache(long capacityBytes) {
        return new ClockBlockCache(capacityBytes);
    }

    @Override
    public DB open(File path, Options options) throws IOException {
        Arguments.checkNotNull(path, "path");
        return DbImpl.open(path.toPath(), options);
    }

    /**
     * Deletes the database's files (those whose names a database uses), the files
     * {@link #repair} moved into {@code lost/} and that directory, and then the database
     * directory when it is empty. Files of other names are kept. (C++ LevelDB leaves
     * {@code lost/} behind, and with it the directory.)
     */
    @Override
    public void destroy(File path, Options options) throws IOException {
        Arguments.checkNotNull(path, "path");
        Env env = options != null && options.env() != null ? options.env() : FileSystemEnv.getDefault();
        Path dir = path.toPath();
        if (!env.fileExists(dir)) {
            return;
        }
        Path lockPath = dir.resolve(FileNames.LOCK);
        IOException failure = null;
        Env.FileLock lock = env.lockFile(lockPath);
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
     */
    @Override
    public void repair(File path, Options options) throws IOException {
        Arguments.checkNotNull(path, "path");
        Options opts = options != null ? options : new Options();
        Env env = opts.env() != null ? opts.env() : FileSystemEnv.getDefault();
        Path dir = path.toPath();
        Env.FileLock lock = env.lockFile(dir.resolve(FileNames.LOCK));
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

    @Override
    public String toString() {
        return "leveldbj";
    }
}
