package org.leveldbj.engine;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.nio.file.Path;
import java.util.concurrent.locks.Condition;
import org.iq80.leveldb.DBException;
import org.iq80.leveldb.Env;
import org.iq80.leveldb.IOErrorException;
import org.iq80.leveldb.Options;
import org.leveldbj.compaction.CompactionStats;
import org.leveldbj.filename.FileNames;
import org.leveldbj.key.InternalKeyComparator;
import org.leveldbj.memtable.MemTable;
import org.leveldbj.memtable.MemTableBudget;
import org.leveldbj.stats.BackgroundErrorEvent;
import org.leveldbj.stats.Counters;
import org.leveldbj.table.TableOptions;
import org.leveldbj.util.LockRank;
import org.leveldbj.util.OrderedLock;
import org.leveldbj.version.TableSource;
import org.leveldbj.version.VersionSet;

/**
 * The state an open database shares between its parts (the write queue, the background work,
 * recovery, properties): settings, the lock, the memtables and the view readers pin, the sticky
 * background error and the compaction statistics. Its mutable fields are private: the memtables
 * change only through {@link #installMemTable}, {@link #switchMemTable},
 * {@link #immutableFlushed} and {@link #releaseMemTables}, each of which keeps the published view
 * in step. The log files belong to {@link WriteAheadLog}, the pending outputs to
 * {@link ObsoleteFiles}.
 *
 * <p>Thread safety: mutable fields and methods marked {@code @GuardedBy("mutex")} require the
 * lock, which Error Prone's GuardedBy analysis checks at build time; the volatile fields say
 * who reads them without it.
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
    /** Value separation: writes large values to value files, reads them back. */
    final ValueLog valueLog;
    /** What the database counts for its statistics ({@code ExtendedDB.statistics()}). */
    final Counters counters;
    /**
     * This database's share of the write buffer budget it was opened with, or null; its
     * reports are made under the lock ({@link #memTableWritten} and the memtable changes).
     */
    final MemTableBudget.Member budget;
    /** What to do when the budget asks for a switch: set once while opening (BackgroundWork's). */
    volatile Runnable onBudgetAsk = () -> { };

    /** The database lock (C++ mutex_). */
    final OrderedLock mutex = new OrderedLock(LockRank.DATABASE);
    /** Signalled whenever background work finishes a step (C++ background_work_finished_signal_). */
    final Condition backgroundChanged = mutex.newCondition();
    final VersionSet versions;

    /** The memtable writes go to; the write-queue leader inserts into it with the lock released. */
    @GuardedBy("mutex")
    private MemTable mem;
    /**
     * The memtable being flushed, or null. Written under the lock; volatile so that a running
     * compaction can poll it without the lock (and then takes the lock to flush it).
     */
    private volatile MemTable imm;
    /** The last sequence number in {@link #imm}. */
    @GuardedBy("mutex")
    private long immLastSequence;
    /** Whether {@link #mem} holds writes made without the log ({@code WriteOptions.disableWal}). */
    @GuardedBy("mutex")
    private boolean memUnlogged;
    /** Whether {@link #imm} holds writes made without the log. */
    @GuardedBy("mutex")
    private boolean immUnlogged;
    /** The first background error; every later write fails with it. */
    @GuardedBy("mutex")
    private Throwable backgroundError;
    /** Set once close begins; volatile so running compactions see it without the lock. */
    volatile boolean shuttingDown;
    /**
     * What readers pin ({@link #pinReadView()}); replaced under the lock by
     * {@link #publishReadView()} whenever the memtable, the immutable memtable or the current
     * version changes, and {@code null} before recovery ends and after close. Read without the
     * lock (volatile).
     */
    private volatile ReadView readView;
    /**
     * Compaction work per output level (micros, bytes read, bytes written, steps), for
     * leveldb.stats and the leveldbj properties; memtable flushes count as work on their level.
     */
    @GuardedBy("mutex")
    private final long[][] stats = new long[VersionSet.NUM_LEVELS][4];

    DbState(Options options, Env env, Path dir, boolean sstTableNames, InternalKeyComparator icmp,
            TableOptions tableOptions, TableSource tables, InfoLog infoLog, Counters counters) {
        this.options = options;
        this.counters = counters;
        this.sstTableNames = sstTableNames;
        this.env = env;
        this.dir = dir;
        this.icmp = icmp;
        this.tableOptions = tableOptions;
        this.tables = tables;
        this.infoLog = infoLog;
        this.readOnly = options.readOnly();
        this.versions = new VersionSet(env, dir, icmp, tables, options.maxFileSize(), mutex);
        this.valueLog = new ValueLog(env, dir, readOnly ? 0 : options.valueThreshold(), versions::newFileNumber,
                options.maxFileSize());
        this.budget = !readOnly && options.writeBufferBudget() instanceof MemTableBudget shared
                ? shared.join(dir.toString(), () -> onBudgetAsk.run()) : null;
    }

    /** Reports the memtable's memory to the budget after writes to it (may ask a database to switch). */
    @GuardedBy("mutex")
    void memTableWritten() {
        if (budget != null && mem != null) {
            budget.memTableIs(mem.approximateMemoryUsage());
        }
    }

    /** @return whether the budget asked this database to switch its memtable. Any thread. */
    boolean budgetAsks() {
        return budget != null && budget.isAsked();
    }

    /** Forgets the budget's ask: the memtable is empty, nothing to flush. */
    @GuardedBy("mutex")
    void budgetAnswered() {
        if (budget != null) {
            budget.answered();
        }
    }

    /** @return the memtable writes go to (null before recovery and after close) */
    @GuardedBy("mutex")
    MemTable mem() {
        return mem;
    }

    /**
     * The memtable being flushed. Needs no lock: a caller that acts on it takes the lock and
     * reads it again.
     *
     * @return the immutable memtable, or null
     */
    MemTable imm() {
        return imm;
    }

    /** @return the last sequence number in the immutable memtable */
    @GuardedBy("mutex")
    long immLastSequence() {
        return immLastSequence;
    }

    /**
     * Gives the database its first memtable, as recovery ends (the caller publishes the view
     * once the version is in place).
     *
     * @param first the memtable
     */
    @GuardedBy("mutex")
    void installMemTable(MemTable first) {
        assert mem == null && imm == null;
        mem = first;
    }

    /**
     * Makes the full memtable the immutable one, to be flushed, and starts a new one; publishes
     * the view. Requires: no immutable memtable.
     *
     * @param lastSequence the last sequence number in the memtable that becomes immutable
     */
    @GuardedBy("mutex")
    void switchMemTable(long lastSequence) {
        assert imm == null;
        imm = mem;
        immLastSequence = lastSequence;
        immUnlogged = memUnlogged;
        memUnlogged = false;
        mem = new MemTable(icmp.userComparator());
        if (budget != null) {
            budget.switched();
        }
        publishReadView();
    }

    /** Drops the immutable memtable once a table holds it, and publishes the view. */
    @GuardedBy("mutex")
    void immutableFlushed() {
        MemTable flushed = imm;
        imm = null;
        immUnlogged = false;
        publishReadView();
        flushed.unref();
        if (budget != null) {
            budget.flushed();
        }
    }

    /** Records that the memtable now holds a write made without the log. */
    @GuardedBy("mutex")
    void markUnlogged() {
        memUnlogged = true;
    }

    /** @return whether a memtable holds writes made without the log (a close must flush them) */
    @GuardedBy("mutex")
    boolean hasUnloggedWrites() {
        return memUnlogged || immUnlogged;
    }

    /** Drops the database's references on both memtables, as it closes (after the view is withdrawn). */
    @GuardedBy("mutex")
    void releaseMemTables() {
        if (budget != null) {
            budget.leave();
        }
        if (mem != null) {
            mem.unref();
            mem = null;
        }
        if (imm != null) {
            imm.unref();
            imm = null;
        }
    }

    /**
     * Publishes a view of the memtable, the immutable memtable and the current version as they
     * are now, and drops the database's reference on the previous view.
     */
    @GuardedBy("mutex")
    void publishReadView() {
        ReadView old = readView;
        readView = mem == null ? null : new ReadView(mem, imm, versions.current());
        if (old != null) {
            old.unpin();
        }
    }

    /** Withdraws the published view, as the database closes. */
    @GuardedBy("mutex")
    void withdrawReadView() {
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
     * Adds work to a level's statistics.
     *
     * @param level the output level
     * @param s the work
     */
    @GuardedBy("mutex")
    void addStats(int level, CompactionStats s) {
        stats[level][0] += s.micros();
        stats[level][1] += s.bytesRead();
        stats[level][2] += s.bytesWritten();
        stats[level][3]++;
    }

    /**
     * A level's compaction statistics.
     *
     * @param level the output level
     * @return a copy: micros spent, bytes read, bytes written, steps
     */
    @GuardedBy("mutex")
    long[] stats(int level) {
        return stats[level].clone();
    }

    /**
     * Records a background error if none is recorded yet and wakes waiters.
     *
     * @param error the error
     */
    @GuardedBy("mutex")
    void recordBackgroundError(Throwable error) {
        if (backgroundError == null) {
            backgroundError = error;
            infoLog.log("background error: %s", error);
            BackgroundErrorEvent.emit(dir.toString(), error);
            backgroundChanged.signalAll();
        }
    }

    /** @return whether a background error was recorded (background work stops then) */
    @GuardedBy("mutex")
    boolean hasBackgroundError() {
        return backgroundError != null;
    }

    /**
     * Fails when a background error was recorded.
     *
     * @throws DBException whose cause is the background error ({@link org.iq80.leveldb.IOErrorException}
     *     when that was an I/O failure)
     */
    @GuardedBy("mutex")
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
