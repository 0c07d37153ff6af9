package org.leveldbj.db;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.iq80.leveldb.BackgroundPool;
import org.iq80.leveldb.Cache;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.DBFactory;
import org.iq80.leveldb.ExtendedDB;
import org.iq80.leveldb.Options;
import org.iq80.leveldb.TableWriter;
import org.iq80.leveldb.WriteBufferBudget;
import org.leveldbj.background.Pool;
import org.leveldbj.cache.ClockBlockCache;
import org.leveldbj.engine.DatabaseDirectory;
import org.leveldbj.engine.DbImpl;
import org.leveldbj.engine.ExternalTableWriter;
import org.leveldbj.memtable.MemTableBudget;

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

    /**
     * Creates a pool of threads for the flushes and compactions of several databases
     * ({@link Options#backgroundPool(BackgroundPool)}), so that a process with many databases
     * runs a bounded number of threads: each database still runs one background step at a
     * time, and memtable flushes go before compactions (see {@code doc/many-databases.md}).
     * Close it after the databases using it.
     *
     * @param threads the most threads it runs at once, at least 1
     * @return the pool; its threads start when work arrives
     * @throws IllegalArgumentException if {@code threads} is below 1
     */
    public static BackgroundPool newBackgroundPool(int threads) {
        return Pool.create(threads);
    }

    /**
     * Creates a limit on the memtable memory of several databases
     * ({@link Options#writeBufferBudget(WriteBufferBudget)}): when their memtables hold more,
     * the database with the largest one writes it to a table early, whether it is being written
     * to or not (see {@code doc/many-databases.md}). Writes never wait for it.
     *
     * @param capacityBytes the memtable memory to stay under, above 0
     * @return the budget
     * @throws IllegalArgumentException if the capacity is not above 0
     */
    public static WriteBufferBudget newWriteBufferBudget(long capacityBytes) {
        return new MemTableBudget(capacityBytes);
    }

    /**
     * A writer of a table file for {@link ExtendedDB#ingest(File...)}, with the table settings a
     * database opened with these options uses (comparator, block size, restart interval,
     * compression, filter policy; the environment): see {@link TableWriter}. An extension.
     *
     * @param file the file to write; it must not exist
     * @param options the options of the database the file is meant for
     * @return the writer, to close
     * @throws org.iq80.leveldb.InvalidArgumentException if {@code file} exists
     * @throws org.iq80.leveldb.IOErrorException if the file cannot be created
     */
    public static TableWriter newTableWriter(File file, Options options) {
        if (file == null) {
            throw new NullPointerException("file is null");
        }
        return ExternalTableWriter.create(file.toPath(), options);
    }

    /**
     * Opens a database, creating it when {@link Options#createIfMissing()} allows (it does by
     * default, as in the 0.12 API; C++ LevelDB's default is not to).
     *
     * @return the database, as an {@link ExtendedDB}: a {@link DB} with this engine's further
     *     operations
     * @throws org.iq80.leveldb.DatabaseNotFoundException if it is missing and may not be created
     * @throws org.iq80.leveldb.DatabasePathNotDirectoryException if the path is a file
     * @throws org.iq80.leveldb.DatabaseLockedException if another process, or another open
     *     database in this JVM, holds it
     * @throws org.iq80.leveldb.InvalidDatabaseArgumentException if it exists against the
     *     options or was created with another comparator
     * @throws org.iq80.leveldb.CorruptDatabaseException if its files are damaged
     * @throws IOException if files cannot be read or written
     */
    @Override
    public ExtendedDB open(File path, Options options) throws IOException {
        return DbImpl.open(checkPath(path), options);
    }

    /**
     * Deletes the database's files (those whose names a database uses), the files
     * {@link #repair} moved into {@code lost/} and that directory, and then the database
     * directory when it is empty. Files of other names are kept. (C++ LevelDB leaves
     * {@code lost/} behind, and with it the directory.)
     *
     * @throws org.iq80.leveldb.DatabaseLockedException if the database is open
     * @throws org.iq80.leveldb.DatabasePathNotDirectoryException if the path is a file
     */
    @Override
    public void destroy(File path, Options options) throws IOException {
        DatabaseDirectory.destroy(checkPath(path), options);
    }

    /**
     * Rebuilds a usable database from the readable logs and tables in the directory; files that
     * cannot be used are moved into its {@code lost/} subdirectory (see {@code doc/reliability.md}).
     * The database must not be open.
     *
     * @throws org.iq80.leveldb.DatabaseLockedException if the database is open
     * @throws org.iq80.leveldb.DatabasePathNotDirectoryException if the path is a file
     */
    @Override
    public void repair(File path, Options options) throws IOException {
        DatabaseDirectory.repair(checkPath(path), options);
    }

    private static Path checkPath(File path) {
        if (path == null) {
            throw new IllegalArgumentException("The path argument cannot be null");
        }
        return path.toPath();
    }

    @Override
    public String toString() {
        return "leveldbj";
    }
}
