package org.leveldbj.engine;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.io.IOException;
import java.nio.file.Path;
import org.iq80.leveldb.IOErrorException;
import org.leveldbj.filename.FileNames;
import org.leveldbj.log.LogWriter;
import org.leveldbj.util.LockRank;
import org.leveldbj.util.OrderedLock;

/**
 * The database's write-ahead log files: the current log, its number, and the previous log while
 * it may still need a sync (C++ DBImpl's logfile_ and logfile_number_, plus what our deferred
 * sync adds).
 *
 * <p>Deferred sync: switching to a new log neither syncs nor closes the old one, which would put
 * an fsync of megabytes on the path of writes that never asked for one. Instead the next synced
 * write syncs the previous log and the directory entry of the new one before its own record
 * ({@link #prepare}), so that no synced write outlives an earlier write; then the previous log is
 * closed ({@link #committed}). With no synced write, the flush of the old memtable makes the old
 * log unneeded.
 *
 * <p>Thread safety: the fields are guarded by this object's lock (rank
 * {@link LockRank#WRITE_AHEAD_LOG}; every method takes it, and Error Prone's GuardedBy analysis
 * verifies it). Most callers also hold the database lock, so it is rarely contended; it makes this class's rules checkable on their own. The
 * write-queue leader appends to and syncs the writers {@link #prepare} hands it with both
 * released: only the leader does, and only the leader switches logs.
 *
 * <p>Lifetime: {@link #start} at the end of recovery, {@link #close} when the database closes.
 */
final class WriteAheadLog {
    /** This object's lock (doc/impl.md, Locks). */
    private final OrderedLock lock = new OrderedLock(LockRank.WRITE_AHEAD_LOG);
    /** What the leader needs to append one group: the log, and what to sync before it. */
    record Append(LogWriter log, LogWriter previousToSync, boolean syncDirectory) {
        /** @return whether {@link #committed} has anything to record after this append */
        boolean syncsSomethingElse() {
            return previousToSync != null || syncDirectory;
        }
    }

    private final DbState s;
    @GuardedBy("lock")
    private LogWriter current;
    @GuardedBy("lock")
    private long number;
    /** The previous log, still open while a crash could lose its unsynced tail. */
    @GuardedBy("lock")
    private LogWriter unsyncedPrevious;
    /** Whether the directory entry of {@link #current} may not be durable yet. */
    @GuardedBy("lock")
    private boolean directoryUnsynced;
    /** The append of a write that syncs nothing else, made once per log rather than per write. */
    @GuardedBy("lock")
    private Append plain;

    WriteAheadLog(DbState s) {
        this.s = s;
    }

    /**
     * Creates the first log of an open database, without syncing the directory: the first
     * synced write syncs it ({@link #prepare}), unless recovery says it did
     * ({@link #directorySynced}).
     *
     * @param logNumber the new log's number
     * @throws IOException if the log cannot be created
     */
    void start(long logNumber) throws IOException {
        lock.lock();
        try {
            current = new LogWriter(s.env.newWritableFile(path(logNumber)));
            number = logNumber;
            plain = new Append(current, null, false);
            directoryUnsynced = true;
        } finally {
            lock.unlock();
        }
    }

    /** Records that the directory was synced after the current log was created. */
    void directorySynced() {
        lock.lock();
        try {
            directoryUnsynced = false;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Closes the current log after a failed open, which then deletes the file.
     */
    void abandon() {
        lock.lock();
        try {
            closeQuietly(current);
            current = null;
            plain = null;
        } finally {
            lock.unlock();
        }
    }

    /** @return the current log's number (records after the last flush are in it) */
    long number() {
        lock.lock();
        try {
            return number;
        } finally {
            lock.unlock();
        }
    }

    /** @return the current log's path */
    Path currentPath() {
        lock.lock();
        try {
            return path(number);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Starts a new log for a new memtable; the current one becomes the previous log, synced by
     * the next synced write (a previous log older than that is covered by a table by now and is
     * closed).
     *
     * @param logNumber the new log's number
     * @throws IOErrorException if the log cannot be created (the number is then given back)
     */
    void switchTo(long logNumber) {
        lock.lock();
        try {
            LogWriter log;
            try {
                log = new LogWriter(s.env.newWritableFile(path(logNumber)));
            } catch (IOException e) {
                s.versions.reuseFileNumber(logNumber);
                throw new IOErrorException("IO error: cannot create log " + logNumber + ": " + e.getMessage(), e);
            }
            if (unsyncedPrevious != null) {
                closeQuietly(unsyncedPrevious);
            }
            unsyncedPrevious = current;
            directoryUnsynced = true;
            current = log;
            number = logNumber;
            plain = new Append(current, null, false);
        } finally {
            lock.unlock();
        }
    }

    /**
     * What the leader appends to, and for a synced write what it syncs first.
     *
     * @param sync whether the group asks for a sync
     * @return the log and, when {@code sync}, the previous log and whether the directory needs a sync
     */
    Append prepare(boolean sync) {
        lock.lock();
        try {
            if (!sync || unsyncedPrevious == null && !directoryUnsynced) {
                return plain;
            }
            return new Append(current, unsyncedPrevious, directoryUnsynced);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Records that a prepared append succeeded: what it synced needs no sync again, and a
     * synced previous log is closed. Needed only when {@link Append#syncsSomethingElse()}.
     *
     * @param done the prepared append
     */
    void committed(Append done) {
        lock.lock();
        try {
            if (done.previousToSync() != null) {
                if (unsyncedPrevious == done.previousToSync()) {
                    unsyncedPrevious = null;
                }
                closeQuietly(done.previousToSync());
            }
            if (done.syncDirectory()) {
                directoryUnsynced = false;
            }
        } finally {
            lock.unlock();
        }
    }

    /** Closes both logs, as the database closes. */
    void close() {
        lock.lock();
        try {
            closeQuietly(current);
            current = null;
            plain = null;
            closeQuietly(unsyncedPrevious);
            unsyncedPrevious = null;
        } finally {
            lock.unlock();
        }
    }

    private Path path(long logNumber) {
        return s.dir.resolve(FileNames.logFileName(logNumber));
    }

    private void closeQuietly(LogWriter log) {
        if (log == null) {
            return;
        }
        try {
            log.close();
        } catch (IOException e) {
            s.infoLog.log("closing log failed: %s", e);
        }
    }
}
