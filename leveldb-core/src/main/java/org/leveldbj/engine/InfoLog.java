package org.leveldbj.engine;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import org.iq80.leveldb.Env;
import org.iq80.leveldb.Logger;
import org.leveldbj.filename.FileNames;
import org.leveldbj.util.LockRank;
import org.leveldbj.util.OrderedLock;

/**
 * The database's human-readable info log: the application's {@link Logger} when one is set,
 * otherwise the {@code LOG} file in the database directory (the previous one renamed to
 * {@code LOG.old} when the database opens) unless the database is open read-only. Every message
 * also goes to the {@code System.Logger} of this class at debug level.
 *
 * <p>Thread safety: {@link #log} takes this object's lock (rank {@link LockRank#INFO_LOG}, the
 * last but one: logging takes none of the engine's locks).
 *
 * <p>Lifetime: {@link #close()} closes the file; later messages go to its {@code System.Logger} only.
 */
final class InfoLog implements AutoCloseable {
    /** This object's lock (doc/impl.md, Locks). */
    private final OrderedLock lock = new OrderedLock(LockRank.INFO_LOG);
    private static final System.Logger LOG = System.getLogger(InfoLog.class.getName());
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy/MM/dd-HH:mm:ss.SSSSSS");

    private final Logger logger;
    private Env.WritableFile file;

    private InfoLog(Logger logger, Env.WritableFile file) {
        this.logger = logger;
        this.file = file;
    }

    /**
     * Opens the info log of a database directory.
     *
     * @param env the environment
     * @param dbDir the database directory, which exists
     * @param logger the application's logger, or {@code null} for the LOG file
     * @return the info log
     */
    static InfoLog open(Env env, Path dbDir, Logger logger) {
        if (logger != null) {
            return new InfoLog(logger, null);
        }
        Path log = dbDir.resolve(FileNames.INFO_LOG);
        try {
            if (env.fileExists(log)) {
                env.renameFile(log, dbDir.resolve(FileNames.OLD_INFO_LOG));
            }
            return new InfoLog(null, env.newWritableFile(log));
        } catch (IOException e) {
            LOG.log(System.Logger.Level.DEBUG, () -> "cannot open info log " + log + ": " + e.toString());
            return new InfoLog(null, null);
        }
    }

    /**
     * The info log of a database opened read-only, which creates no file: the application's
     * logger, or the {@code System.Logger} only.
     *
     * @param logger the application's logger, or {@code null}
     * @return the info log
     */
    static InfoLog withoutFile(Logger logger) {
        return new InfoLog(logger, null);
    }

    /**
     * Logs a message.
     *
     * @param format a {@link String#format} pattern
     * @param args its arguments
     */
    void log(String format, Object... args) {
        lock.lock();
        try {
            String message = args.length == 0 ? format : format(format, args);
            LOG.log(System.Logger.Level.DEBUG, () -> message);
            if (logger != null) {
                logger.log(message);
            } else if (file != null) {
                String line = LocalDateTime.now().format(TIME) + " " + Thread.currentThread().getName() + " " + message + "\n";
                try {
                    file.append(ByteBuffer.wrap(line.getBytes(StandardCharsets.UTF_8)));
                    file.flush();
                } catch (IOException e) {
                    LOG.log(System.Logger.Level.DEBUG, () -> "info log write failed: " + e.toString());
                }
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Formats a message: {@code %s} and {@code %d} (the only conversions the engine's messages
     * use) without {@link String#format}'s parsing, which took a tenth of the time of opening
     * and closing a small database; any other conversion goes to {@link String#format}.
     */
    static String format(String format, Object... args) {
        StringBuilder sb = new StringBuilder(format.length() + 16 * args.length);
        int next = 0;
        for (int i = 0; i < format.length(); i++) {
            char c = format.charAt(i);
            if (c != '%') {
                sb.append(c);
                continue;
            }
            char conversion = i + 1 < format.length() ? format.charAt(i + 1) : 0;
            if ((conversion == 's' || conversion == 'd') && next < args.length) {
                sb.append(args[next++]);
                i++;
            } else if (conversion == '%') {
                sb.append('%');
                i++;
            } else {
                return String.format(format, args);
            }
        }
        return sb.toString();
    }

    @Override
    public void close() {
        lock.lock();
        try {
            if (file != null) {
                try {
                    file.close();
                } catch (IOException e) {
                    LOG.log(System.Logger.Level.DEBUG, () -> "info log close failed: " + e.toString());
                }
                file = null;
            }
        } finally {
            lock.unlock();
        }
    }
}
