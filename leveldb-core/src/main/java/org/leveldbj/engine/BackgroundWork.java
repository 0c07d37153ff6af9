package org.leveldbj.engine;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.iq80.leveldb.DBException;
import org.iq80.leveldb.IOErrorException;
import org.leveldbj.background.Lane;
import org.leveldbj.background.Pool;
import org.leveldbj.compaction.Compaction;
import org.leveldbj.compaction.CompactionJob;
import org.leveldbj.compaction.CompactionPicker;
import org.leveldbj.compaction.CompactionStats;
import org.leveldbj.stats.CompactionEvent;
import org.leveldbj.stats.CompactionReason;
import org.leveldbj.table.TableReadOptions;
import org.leveldbj.version.FileMetaData;

/**
 * The database's background steps and what decides them (C++ MaybeScheduleCompaction and
 * BackgroundCompaction): a step flushes the immutable memtable ({@link MemTableFlush}) when
 * there is one, else runs the manual compaction in progress, else the compaction the picker
 * chooses (or a trivial move), then sweeps obsolete files ({@link ObsoleteFiles}). It also
 * holds the manual-compaction loop and the suspension of automatic compactions.
 *
 * <p>Threads: steps run on a {@link Pool} shared with other databases (the one the options
 * name, else the process's default pool), through this database's {@link Lane}: one step at a
 * time, so the thread running a step is still the only one applying version edits and deleting
 * files. A step that compacts lets other databases' waiting flushes run on its thread between
 * entries ({@link Lane#help()}).
 *
 * <p>Errors: a failure of background work is recorded as the database's background error
 * (sticky: every later write fails with it) and stops further background work.
 *
 * <p>Thread safety: every method but {@link #shutDown()} requires the database lock: the build
 * checks the callers of those marked {@code @GuardedBy}, and the ones other parts call assert
 * it. A step releases the lock for I/O.
 *
 * <p>Lifetime: {@link #shutDown()} takes the database out of its pool: drops its waiting step
 * and waits for the running one; the pool's threads go on serving other databases.
 */
final class BackgroundWork {
    private final DbState s;
    private final MemTableFlush flush;
    private final ObsoleteFiles obsolete;
    private final Lane lane;
    private final CompactionJob job;
    /** The application's compaction filter, read once at open; {@code null} for none. */
    private final org.iq80.leveldb.CompactionFilter compactionFilter;

    @GuardedBy("s.mutex")
    private boolean scheduled;
    /** Sweeps asked for by {@link #sweepObsoleteFiles()}, and those done. */
    @GuardedBy("s.mutex")
    private long sweepsAsked;
    @GuardedBy("s.mutex")
    private long sweepsDone;
    /** A sweep is asked for and not yet done (read by the pool without the lock). */
    private volatile boolean sweepWanted;
    /** Switches the memtable for the write buffer budget when no write is under way (the write queue's). */
    private volatile java.util.function.BooleanSupplier idleSwitch = () -> false;
    /** How many background steps were ever scheduled. */
    @GuardedBy("s.mutex")
    private long stepsScheduled;
    @GuardedBy("s.mutex")
    private int suspensions;
    @GuardedBy("s.mutex")
    private ManualCompaction manual;

    /** A manual compaction of one level in progress; begin moves forward as steps finish. */
    private static final class ManualCompaction {
        final int level;
        byte[] begin;
        final byte[] end;
        boolean done;

        /** Whether the level's files are rewritten in place rather than compacted into the next. */
        final boolean inPlace;
        /** For a rewrite in place: the files wholly before this key are left alone ({@code null}: none). */
        final byte[] rangeBegin;

        ManualCompaction(int level, byte[] begin, byte[] end, boolean inPlace) {
            this(level, begin, end, inPlace, null);
        }

        ManualCompaction(int level, byte[] begin, byte[] end, boolean inPlace, byte[] rangeBegin) {
            this.level = level;
            this.begin = begin;
            this.end = end;
            this.inPlace = inPlace;
            this.rangeBegin = rangeBegin;
        }
    }

    /** Work that must run as a background step, alone with the version (an ingestion's commit). */
    @FunctionalInterface
    interface StepTask {
        /**
         * Runs with the database lock held, as the only step; may release the lock for I/O.
         *
         * @throws IOException if it fails (recorded as the background error)
         */
        void run() throws IOException;
    }

    /** A {@link StepTask} handed to {@link #runInStep}, and how it went. Guarded by the lock. */
    private static final class PendingTask {
        final StepTask task;
        boolean started;
        boolean done;
        Throwable failure;

        PendingTask(StepTask task) {
            this.task = task;
        }
    }

    @GuardedBy("s.mutex")
    private PendingTask pending;
    /**
     * The level the running compaction writes its outputs to, -1 when none runs: a flush that
     * runs inside it must not place its table there (see {@link MemTableFlush#flushImmutable(int)}).
     */
    @GuardedBy("s.mutex")
    private int compactingInto = -1;

    /** The references compactions made for moved values, until their edit is applied. The running step only. */
    private final List<byte[]> relocated = new ArrayList<>();

    /**
     * @param s the database
     * @param flush its memtable flushes
     * @param obsolete its obsolete files
     * @param pool the threads to run its steps on
     * @throws IllegalStateException if the pool is closed
     */
    BackgroundWork(DbState s, MemTableFlush flush, ObsoleteFiles obsolete, Pool pool) {
        this.s = s;
        this.flush = flush;
        this.obsolete = obsolete;
        this.lane = pool.register(s.dir.toString(), this::backgroundCall, this::urgent);
        this.compactionFilter = s.options.compactionFilter();
        if (compactionFilter != null) {
            s.infoLog.log("Compaction filter: %s", compactionFilter.name());
        }
        TableReadOptions compactionReads = new TableReadOptions(s.options.paranoidChecks(), false);
        this.job = new CompactionJob(s.env, s.dir, s.sstTableNames, s.versions, s.tableOptions, compactionReads,
                new CompactionJob.Context() {
                    @Override
                    public long newOutputFileNumber() {
                        s.mutex.lock();
                        try {
                            return obsolete.newPendingOutput();
                        } finally {
                            s.mutex.unlock();
                        }
                    }

                    @Override
                    public long maybeFlushImmutable() {
                        // Other databases' waiting flushes first: they may have waited longer.
                        long nanos = lane.help();
                        if (s.imm() != null) {
                            long start = System.nanoTime();
                            s.mutex.lock();
                            try {
                                if (s.imm() != null && !s.shuttingDown) {
                                    flushInsideCompaction();
                                    s.backgroundChanged.signalAll();
                                }
                                nanos += System.nanoTime() - start;
                            } catch (IOException e) {
                                throw new IOErrorException("IO error: " + e.getMessage(), e);
                            } finally {
                                s.mutex.unlock();
                            }
                        }
                        return nanos;
                    }

                    @Override
                    public boolean shuttingDown() {
                        return s.shuttingDown;
                    }

                    @Override
                    public byte[] inline(ByteBuffer reference) {
                        return s.valueLog.inlining() ? s.valueLog.read(reference).array() : null;
                    }

                    @Override
                    public org.iq80.leveldb.CompactionFilter filter() {
                        return compactionFilter;
                    }

                    @Override
                    public long newestSnapshot() {
                        return s.snapshots.newest();
                    }

                    @Override
                    public byte[] readSeparated(ByteBuffer reference) {
                        return s.valueLog.read(reference).array();
                    }

                    @Override
                    public byte[] storeReplacement(ByteBuffer internalKey, byte[] value) {
                        if (s.valueLog.inlining() || !s.valueLog.separates(value.length)) {
                            return null;
                        }
                        int keyLength = internalKey.remaining() - org.leveldbj.key.InternalKeys.TRAILER_SIZE;
                        byte[] key = new byte[keyLength];
                        internalKey.get(internalKey.position(), key);
                        try {
                            byte[] reference = s.valueLog.append(key, 0, keyLength, value, 0, value.length);
                            relocated.add(reference); // synced before the edit, released after it
                            return reference;
                        } catch (IOException e) {
                            throw new IOErrorException("IO error: writing a value the compaction filter replaced: "
                                    + e.getMessage(), e);
                        }
                    }

                    @Override
                    public byte[] relocate(ByteBuffer internalKey, ByteBuffer reference) {
                        try {
                            return s.valueLog.relocate(internalKey, reference, relocated);
                        } catch (IOException e) {
                            throw new IOErrorException("IO error: moving a value out of a reclaimed value file: "
                                    + e.getMessage(), e);
                        }
                    }
                });
    }

    /** @return the lane this database's steps run through */
    Lane lane() {
        return lane;
    }

    /**
     * Whether the next step is urgent: a flush, a switch and flush the write buffer budget
     * asked for, or a sweep a caller waits for. Any thread, no lock.
     */
    private boolean urgent() {
        return s.imm() != null || sweepWanted || s.budgetAsks();
    }

    /**
     * Names how a background step switches the memtable for the write buffer budget. Set once,
     * while opening.
     *
     * @param switchIfIdle the write queue's switch, which declines while a write is under way
     */
    void useIdleSwitch(java.util.function.BooleanSupplier switchIfIdle) {
        this.idleSwitch = switchIfIdle;
    }

    /**
     * The write buffer budget asked this database to switch its memtable: a step will, unless a
     * write does first. Any thread, with any database's lock held (the step is asked of the
     * pool, whose lock ranks after every database's).
     */
    void budgetAsked() {
        lane.schedule();
    }

    /** Waits until background work signals progress. Requires: the lock. */
    void awaitChange() {
        assert s.mutex.isHeldByCurrentThread();
        s.backgroundChanged.awaitUninterruptibly();
    }

    /** Schedules a background step if one is needed and none is scheduled. Requires: the lock. */
    @SuppressWarnings("GuardedBy") // held by the caller through its own reference: asserted
    void maybeSchedule() {
        assert s.mutex.isHeldByCurrentThread();
        scheduleIfNeeded();
    }

    @GuardedBy("s.mutex")
    private void scheduleIfNeeded() {
        if (s.shuttingDown) {
            return;
        }
        boolean sweep = sweepsDone < sweepsAsked;
        if (!sweep && (s.hasBackgroundError() || s.readOnly)) {
            return;
        }
        if (scheduled) {
            if (urgent()) {
                lane.schedule(); // a step waiting to compact becomes a flush: it moves ahead
            }
            return;
        }
        if (!sweep) {
            if (suspensions > 0 && s.imm() == null && manual == null && pending == null) {
                return;
            }
            if (s.imm() == null && manual == null && pending == null && !s.versions.needsCompaction()) {
                return;
            }
        }
        scheduled = true;
        stepsScheduled++;
        lane.schedule();
    }

    /**
     * Returns how many background steps were ever scheduled (a read-only database schedules
     * none). Requires: the lock.
     *
     * @return the count
     */
    @SuppressWarnings("GuardedBy") // held by the caller through its own reference: asserted
    long stepsScheduled() {
        assert s.mutex.isHeldByCurrentThread();
        return stepsScheduled;
    }

    /**
     * One step, on a thread of the pool: the sweep asked for, then a flush or a compaction.
     *
     * @param urgentOnly run by another database's compaction: flush, never compact
     */
    private void backgroundCall(boolean urgentOnly) {
        s.mutex.lock();
        try {
            try {
                if (sweepsDone < sweepsAsked) {
                    sweep();
                }
                boolean budget = s.budgetAsks();
                if (budget && usable() && s.imm() == null) {
                    idleSwitch.getAsBoolean(); // a new immutable memtable, flushed just below
                }
                if (usable() && (!urgentOnly || s.imm() != null)) {
                    backgroundCompaction();
                }
                // Asked while a flush ran: now that it is done, the switch can happen. A switch
                // declined because a write is under way is left to that write's leader.
                if (budget && usable() && s.budgetAsks() && s.imm() == null && idleSwitch.getAsBoolean()) {
                    backgroundCompaction();
                }
            } catch (IOException | RuntimeException | Error e) {
                if (!s.shuttingDown) {
                    s.recordBackgroundError(e);
                }
            } finally {
                scheduled = false;
                scheduleIfNeeded();
                s.backgroundChanged.signalAll();
            }
        } finally {
            s.mutex.unlock();
        }
    }

    /** @return whether background work may go on: not closing, no background error */
    @GuardedBy("s.mutex")
    private boolean usable() {
        return !s.shuttingDown && !s.hasBackgroundError();
    }

    /** Runs the sweeps asked for so far; a failure is logged, as a sweep only tidies up. */
    @GuardedBy("s.mutex")
    private void sweep() {
        long asked = sweepsAsked;
        try {
            if (!s.shuttingDown) {
                obsolete.delete();
            }
        } catch (RuntimeException e) {
            s.infoLog.log("deleting obsolete files failed: %s", e);
        } finally {
            sweepsDone = asked;
            sweepWanted = sweepsDone < sweepsAsked;
        }
    }

    @GuardedBy("s.mutex")
    private void backgroundCompaction() throws IOException {
        if (s.imm() != null) {
            flush.flushImmutable();
            return;
        }
        if (pending != null) {
            runPending();
            return;
        }
        ManualCompaction m = manual;
        Compaction c;
        byte[] manualEnd = null;
        CompactionReason reason = CompactionReason.MANUAL;
        CompactionEvent event = CompactionEvent.start();
        if (m != null) {
            c = m.inPlace ? CompactionPicker.rewriteLevel(s.versions, m.level, m.begin, m.rangeBegin, m.end)
                    : CompactionPicker.compactRange(s.versions, m.level, m.begin, m.end);
            m.done = c == null;
            if (c != null) {
                List<FileMetaData> in = c.inputs(m.inPlace ? 1 : 0);
                manualEnd = in.get(in.size() - 1).largest();
            }
        } else {
            if (suspensions > 0) {
                return;
            }
            // The picker's own test: a size compaction when a level is over its target.
            reason = s.versions.current().compactionScore() >= 1 ? CompactionReason.SIZE : CompactionReason.SEEK;
            c = CompactionPicker.pick(s.versions);
        }
        boolean succeeded = false;
        try {
            if (c == null) {
                succeeded = true;
                return;
            }
            if (m == null && c.isTrivialMove()) {
                FileMetaData f = c.inputs(0).get(0);
                c.edit().deleteFile(c.level(), f.number());
                c.edit().addFile(c.level() + 1, f);
                s.versions.logAndApply(c.edit());
                s.publishReadView();
                s.infoLog.log("Moved #%d to level-%d %d bytes: %s", f.number(), c.level() + 1, f.fileSize(),
                        s.versions.levelSummary());
                CompactionRecord.moved(s, c.level(), f, event);
            } else {
                runCompaction(c, reason, event);
            }
            succeeded = true;
        } finally {
            if (c != null) {
                c.releaseInputs();
            }
            // After a failure the caller records the background error only once this returns,
            // so the sweep must not run here: a failed MANIFEST switch has already advanced the
            // MANIFEST number, and the sweep would delete the MANIFEST that CURRENT still names.
            if (succeeded) {
                obsolete.delete();
            }
            if (m != null) {
                if (!m.done && manualEnd != null) {
                    m.begin = manualEnd;
                }
                if (m.done || manualEnd == null) {
                    m.done = true;
                }
                manual = null;
            }
        }
    }

    /** A flush from inside the running compaction, kept out of its output level. Requires: the lock. */
    @SuppressWarnings("GuardedBy") // the compaction's context holds it through the constructor's reference: asserted
    private void flushInsideCompaction() throws IOException {
        assert s.mutex.isHeldByCurrentThread();
        flushInsideCompactionLocked();
    }

    @GuardedBy("s.mutex")
    private void flushInsideCompactionLocked() throws IOException {
        flush.flushImmutable(compactingInto);
    }

    @GuardedBy("s.mutex")
    private void runPending() throws IOException {
        PendingTask p = pending;
        p.started = true;
        try {
            p.task.run();
        } catch (IOException | RuntimeException | Error e) {
            p.failure = e;
            throw e;
        } finally {
            p.done = true;
            pending = null;
        }
    }

    /**
     * Runs a task as a background step (after a pending flush, before any compaction) and
     * waits for it, so that it sees a version no compaction is about to change. Requires: the
     * lock; no other task waiting (one ingestion at a time: the write queue's leader).
     *
     * @param task the task
     * @throws DBException if the database closes or has a background error before the task
     *     starts, or the task fails (its failure, which is also the background error, as the
     *     cause)
     */
    @SuppressWarnings("GuardedBy") // held by the caller through its own reference: asserted
    void runInStep(StepTask task) {
        assert s.mutex.isHeldByCurrentThread();
        assert pending == null;
        PendingTask p = new PendingTask(task);
        pending = p;
        scheduleIfNeeded();
        while (!p.done) {
            if (!p.started && (s.shuttingDown || s.hasBackgroundError())) {
                pending = null;
                s.checkBackgroundError();
                throw new DBException("database is closed");
            }
            awaitChange();
        }
        if (p.failure != null) {
            if (p.failure instanceof DBException e) {
                throw e;
            }
            throw new IOErrorException("IO error: " + s.dir + ": " + p.failure.getMessage(), p.failure);
        }
    }

    @GuardedBy("s.mutex")
    private void runCompaction(Compaction c, CompactionReason reason, CompactionEvent event) throws IOException {
        s.infoLog.log("Compacting %d@%d + %d@%d files", c.inputs(0).size(), c.level(), c.inputs(1).size(),
                c.level() + 1);
        long smallestSnapshot = s.snapshots.oldest(s.versions::lastSequence);
        Set<Long> before = obsolete.pendingOutputs();
        CompactionStats stats;
        boolean separated = s.versions.separatedValues();
        try {
            compactingInto = c.level() + 1;
            s.mutex.unlock();
            try {
                stats = job.run(c, smallestSnapshot, separated);
                if (!relocated.isEmpty()) {
                    // The moved values are durable before the edit that drops their old copies.
                    s.valueLog.sync();
                }
            } finally {
                s.mutex.lock();
                compactingInto = -1;
                // Only this thread deletes files, so the outputs need no protection from here on.
                obsolete.releaseAllBut(before);
            }
            c.addInputDeletions(c.edit());
            s.versions.logAndApply(c.edit());
        } finally {
            // The values moved by the compaction are now referred to by its tables (or were
            // abandoned with them).
            for (byte[] reference : relocated) {
                s.valueLog.released(reference);
            }
            relocated.clear();
        }
        s.publishReadView();
        s.addStats(c.level() + 1, stats);
        CompactionRecord.compacted(s, c, stats, reason, event);
        s.infoLog.log("Compacted to level-%d: %d bytes written, %s", c.level() + 1, stats.bytesWritten(),
                s.versions.levelSummary());
        org.leveldbj.compaction.FilterCounts filtered = job.lastFilterCounts();
        if (filtered.asked() > 0) {
            s.infoLog.log("Compaction filter %s: asked %d, removed %d, replaced %d", compactionFilter.name(),
                    filtered.asked(), filtered.removed(), filtered.replaced());
        }
    }

    /**
     * Compacts the files of one level overlapping a range into the next level, step by step,
     * in background steps; returns when done. Requires: the lock.
     *
     * @param level the level
     * @param begin the range start (internal key), or {@code null}
     * @param end the range end (internal key), or {@code null}
     */
    @SuppressWarnings("GuardedBy") // held by the caller through its own reference: asserted
    void compactRange(int level, byte[] begin, byte[] end) {
        assert s.mutex.isHeldByCurrentThread();
        runManual(new ManualCompaction(level, begin, end, false));
    }

    /**
     * Rewrites every file of a level (1 or more) in place, step by step, in background steps;
     * returns when done. Requires: the lock.
     *
     * @param level the level
     */
    @SuppressWarnings("GuardedBy") // held by the caller through its own reference: asserted
    void rewriteLevel(int level) {
        assert s.mutex.isHeldByCurrentThread();
        runManual(new ManualCompaction(level, null, null, true));
    }

    /**
     * Rewrites in place the files of a level (1 or more) that overlap a range, step by step, in
     * background steps; returns when done. Requires: the lock.
     *
     * @param level the level
     * @param begin the range start (internal key), or {@code null}
     * @param end the range end (internal key), or {@code null}
     */
    @SuppressWarnings("GuardedBy") // held by the caller through its own reference: asserted
    void rewriteLevel(int level, byte[] begin, byte[] end) {
        assert s.mutex.isHeldByCurrentThread();
        runManual(new ManualCompaction(level, null, end, true, begin));
    }

    /** @return whether the database has a compaction filter (read once, at open) */
    boolean filtering() {
        return compactionFilter != null;
    }

    @GuardedBy("s.mutex")
    private void runManual(ManualCompaction m) {
        while (!m.done) {
            s.checkBackgroundError();
            if (s.shuttingDown) {
                throw new DBException("database is closed");
            }
            if (manual == null) {
                manual = m;
                maybeSchedule();
            }
            awaitChange();
        }
        s.checkBackgroundError();
    }

    /** Waits until no memtable flush is pending. Requires: the lock. */
    @SuppressWarnings("GuardedBy") // held by the caller through its own reference: asserted
    void awaitImmutableFlushed() {
        assert s.mutex.isHeldByCurrentThread();
        while (s.imm() != null) {
            s.checkBackgroundError();
            if (s.shuttingDown) {
                throw new DBException("database is closed");
            }
            awaitChange();
        }
        s.checkBackgroundError();
    }

    /**
     * Stops automatic compactions, waiting for a running step to end. Requires: the lock.
     */
    @SuppressWarnings("GuardedBy") // held by the caller through its own reference: asserted
    void suspend() {
        assert s.mutex.isHeldByCurrentThread();
        suspensions++;
        while (scheduled) {
            awaitChange();
        }
    }

    /** Lets automatic compactions run again. Requires: the lock. */
    @SuppressWarnings("GuardedBy") // held by the caller through its own reference: asserted
    void resume() {
        assert s.mutex.isHeldByCurrentThread();
        if (suspensions > 0) {
            suspensions--;
        }
        scheduleIfNeeded();
        s.backgroundChanged.signalAll();
    }

    /**
     * Deletes the files nothing needs any more, in a background step (only a background step
     * deletes files: a compaction's outputs are unprotected between its end and its MANIFEST
     * write), and waits for it. For files that became deletable without a background step
     * (value files whose last readers went away). Requires: the lock NOT held.
     */
    void sweepObsoleteFiles() {
        s.mutex.lock();
        try {
            sweepAndWait();
        } finally {
            s.mutex.unlock();
        }
    }

    @GuardedBy("s.mutex")
    private void sweepAndWait() {
        if (s.shuttingDown) {
            return;
        }
        long ticket = ++sweepsAsked;
        sweepWanted = true;
        scheduleIfNeeded();
        while (sweepsDone < ticket && !s.shuttingDown) {
            s.backgroundChanged.awaitUninterruptibly();
        }
    }

    /**
     * Takes the database out of its pool: drops its waiting step and waits for the running one.
     * Requires: the lock NOT held, and {@code shuttingDown} set.
     */
    void shutDown() {
        lane.close();
    }
}
