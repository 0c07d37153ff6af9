package org.fusesource.leveldbjni;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import org.fusesource.leveldbjni.internal.JniDB;
import org.fusesource.leveldbjni.internal.NativeDB;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.DBFactory;
import org.iq80.leveldb.DBOpenException;
import org.iq80.leveldb.DatabaseLockedException;
import org.iq80.leveldb.DatabasePathNotDirectoryException;
import org.iq80.leveldb.Options;
import org.leveldbj.db.LevelDbFactory;

/**
 * leveldbjni 1.8's factory, with the same name, fields and methods, running on this project's
 * pure-Java engine ({@link LevelDbFactory}): an application built against leveldbjni switches by
 * replacing the {@code leveldbjni-all} jar with this one, without changing or recompiling code.
 *
 * <p>Failures of {@link #open}, {@link #destroy} and {@link #repair} are
 * {@link NativeDB.DBException}s with C++ LevelDB's status text, as leveldbjni throws them, and
 * the engine's exception as the cause. The database returned is a {@link JniDB}, as in
 * leveldbjni, on the engine's database: reads, writes, iterators and snapshots follow the
 * {@code org.iq80.leveldb} API as leveldbjni's do, and the tables it writes are named
 * {@code .sst} unless the directory already holds {@code .ldb} tables, so leveldbjni can open
 * again every database it could open before.
 *
 * <p>Thread safety: stateless; safe for concurrent use.
 */
public class JniDBFactory implements DBFactory {
    /** The shared instance, as in leveldbjni. */
    public static final JniDBFactory factory = new JniDBFactory();

    /** The leveldbjni version whose API this class provides. */
    public static final String VERSION = "1.8";

    /** Creates a factory; {@link #factory} is the usual way to get one. */
    public JniDBFactory() {
    }

    /**
     * Encodes a string as UTF-8, as leveldbjni does.
     *
     * @param value the string
     * @return its bytes, or {@code null} for {@code null}
     */
    public static byte[] bytes(String value) {
        return LevelDbFactory.bytes(value);
    }

    /**
     * Decodes UTF-8 bytes, as leveldbjni does.
     *
     * @param value the bytes
     * @return the string, or {@code null} for {@code null}
     */
    public static String asString(byte[] value) {
        return LevelDbFactory.asString(value);
    }

    /**
     * Does nothing: leveldbjni pooled native buffers for the calls of the current thread; the
     * pure-Java engine needs no such pool.
     *
     * @param size the pool size leveldbjni would have used
     */
    public static void pushMemoryPool(int size) {
        // nothing to pool
    }

    /** Does nothing; see {@link #pushMemoryPool(int)}. */
    public static void popMemoryPool() {
        // nothing to pool
    }

    /**
     * Opens a database. As in leveldbjni, {@link Options#verifyChecksums()} is ignored (leveldbjni
     * never passed it to C++ LevelDB): block checksums are checked when a read's
     * {@link org.iq80.leveldb.ReadOptions#verifyChecksums()} asks for it, and by
     * {@link Options#paranoidChecks()}, so reads cost what they cost under leveldbjni.
     *
     * @return a {@link JniDB}, as leveldbjni returns
     * @throws NativeDB.DBException if it cannot be opened: missing ({@code "Invalid argument: DIR:
     *     does not exist (create_if_missing is false)"}), existing against the options, locked
     *     ({@code "IO error: lock DIR/LOCK: already held by process"}) or damaged
     *     ({@code "Corruption: ..."})
     */
    @Override
    public DB open(File path, Options options) throws IOException {
        try {
            Options asLeveldbjni = options == null ? null : new Options(options).verifyChecksums(false);
            return new JniDB(LevelDbFactory.factory.open(path, asLeveldbjni));
        } catch (IOException e) {
            throw translate(e);
        }
    }

    /**
     * Deletes a database's files, and the directory when nothing else is left in it.
     *
     * @throws NativeDB.DBException if the database is open or its files cannot be deleted
     */
    @Override
    public void destroy(File path, Options options) throws IOException {
        try {
            LevelDbFactory.factory.destroy(path, options);
        } catch (IOException e) {
            throw translate(e);
        }
    }

    /**
     * Recovers what can be read from a damaged database.
     *
     * @throws NativeDB.DBException if the repair fails
     */
    @Override
    public void repair(File path, Options options) throws IOException {
        try {
            LevelDbFactory.factory.repair(path, options);
        } catch (IOException e) {
            throw translate(e);
        }
    }

    /**
     * Turns the engine's exception into leveldbjni's, with C++ LevelDB's text: the engine's open
     * failures carry it (a locked database and a path that is a file without the hints the
     * engine adds); file-system failures get its {@code "IO error: "} prefix.
     */
    private static NativeDB.DBException translate(IOException e) {
        if (e instanceof NativeDB.DBException) {
            return (NativeDB.DBException) e;
        }
        String message;
        if (e instanceof DatabaseLockedException) {
            message = DatabaseLockedException.statusText(Path.of(((DatabaseLockedException) e).lockFile()));
        } else if (e instanceof DatabasePathNotDirectoryException) {
            // What C++ LevelDB reports when it cannot create the LOCK file inside the path.
            message = "IO error: " + Path.of(((DatabasePathNotDirectoryException) e).path(), "LOCK") + ": Not a directory";
        } else if (e instanceof DBOpenException) {
            message = e.getMessage();
        } else {
            message = "IO error: " + e.getMessage();
        }
        return new NativeDB.DBException(message, false, e);
    }

    @Override
    public String toString() {
        return "leveldbjni version " + VERSION + " (leveldbjni-compat on " + LevelDbFactory.factory + ")";
    }
}
