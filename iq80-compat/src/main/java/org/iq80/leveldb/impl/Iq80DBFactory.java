package org.iq80.leveldb.impl;

import java.io.File;
import java.io.IOException;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.DBFactory;
import org.iq80.leveldb.DatabaseNotFoundException;
import org.iq80.leveldb.InvalidDatabaseArgumentException;
import org.iq80.leveldb.Options;
import org.leveldbj.db.LevelDbFactory;

/**
 * iq80 leveldb 0.12's factory, with the same name, fields and methods, running on this
 * project's engine ({@link LevelDbFactory}): an application built against iq80 leveldb
 * switches by replacing the {@code org.iq80.leveldb:leveldb} jar with this one, without changing
 * or recompiling code. It also gains what iq80 leveldb lacks: backward iteration, bloom filters,
 * {@code .ldb} tables, snapshots that survive compactions.
 *
 * <p>Open failures follow iq80 leveldb where it differs from leveldbjni: a missing database
 * (with {@code createIfMissing(false)}) and an existing one (with {@code errorIfExists(true)})
 * are {@link IllegalArgumentException}s with iq80's messages, the engine's exception as the
 * cause; every other failure is the engine's {@link IOException} (unlike iq80 leveldb, a failed
 * open creates no directory).
 *
 * <p>Thread safety: stateless; safe for concurrent use.
 */
public class Iq80DBFactory implements DBFactory {
    /**
     * The JVM's data model, 32 or 64, as iq80 leveldb reports it ({@code sun.arch.data.model},
     * else guessed from {@code os.arch}).
     */
    public static final int CPU_DATA_MODEL = dataModel();

    /**
     * iq80 leveldb's switch for memory-mapped files ({@code -Dleveldb.mmap}, by default on for a
     * 64-bit JVM). Informational here: the engine maps table files up to a cap of its own (see
     * {@code org.leveldbj.env.FileSystemEnv}) and reads the rest with positional reads.
     */
    public static final boolean USE_MMAP =
            Boolean.parseBoolean(System.getProperty("leveldb.mmap", String.valueOf(CPU_DATA_MODEL > 32)));

    /** The iq80 leveldb version whose API this class provides. */
    public static final String VERSION = "0.12";

    /** The shared instance, as in iq80 leveldb. */
    public static final Iq80DBFactory factory = new Iq80DBFactory();

    /** Creates a factory; {@link #factory} is the usual way to get one. */
    public Iq80DBFactory() {
    }

    private static int dataModel() {
        try {
            return Integer.parseInt(System.getProperty("sun.arch.data.model"));
        } catch (NumberFormatException absent) {
            return System.getProperty("os.arch", "").contains("64") ? 64 : 32;
        }
    }

    /**
     * Encodes a string as UTF-8, as iq80 leveldb does.
     *
     * @param value the string
     * @return its bytes, or {@code null} for {@code null}
     */
    public static byte[] bytes(String value) {
        return LevelDbFactory.bytes(value);
    }

    /**
     * Decodes UTF-8 bytes, as iq80 leveldb does.
     *
     * @param value the bytes
     * @return the string, or {@code null} for {@code null}
     */
    public static String asString(byte[] value) {
        return LevelDbFactory.asString(value);
    }

    /**
     * Opens a database.
     *
     * @throws IllegalArgumentException if it does not exist and {@code createIfMissing} is off,
     *     or exists and {@code errorIfExists} is on (iq80 leveldb's messages)
     * @throws IOException if it cannot be opened for another reason
     */
    @Override
    public DB open(File path, Options options) throws IOException {
        try {
            return LevelDbFactory.factory.open(path, options);
        } catch (DatabaseNotFoundException e) {
            throw new IllegalArgumentException(
                    "Database '" + path + "' does not exist and the create if missing option is disabled", e);
        } catch (InvalidDatabaseArgumentException e) {
            // With errorIfExists the existence check comes first, before the comparator is read.
            if (options != null && options.errorIfExists()) {
                throw new IllegalArgumentException(
                        "Database '" + path + "' exists and the error if exists option is enabled", e);
            }
            throw e;
        }
    }

    @Override
    public void destroy(File path, Options options) throws IOException {
        LevelDbFactory.factory.destroy(path, options);
    }

    @Override
    public void repair(File path, Options options) throws IOException {
        LevelDbFactory.factory.repair(path, options);
    }

    @Override
    public String toString() {
        return "iq80 leveldb version " + VERSION + " (iq80-compat on " + LevelDbFactory.factory + ")";
    }
}
