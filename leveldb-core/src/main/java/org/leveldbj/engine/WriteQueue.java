package org.leveldbj.engine;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;
import org.iq80.leveldb.DBException;
import org.iq80.leveldb.IOErrorException;
import org.leveldbj.comparator.ComparatorFailure;
import org.iq80.leveldb.Metric;
import org.leveldbj.memtable.MemTable;
import org.leveldbj.stats.StallCause;
import org.leveldbj.stats.StallWatch;
import org.leveldbj.version.VersionSet;

/**
 * The write path with group commit, as in C++ LevelDB: writers queue up; the writer at the head
 * (the leader) makes room in the memtable, merges the batches queued behind it (up to about
 * 1 MiB, less when its own batch is small, and never a sync batch into a group that does not
 * sync), appends the group to the log as one record (one fsync if any writer asked for sync),
 * inserts it into the memtable, publishes the new last sequence number and wakes the writers
 * it served.
 *
 * <p>Making room: each write is delayed 1 ms once level 0 holds
 * {@link VersionSet#L0_SLOWDOWN_WRITES_TRIGGER} files; writes wait while the previous memtable is
 * still being flushed or level 0 holds {@link VersionSet#L0_STOP_WRITES_TRIGGER} files; a full
 * memtable is switched for a new one with a new log, and the old one is flushed in the
 * background.
 *
 * <p>Thread safety: safe for concurrent use. The queue is guarded by the database lock; the
 * leader appends to the log and inserts into the memtable with the lock released, which is safe
 * because only the leader touches them and only the leader switches them.
 */
final class WriteQueue {
    private static final int MAX_GROUP_BYTES = 1 << 20;
    private static final int SMALL_BATCH_BYTES = 128 << 10;

    /** Used by the leader only, one leader at a time. */
    private final MemTableInserter inserter = new MemTableInserter();

    private final DbState s;
    private final WriteAheadLog wal;
    private final BackgroundWork background;
    @GuardedBy("s.mutex")
    private final ArrayDeque<Writer> writers = new ArrayDeque<>();
    /** Used by the leader only. */
    private final WriteBatchImpl group = new WriteBatchImpl();
    /** Times the leader's stalls; used by the leader only, with the lock held. */
    private final StallWatch stalls;

    /** A queued write. Fields guarded by the database lock. */
    private static final class Writer {
        final WriteBatchImpl batch;
        final boolean sync;
        /** Whether the batch skips the log ({@code WriteOptions.disableWal}). */
        final boolean unlogged;
        /** A transaction's check, run by this writer as leader; {@code null} for plain writes. */
        final ConflictCheck check;
        final Condition wakeUp;
        boolean done;
        RuntimeException error;

        Writer(WriteBatchImpl batch, boolean sync, boolean unlogged, ConflictCheck check, Condition wakeUp) {
            this.batch = batch;
            this.sync = sync;
            this.unlogged = unlogged;
            this.check = check;
            this.wakeUp = wakeUp;
        }
    }

    WriteQueue(DbState s, WriteAheadLog wal, BackgroundWork background) {
        this.s = s;
        this.wal = wal;
        this.background = background;
        this.stalls = new StallWatch(s.counters, s.dir.toString());
    }

    /**
     * Writes a batch. With a {@code null} batch, only forces the memtable to be switched (used to
     * flush it before a manual compaction).
     *
     * @param batch the batch, or {@code null}
     * @param sync whether the log must be synced before returning
     * @param unlogged whether the batch skips the log (only the memtable holds it until a flush)
     * @throws DBException if the write fails or a background error was recorded
     */
    void write(WriteBatchImpl batch, boolean sync, boolean unlogged) {
        write(batch, sync, unlogged, null);
    }

    /**
     * Writes a batch if a check passes: the check runs when this writer leads the queue, after
     * every earlier write was applied and before any later one, with the database lock
     * released (no write can be applied while the leader checks, and reads take no lock). A
     * checked batch leads its group: it is never merged into the group of an earlier writer,
     * whose batch would come between its check and its write.
     *
     * @param batch the batch
     * @param sync whether the log must be synced before returning
     * @param unlogged whether the batch skips the log
     * @param check run before the batch is numbered; what it throws fails this write only (it
     *     is not a background error); {@code null} for none
     * @throws DBException if the write fails, or what {@code check} throws
     */
    void write(WriteBatchImpl batch, boolean sync, boolean unlogged, ConflictCheck check) {
        assert !(sync && unlogged);
        assert check == null || batch != null;
        Writer w = new Writer(batch, sync, unlogged, check, s.mutex.newCondition());
        s.mutex.lock();
        try {
            writers.addLast(w);
            while (!w.done && w != writers.peekFirst()) {
                w.wakeUp.awaitUninterruptibly();
            }
            if (w.done) {
                if (w.error != null) {
                    throw w.error;
                }
                return;
            }
            Writer last = w;
            RuntimeException error = null;
            try {
                makeRoomForWrite(batch == null);
                if (check != null) {
                    s.mutex.unlock();
                    try {
                        check.run(s);
                    } finally {
                        s.mutex.lock();
                    }
                }
                if (batch != null) {
                    last = commitGroup(w);
                }
            } catch (RuntimeException e) {
                error = e;
            }
            while (true) {
                Writer ready = writers.pollFirst();
                if (ready != w) {
                    ready.error = error;
                    ready.done = true;
                    ready.wakeUp.signal();
                }
                if (ready == last) {
                    break;
                }
            }
            if (!writers.isEmpty()) {
                writers.peekFirst().wakeUp.signal();
            }
            if (error != null) {
                throw error;
            }
        } finally {
            s.mutex.unlock();
        }
    }

    /**
     * Runs an action as the leader of the queue: no write starts until it returns (an
     * ingestion). The action runs with the lock held and may release it (the writers queued
     * meanwhile wait behind it); it is never grouped with writes.
     *
     * @param action what to run
     * @throws RuntimeException whatever the action throws
     */
    void runAlone(Runnable action) {
        Writer w = new Writer(null, false, false, null, s.mutex.newCondition());
        s.mutex.lock();
        try {
            writers.addLast(w);
            while (w != writers.peekFirst()) {
                w.wakeUp.awaitUninterruptibly();
            }
            try {
                action.run();
            } finally {
                Writer self = writers.pollFirst();
                assert self == w;
                if (!writers.isEmpty()) {
                    writers.peekFirst().wakeUp.signal();
                }
            }
        } finally {
            s.mutex.unlock();
        }
    }

    /**
     * Switches a memtable that holds anything for a new one (its flush is scheduled), waiting
     * first for a flush in progress. Requires: the lock, held by the leader (inside
     * {@link #runAlone}).
     */
    @SuppressWarnings("GuardedBy") // held by the caller through its own reference: asserted
    void switchMemTableAsLeader() {
        assert s.mutex.isHeldByCurrentThread();
        makeRoomForWrite(true);
    }

    /** Signals the writer at the head of the queue, if any. */
    @SuppressWarnings("GuardedBy") // held by the caller through its own reference: asserted
    void wakeLeader() {
        assert s.mutex.isHeldByCurrentThread();
        Writer head = writers.peekFirst();
        if (head != null) {
            head.wakeUp.signal();
        }
    }

    /** Tells whether no writer is queued. */
    @SuppressWarnings("GuardedBy") // held by the caller through its own reference: asserted
    boolean isIdle() {
        assert s.mutex.isHeldByCurrentThread();
        return writers.isEmpty();
    }

    /** Logs and applies the leader's group; returns the last writer served. */
    @GuardedBy("s.mutex")
    private Writer commitGroup(Writer leader) {
        Writer last = leader;
        WriteBatchImpl batch = leader.batch;
        boolean sync = leader.sync;
        long size = batch.approximateSize();
        long maxSize = size <= SMALL_BATCH_BYTES ? size + SMALL_BATCH_BYTES : MAX_GROUP_BYTES;
        boolean merged = false;
        for (Writer next : writers) {
            if (next == leader) {
                continue;
            }
            if (next.batch == null || next.check != null || (next.sync && !leader.sync)
                    || next.unlogged != leader.unlogged) {
                break;
            }
            size += next.batch.approximateSize() - WriteBatchImpl.HEADER_SIZE;
            if (size > maxSize) {
                break;
            }
            if (!merged) {
                group.clear();
                group.append(batch);
                batch = group;
                merged = true;
            }
            group.append(next.batch);
            last = next;
        }
        long lastSequence = s.versions.lastSequence();
        batch.setSequence(lastSequence + 1);
        if (merged) {
            // The leader's own batch comes first in the group: its caller may ask its number.
            leader.batch.setSequence(lastSequence + 1);
        }
        long newLast = lastSequence + batch.size();
        boolean unlogged = leader.unlogged;
        ValueLog values = s.valueLog;
        WriteAheadLog.Append append = unlogged ? null : wal.prepare(sync);
        MemTable mem = s.mem();
        if (unlogged) {
            // Marked before the insertion: a close that follows this write flushes the memtable.
            s.markUnlogged();
        }
        s.mutex.unlock();
        Exception failure = null;
        long logBytes = 0;
        try {
            // Large values go to the value file first: a log record never names a value the
            // value file does not hold, and a synced write syncs the value file before the log.
            batch = values.separate(batch);
            if (sync) {
                values.sync();
            }
            if (!unlogged) {
                if (append.previousToSync() != null) {
                    append.previousToSync().sync();
                }
                if (append.syncDirectory()) {
                    s.env.syncDir(s.dir);
                }
                long before = append.log().length();
                append.log().addRecord(batch.contents());
                logBytes = append.log().length() - before;
                if (sync) {
                    append.log().sync();
                }
            }
            inserter.insert(batch, mem);
        } catch (IOException | RuntimeException e) {
            failure = e;
        } finally {
            values.releaseSeparated();
            s.mutex.lock();
        }
        if (failure != null) {
            // The log (or the memtable) is in an unknown state: no later write may use it.
            DBException e = failure instanceof ComparatorFailure cf
                    ? cf.duringWrite()
                    : new IOErrorException(ioErrorMessage(wal.currentPath(), failure), failure);
            s.recordBackgroundError(e);
            if (merged) {
                group.clear();
            }
            throw e;
        }
        s.versions.setLastSequence(newLast);
        int deletions = inserter.deletions();
        s.counters.add(Metric.LOG_BYTES_WRITTEN, logBytes);
        s.counters.add(Metric.KEYS_WRITTEN, batch.size() - deletions);
        s.counters.add(Metric.KEYS_DELETED, deletions);
        s.memTableWritten();
        if (append != null && append.syncsSomethingElse()) {
            wal.committed(append);
        }
        if (merged) {
            group.clear();
        }
        return last;
    }

    /**
     * Words an I/O failure on a file as C++ LevelDB's status does, naming the file once (the
     * environments' messages often name it already).
     *
     * @param file the file
     * @param failure what failed
     * @return {@code "IO error: <file>: <what>"}
     */
    static String ioErrorMessage(Path file, Throwable failure) {
        String message = String.valueOf(failure.getMessage());
        return "IO error: " + (message.contains(file.toString()) ? message : file + ": " + message);
    }

    /** C++ MakeRoomForWrite. Requires: the lock, held by the leader. */
    @GuardedBy("s.mutex")
    private void makeRoomForWrite(boolean force) {
        assert s.mutex.isHeldByCurrentThread();
        try {
            makeRoom(force);
        } finally {
            stalls.end();
        }
    }

    /** {@link #makeRoomForWrite}, each wait noted in {@link #stalls}. */
    @GuardedBy("s.mutex")
    private void makeRoom(boolean force) {
        boolean allowDelay = !force;
        while (true) {
            s.checkBackgroundError();
            if (s.shuttingDown) {
                throw new DBException("database is closed");
            }
            int level0 = s.versions.current().numFiles(0);
            if (allowDelay && level0 >= VersionSet.L0_SLOWDOWN_WRITES_TRIGGER) {
                // Spread the wait for level-0 compaction over many writes rather than stopping
                // one write for seconds.
                stalls.waiting(StallCause.LEVEL0_SLOWDOWN);
                s.mutex.unlock();
                try {
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
                } finally {
                    s.mutex.lock();
                }
                allowDelay = false;
            } else if (!force && s.mem().approximateMemoryUsage() <= s.options.writeBufferSize()
                    && !switchForBudget()) {
                return;
            } else if (s.imm() != null) {
                s.infoLog.log("Current memtable full; waiting...");
                stalls.waiting(StallCause.MEMTABLE);
                background.awaitChange();
            } else if (level0 >= VersionSet.L0_STOP_WRITES_TRIGGER) {
                s.infoLog.log("Too many L0 files; waiting...");
                stalls.waiting(StallCause.LEVEL0_STOP);
                background.awaitChange();
            } else if (force && s.mem().isEmpty()) {
                return;
            } else {
                switchMemTable();
                force = false;
            }
        }
    }

    /**
     * Whether the write buffer budget asked for a switch that can happen now: the memtable holds
     * something and none is being flushed (a write never waits for the budget).
     */
    @GuardedBy("s.mutex")
    private boolean switchForBudget() {
        if (!s.budgetAsks() || s.imm() != null) {
            return false;
        }
        if (s.mem().isEmpty()) {
            s.budgetAnswered();
            return false;
        }
        return true;
    }

    /**
     * Switches the memtable for the write buffer budget when no write is under way (so no
     * leader is appending to the log or inserting into the memtable), for a database the budget
     * asked while it takes no writes; a busy one switches at its next write. Requires: the lock.
     *
     * @return whether it switched: the background step then flushes
     */
    @SuppressWarnings("GuardedBy") // held by the caller through its own reference: asserted
    boolean switchIfIdle() {
        assert s.mutex.isHeldByCurrentThread();
        if (!writers.isEmpty() || s.shuttingDown || !switchForBudget()) {
            return false;
        }
        switchMemTable();
        return true;
    }

    /**
     * Replaces the full memtable by a new one writing to a new log, and schedules the flush of
     * the old one. Requires: no immutable memtable.
     */
    @GuardedBy("s.mutex")
    private void switchMemTable() {
        assert s.imm() == null;
        wal.switchTo(s.versions.newFileNumber());
        s.switchMemTable(s.versions.lastSequence());
        background.maybeSchedule();
    }
}
