package org.leveldbj.db;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.iq80.leveldb.DBException;
import org.iq80.leveldb.Env;
import org.iq80.leveldb.IOErrorException;
import org.iq80.leveldb.Options;
import org.leveldbj.compaction.CompactionStats;
import org.leveldbj.filename.FileNames;
import org.leveldbj.key.InternalKeyComparator;
import org.leveldbj.log.LogWriter;
import org.leveldbj.memtable.MemTable;
import org.leveldbj.table.TableOptions;
import org.leveldbj.version.TableSource;
import org.leveldbj.version.VersionSet;

/**
 * The state an open database shares between its parts (the write queue, the background work,
 * recovery, properties): settings, the lock, the memtables, the current log and the sticky
 * background error. Like C++ DBImpl's members, mutable fields are guarded by {@link #mutex}
 * unless marked otherwise.
 *
 * <p>Thread safety: see each field.
 *
 * <p>Lifetime: created by the factory's {@code open}, torn down by {@code DbImpl.close()}.
 */
final class DbState {
    final Options options;
    final Env env;
    final Path dir;
    /**
     * Whether the tables this database writes are named {@code .sst} rather than {@code .ldb},
     * decided once when it opens ({@link FileNames#writesSst}).
     */
    final boolean sstTableNames;
    final InternalKeyComparator icmp;
    final TableOptions tableOptions;
    final TableSource tables;
    final InfoLog infoLog;
    /** Opened read-only: nothing in the directory is written, renamed or deleted. */
    final boolean readOnly;
    final SnapshotList snapshots = new SnapshotList();

    /** The database lock (C++ mutex_). */
    final ReentrantLock mutex = new ReentrantLock();
    /** Signalled whenever background work finishes a step (C++ background_work_finished_signal_). */
    final Condition backgroundChanged = mutex.newCondition();
    final VersionSet versions;

    // Guarded by mutex; read without it only where noted.
    /** The memtable writes go to; the write-queue leader inserts into it without the lock. */
    MemTable mem;
    /** The memtable being flushed, or null; volatile so compactions can poll it cheaply. */
    volatile MemTable imm;
    /** The last sequence number in {@link #imm}. */
    long immLastSequence;
    /** The write-ahead log; only the write-queue leader appends, with the lock released. */
    LogWriter log;
    long logFileNumber;
    /**
     * The previous log, still open, while a crash could lose its unsynced tail and its memtable
     * may not yet be in a table; the next synced write syncs it first (so that no synced write
     * outlives an earlier write), then closes it. Owned by the write-queue leader.
     */
    LogWriter unsyncedPreviousLog;
    /**
     * Whether the directory entry of {@link #log} may not yet be durable; the next synced write
     * syncs the directory first. Owned by the write-queue leader.
     */
    boolean logDirectoryUnsynced;
    /** The first background error; every later write fails with it. */
    Throwable backgroundError;
    /** Set once close begins; volatile so running compactions see it. */
    volatile boolean shuttingDown;
    /**
     * What readers pin ({@link #pinReadView()}); replaced under the lock by
     * {@link #publishReadView()} whenever the memtable, the immutable memtable or the current
     * version changes, and {@code null} before recovery ends and after close.
     */
    private volatile ReadView readView;
    /** Table files being written, protected from the obsolete-file sweep. */
    final Set<Long> pendingOutputs = new HashSet<>();
    /** Compaction work per output level, for leveldb.stats. */
    final long[][] stats = new long[VersionSet.NUM_LEVELS][3];

    DbState(Options options, Env env, Path dir, boolean sstTableNames, InternalKeyComparator icmp,
            TableOptions tableOptions, TableSource tables, InfoLog infoLog) {
        this.options = options;
        this.sstTableNames = sstTableNames;
        this.env = env;
        this.dir = dir;
        this.icmp = icmp;
        this.tableOptions = tableOptions;
        this.tables = tables;
        this.infoLog = infoLog;
        this.readOnly = options.readOnly();
        this.versions = new VersionSet(env, dir, icmp, tables, options.maxFileSize(), mutex);
    }

    /**
     * Publishes a view of the memtable, the immutable memtable and the current version as they
     * are now, and drops the database's reference on the previous view. Requires: the lock.
     */
    void publishReadView() {
        assert mutex.isHeldByCurrentThread();
        ReadView old = readView;
        readView = mem == null ? null : new ReadView(mem, imm, versions.current());
        if (old != null) {
            old.unpin();
        }
    }

    /** Withdraws the published view, as the database closes. Requires: the lock. */
    void withdrawReadView() {
        assert mutex.isHeldByCurrentThread();
        ReadView old = readView;
        readView = null;
        if (old != null) {
            old.unpin();
        }
    }

    /**
     * Pins the published view without taking the lock.
     *
     * @return the view, to be {@linkplain ReadView#unpin() unpinned} once
     * @throws DBException ("database is closed") once the database has closed
     */
    ReadView pinReadView() {
        while (true) {
            ReadView v = readView;
            if (v == null) {
                throw new DBException(CursorIterator.DATABASE_CLOSED_MESSAGE);
            }
            if (v.tryPin()) {
                return v;
            }
            // Released by a newer view published meanwhile: read that one.
        }
    }

    /**
     * Adds work to a level's statistics. Requires: the lock.
     *
     * @param level the output level
     * @param s the work
     */
    void addStats(int level, CompactionStats s) {
        assert mutex.isHeldByCurrentThread();
        stats[level][0] += s.micros();
        stats[level][1] += s.bytesRead();
        stats[level][2] += s.bytesWritten();
    }

    /**
     * Records a background error if none is recorded yet and wakes waiters. Requires: the lock.
     *
     * @param error the error
     */
    void recordBackgroundError(Throwable error) {
        assert mutex.isHeldByCurrentThread();
        if (backgroundError == null) {
            backgroundError = error;
            infoLog.log("background error: %s", error);
            backgroundChanged.signalAll();
        }
    }

    /**
     * Fails when a background error was recorded. Requires: the lock.
     *
     * @throws DBException whose cause is the background error ({@link org.iq80.leveldb.IOErrorException}
     *     when that was an I/O failure)
     */
    void checkBackgroundError() {
        if (backgroundError != null) {
            String message = "background error: " + backgroundError;
            // The category of the first failure carries over (an I/O error stays one).
            throw backgroundError instanceof IOErrorException || backgroundError instanceof java.io.IOException
                    ? new IOErrorException(message, backgroundError)
                    : new DBException(message, backgroundError);
        }
    }
}
