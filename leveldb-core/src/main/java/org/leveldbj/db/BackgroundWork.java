package org.leveldbj.db;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.iq80.leveldb.DBException;
import org.iq80.leveldb.IOErrorException;
import org.leveldbj.compaction.Compaction;
import org.leveldbj.compaction.CompactionJob;
import org.leveldbj.compaction.CompactionPicker;
import org.leveldbj.compaction.CompactionStats;
import org.leveldbj.compaction.TableFileWriter;
import org.leveldbj.filename.FileNames;
import org.leveldbj.filename.FileType;
import org.leveldbj.iterator.SortedIterator;
import org.leveldbj.key.InternalKeys;
import org.leveldbj.log.LogWriter;
import org.leveldbj.memtable.MemTable;
import org.leveldbj.table.TableReadOptions;
import org.leveldbj.version.FileMetaData;
import org.leveldbj.version.Version;
import org.leveldbj.version.VersionEdit;

/**
 * Everything the database does in its one background thread: flushing the immutable memtable
 * to a table, automatic and manual compactions, and deleting the files no version needs any
 * more. Memtable switches (a new log and memtable) are done here too, for the write queue.
 *
 * <p>Errors: a failure of background work is recorded as the database's background error
 * (sticky: every later write fails with it) and stops further background work.
 *
 * <p>Thread safety: every method requires the database lock unless noted; the background thread
 * releases it for I/O.
 *
 * <p>Lifetime: {@link #shutDown()} waits for the running step and stops the thread.
 */
final class BackgroundWork {
    private final DbState s;
    private final ExecutorService executor;
    private final CompactionJob job;

    // Guarded by the database lock.
    private boolean scheduled;
    /** How many background steps were ever scheduled. Guarded by the lock. */
    private long stepsScheduled;
    private int suspensions;
    private ManualCompaction manual;

    /** A manual compaction of one level in progress; begin moves forward as steps finish. */
    private static final class ManualCompaction {
        final int level;
        byte[] begin;
        final byte[] end;
        boolean done;

        ManualCompaction(int level, byte[] begin, byte[] end) {
            this.level = level;
            this.begin = begin;
            this.end = end;
        }
    }

    BackgroundWork(DbState s) {
        this.s = s;
        String name = "leveldbj-background " + s.dir.getFileName();
        this.executor = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        });
        TableReadOptions compactionReads = new TableReadOptions(s.options.paranoidChecks(), false);
        this.job = new CompactionJob(s.env, s.dir, s.sstTableNames, s.versions, s.tableOptions, compactionReads,
                new CompactionJob.Context() {
                    @Override
                    public long newOutputFileNumber() {
                        s.mutex.lock();
                        try {
                            long n = s.versions.newFileNumber();
                            s.pendingOutputs.add(n);
                            return n;
                        } finally {
                            s.mutex.unlock();
                        }
                    }

                    @Override
                    public void maybeFlushImmutable() {
                        if (s.imm != null) {
                            s.mutex.lock();
                            try {
                                if (s.imm != null && !s.shuttingDown) {
                                    compactMemTable();
                                    s.backgroundChanged.signalAll();
                                }
                            } catch (IOException e) {
                                throw new IOErrorException("IO error: " + e.getMessage(), e);
                            } finally {
                                s.mutex.unlock();
                            }
                        }
                    }

                    @Override
                    public boolean shuttingDown() {
                        return s.shuttingDown;
                    }
                });
    }

    /** Waits until background work signals progress. Requires: the lock. */
    void awaitChange() {
        s.backgroundChanged.awaitUninterruptibly();
    }

    /** Schedules a background step if one is needed and none is scheduled. Requires: the lock. */
    void maybeSchedule() {
        assert s.mutex.isHeldByCurrentThread();
        if (scheduled || s.shuttingDown || s.backgroundError != null || s.readOnly) {
            return;
        }
        if (suspensions > 0 && s.imm == null && manual == null) {
            return;
        }
        if (s.imm == null && manual == null && !s.versions.needsCompaction()) {
            return;
        }
        scheduled = true;
        stepsScheduled++;
        executor.execute(this::backgroundCall);
    }

    /**
     * Returns how many background steps were ever scheduled (a read-only database schedules
     * none). Requires: the lock.
     *
     * @return the count
     */
    long stepsScheduled() {
        assert s.mutex.isHeldByCurrentThread();
        return stepsScheduled;
    }

    private void backgroundCall() {
        s.mutex.lock();
        try {
            if (!s.shuttingDown && s.backgroundError == null) {
                backgroundCompaction();
            }
        } catch (IOException | RuntimeException | Error e) {
            if (!s.shuttingDown) {
                s.recordBackgroundError(e);
            }
        } finally {
            scheduled = false;
            maybeSchedule();
            s.backgroundChanged.signalAll();
            s.mutex.unlock();
        }
    }

    /**
     * Replaces the full memtable by a new one writing to a new log, and schedules the flush of
     * the old one. Requires: the lock, held by the write-queue leader; no immutable memtable.
     */
    void switchMemTable() {
        assert s.mutex.isHeldByCurrentThread() && s.imm == null;
        long number = s.versions.newFileNumber();
        LogWriter log;
        try {
            log = new LogWriter(s.env.newWritableFile(s.dir.resolve(FileNames.logFileName(number))));
        } catch (IOException e) {
            s.versions.reuseFileNumber(number);
            throw new IOErrorException("IO error: cannot create log " + number + ": " + e.getMessage(), e);
        }
        // The old log is neither synced nor closed here: that would put an fsync of megabytes on
        // the path of writes that never asked for one. The next synced write syncs it (and the
        // new log's directory entry) before its own record, which keeps every synced write from
        // outliving an earlier write; the memtable flush makes it unneeded otherwise. With imm
        // empty, the log before it is already covered by a table and can simply be closed.
        if (s.unsyncedPreviousLog != null) {
            closeQuietly(s.unsyncedPreviousLog);
        }
        s.unsyncedPreviousLog = s.log;
        s.logDirectoryUnsynced = true;
        s.log = log;
        s.logFileNumber = number;
        s.imm = s.mem;
        s.immLastSequence = s.versions.lastSequence();
        s.mem = new MemTable(s.icmp.userComparator());
        s.publishReadView();
        maybeSchedule();
    }

    private void closeQuietly(LogWriter log) {
        try {
            log.close();
        } catch (IOException e) {
            s.infoLog.log("closing log failed: %s", e);
        }
    }

    private void backgroundCompaction() throws IOException {
        if (s.imm != null) {
            compactMemTable();
            return;
        }
        ManualCompaction m = manual;
        Compaction c;
        byte[] manualEnd = null;
        if (m != null) {
            c = CompactionPicker.compactRange(s.versions, m.level, m.begin, m.end);
            m.done = c == null;
            if (c != null) {
                List<FileMetaData> in = c.inputs(0);
                manualEnd = in.get(in.size() - 1).largest();
            }
        } else {
            if (suspensions > 0) {
                return;
            }
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
            } else {
                runCompaction(c);
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
                deleteObsoleteFiles();
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

    private void runCompaction(Compaction c) throws IOException {
        s.infoLog.log("Compacting %d@%d + %d@%d files", c.inputs(0).size(), c.level(), c.inputs(1).size(),
                c.level() + 1);
        long smallestSnapshot = s.snapshots.oldest(s.versions::lastSequence);
        List<Long> before = new ArrayList<>(s.pendingOutputs);
        CompactionStats stats;
        s.mutex.unlock();
        try {
            stats = job.run(c, smallestSnapshot);
        } finally {
            s.mutex.lock();
            // Only this thread deletes files, so the outputs need no protection from here on.
            s.pendingOutputs.retainAll(before);
        }
        c.addInputDeletions(c.edit());
        s.versions.logAndApply(c.edit());
        s.publishReadView();
        s.addStats(c.level() + 1, stats);
        s.infoLog.log("Compacted to level-%d: %d bytes written, %s", c.level() + 1, stats.bytesWritten(),
                s.versions.levelSummary());
    }

    /** Flushes the immutable memtable to a table and drops its log. Requires: the lock. */
    void compactMemTable() throws IOException {
        MemTable imm = s.imm;
        assert imm != null;
        VersionEdit edit = new VersionEdit();
        Version base = s.versions.current();
        base.ref();
        try {
            writeLevel0Table(imm, edit, base);
        } finally {
            base.unref();
        }
        if (s.shuttingDown) {
            throw new DBException("database closed during memtable compaction");
        }
        edit.setPrevLogNumber(0);
        edit.setLogNumber(s.logFileNumber);
        // Only what the flushed memtable holds is in tables now; later records live in the log.
        edit.setLastSequence(s.immLastSequence);
        s.versions.logAndApply(edit);
        s.imm = null;
        s.publishReadView();
        imm.unref();
        deleteObsoleteFiles();
    }

    /**
     * Writes a memtable to a new table and records it in an edit, at the level
     * {@link Version#pickLevelForMemTableOutput} picks (level 0 when {@code base} is null, as
     * during recovery). Requires: the lock; released while the table is written.
     *
     * @param mem the memtable
     * @param edit receives the new file
     * @param base the version to place the table in, or {@code null}
     * @throws IOException if writing fails
     */
    void writeLevel0Table(MemTable mem, VersionEdit edit, Version base) throws IOException {
        long start = System.nanoTime();
        long number = s.versions.newFileNumber();
        s.pendingOutputs.add(number);
        FileMetaData meta;
        s.mutex.unlock();
        try (SortedIterator it = mem.iterator()) {
            meta = TableFileWriter.writeAll(s.env, s.dir, number, s.sstTableNames, s.tableOptions, s.tables, it);
        } finally {
            s.mutex.lock();
            s.pendingOutputs.remove(number);
        }
        int level = 0;
        if (meta != null) {
            if (base != null) {
                level = base.pickLevelForMemTableOutput(InternalKeys.userKey(meta.smallest()),
                        InternalKeys.userKey(meta.largest()));
            }
            edit.addFile(level, meta);
            s.infoLog.log("Level-0 table #%d: %d bytes, placed at level %d", number, meta.fileSize(), level);
        }
        s.addStats(level, new CompactionStats((System.nanoTime() - start) / 1000, 0,
                meta == null ? 0 : meta.fileSize()));
    }

    /**
     * Compacts the files of one level overlapping a range into the next level, step by step,
     * in the background thread; returns when done. Requires: the lock.
     *
     * @param level the level
     * @param begin the range start (internal key), or {@code null}
     * @param end the range end (internal key), or {@code null}
     */
    void compactRange(int level, byte[] begin, byte[] end) {
        ManualCompaction m = new ManualCompaction(level, begin, end);
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
    void awaitImmutableFlushed() {
        while (s.imm != null) {
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
    void suspend() {
        suspensions++;
        while (scheduled) {
            awaitChange();
        }
    }

    /** Lets automatic compactions run again. Requires: the lock. */
    void resume() {
        if (suspensions > 0) {
            suspensions--;
        }
        maybeSchedule();
        s.backgroundChanged.signalAll();
    }

    /**
     * Deletes the files no live version, log or pending output needs. Requires: the lock;
     * released while files are deleted.
     */
    void deleteObsoleteFiles() {
        assert s.mutex.isHeldByCurrentThread();
        if (s.backgroundError != null) {
            return; // the state of the files is unknown after an error
        }
        Set<Long> live = new HashSet<>(s.pendingOutputs);
        s.versions.addLiveFiles(live);
        List<String> children;
        try {
            children = s.env.getChildren(s.dir);
        } catch (IOException e) {
            return;
        }
        long logNumber = s.versions.logNumber();
        long prevLogNumber = s.versions.prevLogNumber();
        long manifestNumber = s.versions.manifestFileNumber();
        List<String> obsolete = new ArrayList<>();
        for (String name : children) {
            FileNames.Parsed p = FileNames.parse(name);
            if (p == null) {
                continue;
            }
            boolean keep;
            switch (p.type()) {
                case LOG:
                    keep = p.number() >= logNumber || p.number() == prevLogNumber;
                    break;
                case DESCRIPTOR:
                    keep = p.number() >= manifestNumber;
                    break;
                case TABLE:
                case TEMP:
                    keep = live.contains(p.number());
                    break;
                default:
                    keep = true;
                    break;
            }
            if (!keep) {
                if (p.type() == FileType.TABLE) {
                    s.tables.evict(p.number());
                }
                obsolete.add(name);
            }
        }
        if (obsolete.isEmpty()) {
            return;
        }
        s.mutex.unlock();
        try {
            for (String name : obsolete) {
                Path path = s.dir.resolve(name);
                try {
                    s.env.deleteFile(path);
                } catch (IOException e) {
                    s.infoLog.log("Delete %s failed: %s", name, e);
                }
            }
        } finally {
            s.mutex.lock();
        }
    }

    /**
     * Stops the background thread after the running step. Requires: the lock NOT held, and
     * {@code shuttingDown} set.
     */
    void shutDown() {
        executor.shutdown();
        try {
            while (!executor.awaitTermination(10, TimeUnit.SECONDS)) {
                s.infoLog.log("waiting for background work to finish");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
