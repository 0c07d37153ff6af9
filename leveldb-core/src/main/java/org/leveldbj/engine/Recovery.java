package org.leveldbj.engine;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.iq80.leveldb.CorruptionException;
import org.iq80.leveldb.DatabaseNotFoundException;
import org.iq80.leveldb.InvalidDatabaseArgumentException;
import org.leveldbj.filename.FileNames;
import org.leveldbj.filename.FileType;
import org.leveldbj.log.LogReader;
import org.leveldbj.memtable.MemTable;
import org.leveldbj.stats.RecoveryEvent;
import org.leveldbj.version.VersionEdit;
import org.leveldbj.version.VersionSet;

/**
 * Opening a database: creates it when allowed, loads the MANIFEST, replays every live
 * write-ahead log in order into memtables, and either goes on from them or writes them to
 * level-0 tables, starts a new log and records the result in a new MANIFEST.
 *
 * <p>Going on from the logs ({@code keepsLogs}): when the database existed, its MANIFEST is a
 * snapshot and one edit, it has no separated values, and its logs are fewer than
 * {@link #MAX_LIVE_LOGS} and hold at most a memtable, the memtable they were replayed into
 * becomes the database's, the logs stay live, they are synced, and nothing else is written but
 * the new log: a reopen of a small database syncs once and writes no table, MANIFEST or
 * CURRENT. Otherwise the logs go to tables, one per memtable.
 *
 * <p>Syncs otherwise: each replayed table's data, then the new MANIFEST's, the directory (which
 * makes the names of the tables, the new log and the MANIFEST durable at once, before CURRENT
 * may name it), CURRENT's temporary file and the directory again (before the old MANIFEST and
 * logs are deleted): 5 for a reopen that replays one table, 4 for a new database, which writes
 * one MANIFEST and one CURRENT rather than a first pair and then the open's. C++ LevelDB 1.23
 * makes 4 and 6 (its NewDB, then its Open), without the last directory sync.
 *
 * <p>Log replay follows C++ LevelDB: every log numbered at or after the MANIFEST's log number
 * (and its previous log) is replayed, including records whose sequence numbers the MANIFEST
 * already counts (C++ writes such databases); the last sequence becomes the largest seen. A log
 * ends at its last intact record: a torn tail is the normal result of a crash. Damaged records in
 * the middle are skipped and reported to the info log, unless {@code paranoidChecks} is set,
 * when they fail the open.
 *
 * <p>Missing files: as in C++ LevelDB, the open fails with {@code "Corruption: N missing files;
 * e.g.: <path>"} when a table the MANIFEST lists is not in the directory, and equally when a
 * value file its tables refer to is not (separated values: the MANIFEST counts, per value file,
 * the bytes its tables refer to, so no table is read to know). Always, {@code paranoidChecks} or
 * not, read-only or not: such a database would fail its reads of those keys one by one, and a
 * full scan at the first of them. {@code repair} turns it into one that opens, without the
 * entries whose values are gone. A value file that only references in the live logs name is not
 * counted: a batch referring to a missing or short value file is one that was logged after a
 * value which never reached its file, and replay drops it whole as a damaged record
 * ({@link ValueLog#checkReferences}).
 *
 * <p>A failed open leaves the database's files as it found them: it reads CURRENT and the
 * MANIFEST without writing them, and removes the tables and the log it wrote before failing
 * (only the info log and the LOCK file are touched, as in C++ LevelDB).
 *
 * <p>Read-only ({@link DbState#readOnly}): the MANIFEST is loaded and the live logs are
 * replayed into the one memtable, which is never flushed; nothing is written or deleted, so
 * the database's files stay exactly as they were.
 *
 * <p>Thread safety: runs in the opening thread before the database is shared; requires the lock.
 */
final class Recovery {
    /**
     * The most logs a database may have live after an open that kept its replayed logs rather
     * than writing them to a table: at this many, the open writes the table and a MANIFEST.
     */
    static final int MAX_LIVE_LOGS = 4;

    private final DbState s;
    private final WriteAheadLog wal;
    private final MemTableFlush flush;
    private final ObsoleteFiles obsolete;
    private final BackgroundWork background;
    /** Logs replayed and the puts and deletes they held, for the recovery event. */
    private int logsReplayed;
    private long entriesReplayed;

    Recovery(DbState s, WriteAheadLog wal, MemTableFlush flush, ObsoleteFiles obsolete, BackgroundWork background) {
        this.s = s;
        this.wal = wal;
        this.flush = flush;
        this.obsolete = obsolete;
        this.background = background;
    }

    /**
     * Recovers the database and leaves it ready for writes (a new log and an empty memtable).
     * Requires: the lock, and the directory's LOCK held.
     *
     * @throws IOException if a file cannot be read or written
     * @throws DatabaseNotFoundException if the database is missing and may not be created
     * @throws InvalidDatabaseArgumentException if it exists against the options
     * @throws CorruptionException if the MANIFEST, or with paranoid checks a log, is damaged, or
     *     a table the MANIFEST lists or a value file its tables refer to is missing
     */
    @SuppressWarnings("GuardedBy") // held by the caller through its own reference: asserted
    void run() throws IOException {
        assert s.mutex.isHeldByCurrentThread();
        recover();
    }

    @GuardedBy("s.mutex")
    private void recover() throws IOException {
        RecoveryEvent event = RecoveryEvent.start();
        Path current = s.dir.resolve(FileNames.CURRENT);
        boolean created = !s.env.fileExists(current);
        if (created) {
            if (s.readOnly || !s.options.createIfMissing()) {
                throw new DatabaseNotFoundException(doesNotExist(s.dir, s.readOnly));
            }
            s.infoLog.log("Creating DB %s since it was missing.", s.dir);
            // Nothing is written yet: the first MANIFEST is the one this open records its
            // log in, and CURRENT names it once (C++ LevelDB writes two of each).
            s.versions.initializeNew();
        } else if (s.options.errorIfExists()) {
            throw new InvalidDatabaseArgumentException("Invalid argument: " + s.dir + ": exists (error_if_exists is true)");
        } else {
            s.versions.recover();
        }
        VersionSet versions = s.versions;

        Set<Long> expected = new HashSet<>();
        versions.addLiveFiles(expected);
        // The value files the tables refer to: those the MANIFEST counts referenced bytes of.
        Set<Long> expectedValueFiles = new HashSet<>(versions.valueFileLiveBytes().keySet());
        List<Long> logs = new ArrayList<>();
        for (String name : s.env.getChildren(s.dir)) {
            FileNames.Parsed p = FileNames.parse(name);
            if (p == null) {
                continue;
            }
            if (p.type() == FileType.TABLE) {
                expected.remove(p.number());
            } else if (p.type() == FileType.VALUE) {
                // Value files are not listed in the MANIFEST: their numbers must not be reused.
                versions.markFileNumberUsed(p.number());
                expectedValueFiles.remove(p.number());
            } else if (p.type() == FileType.LOG
                    && (p.number() >= versions.logNumber() || p.number() == versions.prevLogNumber())) {
                logs.add(p.number());
            }
        }
        if (!expected.isEmpty() || !expectedValueFiles.isEmpty()) {
            throw missingFiles(expected, expectedValueFiles);
        }
        Collections.sort(logs);
        if (s.readOnly) {
            recoverInMemory(logs);
            s.publishReadView();
            event.finish(s.dir.toString(), logsReplayed, entriesReplayed);
            return;
        }
        if (s.valueLog.threshold() > 0) {
            // Before any edit that counts value-file bytes: an implementation without value
            // files meets the marked comparator name first.
            versions.markSeparatedValues();
        }
        VersionEdit edit = new VersionEdit();
        long logNumber = -1;
        boolean recorded = false;
        boolean keep = keepsLogs(created, logs);
        Replay replay = new Replay(edit);
        try {
            long maxSequence = versions.lastSequence();
            for (long log : logs) {
                versions.markFileNumberUsed(log);
                maxSequence = Math.max(maxSequence, replayLog(log, replay));
            }
            versions.setLastSequence(maxSequence);
            if (keep && edit.newFiles().isEmpty()) {
                // Few small logs: the database goes on from the memtable they were replayed
                // into, without writing a table, MANIFEST or CURRENT (see syncKeptLogs).
                syncKeptLogs(logs);
                logNumber = versions.newFileNumber();
                wal.start(logNumber);
                MemTable kept = replay.mem != null ? replay.mem : new MemTable(s.icmp.userComparator());
                replay.mem = null;
                s.installMemTable(kept);
                s.memTableWritten();
                s.infoLog.log("Kept %d log%s in the memtable (%d bytes)", logs.size(), logs.size() == 1 ? "" : "s",
                        kept.approximateMemoryUsage());
                recorded = true;
                s.publishReadView();
                event.finish(s.dir.toString(), logsReplayed, entriesReplayed);
                obsolete.delete();
                background.maybeSchedule();
                return;
            }
            if (replay.mem != null) {
                MemTable last = replay.mem;
                replay.mem = null;
                flush(last, edit);
            }

            logNumber = versions.newFileNumber();
            wal.start(logNumber);
            s.installMemTable(new MemTable(s.icmp.userComparator()));
            edit.setPrevLogNumber(0);
            edit.setLogNumber(logNumber);
            // Every replayed record is in a table now, so the MANIFEST may count them all.
            edit.setLastSequence(maxSequence);
            // The names of the replayed tables (written without a directory sync each) and of
            // the new log must be durable before a MANIFEST naming them is in force: a new
            // MANIFEST syncs the directory before CURRENT names it; a record appended to an
            // open one (the one a first open with separated values just marked) is in force
            // once synced, so the directory is synced first when it records tables (the new
            // log's entry alone may wait for the first synced write).
            boolean newManifest = versions.startsNewManifest();
            boolean directorySynced = newManifest;
            if (!newManifest && !edit.newFiles().isEmpty()) {
                s.env.syncDir(s.dir);
                directorySynced = true;
            }
            versions.logAndApply(edit);
            recorded = true;
            if (directorySynced) {
                wal.directorySynced();
            }
        } finally {
            if (replay.mem != null) {
                replay.mem.unref();
            }
            // When only the directory sync after the CURRENT switch failed, the new MANIFEST
            // is in force and names the replayed tables and the new log: they must stay.
            if (!recorded && !FileNames.currentNames(s.env, s.dir, versions.manifestFileNumber())) {
                discardUnrecorded(edit, logNumber);
            }
        }
        s.publishReadView();
        event.finish(s.dir.toString(), logsReplayed, entriesReplayed);
        obsolete.delete();
        background.maybeSchedule();
    }

    /**
     * Whether this open goes on from its replayed logs without writing a table, MANIFEST or
     * CURRENT: the database existed, its MANIFEST is a snapshot and one edit (so that, not
     * rewritten, damage to it is still found: see {@code VersionSet#lastRecordIsNeeded}), it has
     * no separated values, and the logs are fewer than {@link #MAX_LIVE_LOGS} and hold at most a
     * memtable.
     */
    @GuardedBy("s.mutex")
    private boolean keepsLogs(boolean created, List<Long> logs) throws IOException {
        return !created && s.versions.lastRecordIsNeeded() && !s.versions.separatedValues()
                && s.valueLog.threshold() == 0 && logs.size() < MAX_LIVE_LOGS
                && logBytes(logs) <= s.options.writeBufferSize();
    }

    /**
     * Before an open goes on from its replayed logs: the memtable they were replayed into
     * becomes the database's, the logs stay live (the MANIFEST's log number still names the
     * first of them, and the new log's number comes after them), and no table, MANIFEST or
     * CURRENT is written. What must be synced is their tails, which the writes that made them
     * may not have synced: a synced write to the new log must not outlive them. The first flush
     * retires them all, as it retires the log of the memtable it writes.
     *
     * @param logs the replayed logs
     * @throws IOException if one cannot be synced
     */
    private void syncKeptLogs(List<Long> logs) throws IOException {
        for (long log : logs) {
            Path path = s.dir.resolve(FileNames.logFileName(log));
            if (s.env.getFileSize(path) > 0) {
                try (org.iq80.leveldb.Env.WritableFile f = s.env.newAppendableFile(path)) {
                    f.sync();
                }
            }
        }
    }

    /** The bytes of the logs, as a bound on what replaying them holds (a lower one when a crash left a zero tail). */
    private long logBytes(List<Long> logs) throws IOException {
        long bytes = 0;
        for (long log : logs) {
            bytes += s.env.getFileSize(s.dir.resolve(FileNames.logFileName(log)));
        }
        return bytes;
    }

    /**
     * The failure of an open that misses files the MANIFEST needs: C++ LevelDB's text, counting
     * tables and value files together and naming the one with the smallest number (a table under
     * the suffix this database writes, where C++ LevelDB always says {@code .ldb}).
     *
     * @param tables the missing tables
     * @param valueFiles the missing value files
     * @return the exception to throw
     */
    private CorruptionException missingFiles(Set<Long> tables, Set<Long> valueFiles) {
        long table = tables.isEmpty() ? Long.MAX_VALUE : Collections.min(tables);
        long valueFile = valueFiles.isEmpty() ? Long.MAX_VALUE : Collections.min(valueFiles);
        String example = table < valueFile ? FileNames.tableFileName(table, s.sstTableNames)
                : FileNames.valueFileName(valueFile);
        return new CorruptionException((tables.size() + valueFiles.size()) + " missing files; e.g.",
                s.dir.resolve(example).toString(), CorruptionException.UNKNOWN_OFFSET);
    }

    /**
     * The message of a failed open of a missing database: C++ LevelDB's text when the database
     * may not be created.
     *
     * @param dir the database directory
     * @param readOnly whether the open was read-only
     * @return the message of the {@link DatabaseNotFoundException}
     */
    static String doesNotExist(Path dir, boolean readOnly) {
        return "Invalid argument: " + dir + ": does not exist ("
                + (readOnly ? "opened read-only" : "create_if_missing is false") + ")";
    }

    /**
     * Read-only recovery: replays the live logs, in order, into a new memtable that becomes the
     * database's, and writes nothing.
     */
    @GuardedBy("s.mutex")
    private void recoverInMemory(List<Long> logs) throws IOException {
        VersionSet versions = s.versions;
        Replay replay = new Replay(null);
        replay.mem = new MemTable(s.icmp.userComparator());
        s.installMemTable(replay.mem);
        long maxSequence = versions.lastSequence();
        for (long log : logs) {
            versions.markFileNumberUsed(log);
            maxSequence = Math.max(maxSequence, replayLog(log, replay));
        }
        versions.setLastSequence(maxSequence);
    }

    /**
     * After a failed open, removes the files it created and no MANIFEST names: the tables
     * written while replaying and the new log. A failed open leaves the database's files as it
     * found them (the logs it could not replay are still there for a repair or another try).
     */
    private void discardUnrecorded(VersionEdit edit, long logNumber) {
        List<Path> created = new ArrayList<>();
        for (VersionEdit.NewFile f : edit.newFiles()) {
            created.add(s.dir.resolve(FileNames.tableFileName(f.file().number(), s.sstTableNames)));
        }
        if (logNumber >= 0) {
            wal.abandon();
            created.add(s.dir.resolve(FileNames.logFileName(logNumber)));
        }
        for (Path file : created) {
            try {
                if (s.env.fileExists(file)) {
                    s.env.deleteFile(file);
                }
            } catch (IOException e) {
                s.infoLog.log("removing %s after the failed open failed: %s", file, e);
            }
        }
    }

    /** Where replayed records go: a memtable, written to a level-0 table recorded in an edit whenever full. */
    private static final class Replay {
        /** Receives the tables; null to never write one (read-only: the memtable grows). */
        final VersionEdit edit;
        /** The memtable being filled; null until the first record after a flush. */
        MemTable mem;

        Replay(VersionEdit edit) {
            this.edit = edit;
        }
    }

    /**
     * Replays one log into {@code replay}'s memtable, across logs, and returns the largest
     * sequence in it. A memtable fuller than the write buffer is written to a level-0 table
     * (one per memtable rather than one per log, as C++ LevelDB writes).
     */
    private long replayLog(long number, Replay replay) throws IOException {
        Path path = s.dir.resolve(FileNames.logFileName(number));
        String name = path.toString();
        boolean paranoid = s.options.paranoidChecks();
        s.infoLog.log("Recovering log #%d", number);
        logsReplayed++;
        LogReader.Reporter reporter = new LogReader.Reporter() {
            @Override
            public void corruption(long bytes, String reason) {
                corruption(CorruptionException.UNKNOWN_OFFSET, bytes, reason);
            }

            @Override
            public void corruption(long offset, long bytes, String reason) {
                if (paranoid) {
                    throw new CorruptionException(reason + " (" + bytes + " bytes dropped)", name, offset);
                }
                s.infoLog.log("%s: dropping %d bytes at offset %d; %s", name, bytes, offset, reason);
            }
        };
        long maxSequence = 0;
        WriteBatchImpl batch = new WriteBatchImpl();
        try (LogReader reader = new LogReader(s.env.newSequentialFile(path), reporter, true, 0)) {
            ByteBuffer record;
            MemTableInserter inserter = new MemTableInserter();
            while ((record = reader.readRecord()) != null) {
                if (record.remaining() < WriteBatchImpl.HEADER_SIZE) {
                    reporter.corruption(reader.lastRecordOffset(), record.remaining(), "log record too small");
                    continue;
                }
                batch.setContents(record);
                String dangling;
                try {
                    dangling = s.valueLog.checkReferences(batch);
                } catch (CorruptionException e) {
                    reporter.corruption(reader.lastRecordOffset(), record.remaining(), e.reason());
                    continue;
                }
                if (dangling != null) {
                    // Logged after a value that never reached its value file: an unsynced write
                    // lost with the machine. Dropped whole, as a damaged record is.
                    reporter.corruption(reader.lastRecordOffset(), record.remaining(), dangling);
                    continue;
                }
                if (replay.mem == null) {
                    replay.mem = new MemTable(s.icmp.userComparator());
                }
                try {
                    inserter.insert(batch, replay.mem);
                } catch (CorruptionException e) {
                    reporter.corruption(reader.lastRecordOffset(), record.remaining(), e.reason());
                    continue;
                }
                entriesReplayed += batch.size();
                long last = batch.sequence() + batch.size() - 1;
                maxSequence = Math.max(maxSequence, last);
                if (replay.edit != null && replay.mem.approximateMemoryUsage() > s.options.writeBufferSize()) {
                    MemTable full = replay.mem;
                    replay.mem = null;
                    flush(full, replay.edit);
                }
            }
        }
        return maxSequence;
    }

    private void flush(MemTable mem, VersionEdit edit) throws IOException {
        try {
            flush.writeLevel0Table(mem, edit, null, false);
        } finally {
            mem.unref();
        }
    }
}
