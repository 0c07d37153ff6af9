package org.leveldbj.engine;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.io.IOException;
import org.iq80.leveldb.DBException;
import org.iq80.leveldb.Metric;
import org.leveldbj.compaction.CompactionStats;
import org.leveldbj.compaction.OlderData;
import org.leveldbj.compaction.TableFileWriter;
import org.leveldbj.iterator.SortedIterator;
import org.leveldbj.key.InternalKeys;
import org.leveldbj.memtable.MemTable;
import org.leveldbj.stats.FlushEvent;
import org.leveldbj.version.FileMetaData;
import org.leveldbj.version.Version;
import org.leveldbj.version.VersionEdit;

/**
 * Writing memtables to tables (C++ CompactMemTable and WriteLevel0Table): the immutable memtable
 * of a running database, and the memtables recovery fills from old logs.
 *
 * <p>Thread safety: every method requires the database lock (asserted at the entry points,
 * checked by the build within) and releases it while the table is written. Flushes of the immutable memtable run in a background step, or in a compaction
 * that found one waiting; recovery's run before the database is shared.
 */
final class MemTableFlush {
    private final DbState s;
    private final WriteAheadLog wal;
    private final ObsoleteFiles obsolete;

    MemTableFlush(DbState s, WriteAheadLog wal, ObsoleteFiles obsolete) {
        this.s = s;
        this.wal = wal;
        this.obsolete = obsolete;
    }

    /**
     * Flushes the immutable memtable to a table, records it with the current log number (the
     * older logs are then obsolete) and deletes what became obsolete.
     *
     * @throws IOException if writing the table or the MANIFEST fails
     */
    @SuppressWarnings("GuardedBy") // held by the caller through its own reference: asserted
    void flushImmutable() throws IOException {
        assert s.mutex.isHeldByCurrentThread();
        flushImmutableLocked(-1);
    }

    /**
     * Flushes the immutable memtable, as {@link #flushImmutable()} does, from inside a running
     * compaction: the table is not placed at the level that compaction writes to. Its outputs
     * are not in the current version yet, and one of them may span the gap between two of its
     * inputs that the flushed table falls in; both in one level would overlap. One level up is
     * free (the table was pushed past it for overlapping nothing there).
     *
     * @param busyLevel the running compaction's output level, or -1
     * @throws IOException if writing the table or the MANIFEST fails
     */
    @SuppressWarnings("GuardedBy") // held by the caller through its own reference: asserted
    void flushImmutable(int busyLevel) throws IOException {
        assert s.mutex.isHeldByCurrentThread();
        flushImmutableLocked(busyLevel);
    }

    @GuardedBy("s.mutex")
    private void flushImmutableLocked(int busyLevel) throws IOException {
        MemTable imm = s.imm();
        assert imm != null;
        VersionEdit edit = new VersionEdit();
        Version base = s.versions.current();
        base.ref();
        try {
            writeLevel0TableLocked(imm, edit, base, true, busyLevel);
        } finally {
            base.unref();
        }
        if (s.shuttingDown) {
            // Not recorded: the log is replayed at the next open. C++ LevelDB leaves the table for
            // its next open to delete; here it goes now, because its number is not yet handed out
            // in the MANIFEST, so the next program to open the directory may give that number to
            // a table of its own, and under the other suffix both would stay (goleveldb then
            // counts the number twice and refuses to open).
            obsolete.delete();
            throw new DBException("database closed during memtable compaction");
        }
        edit.setPrevLogNumber(0);
        edit.setLogNumber(wal.number());
        // Only what the flushed memtable holds is in tables now; later records live in the log.
        edit.setLastSequence(s.immLastSequence());
        s.versions.logAndApply(edit);
        s.immutableFlushed();
        obsolete.delete();
    }

    /**
     * Writes a memtable to a new table and records it in an edit, at the level
     * {@link Version#pickLevelForMemTableOutput} picks (level 0 when {@code base} is null, as
     * during recovery).
     *
     * @param mem the memtable
     * @param edit receives the new file
     * @param base the version to place the table in, or {@code null}
     * @param syncDirectory whether to sync the directory after the table; recovery passes
     *     {@code false} and makes the names of its tables durable before its MANIFEST record
     * @throws IOException if writing fails
     */
    @SuppressWarnings("GuardedBy") // held by the caller through its own reference: asserted
    void writeLevel0Table(MemTable mem, VersionEdit edit, Version base, boolean syncDirectory) throws IOException {
        assert s.mutex.isHeldByCurrentThread();
        writeLevel0TableLocked(mem, edit, base, syncDirectory, -1);
    }

    @GuardedBy("s.mutex")
    private void writeLevel0TableLocked(MemTable mem, VersionEdit edit, Version base, boolean syncDirectory,
                                        int busyLevel) throws IOException {
        long start = System.nanoTime();
        FlushEvent event = FlushEvent.start();
        long number = obsolete.newPendingOutput();
        FileMetaData meta;
        boolean separated = s.versions.separatedValues();
        s.mutex.unlock();
        try (SortedIterator it = mem.iterator()) {
            // Only a database marked for separated values can hold references to count.
            // The live keys of the table are sampled in the tables of the version, all older than
            // the memtable, so that its stats block says how many are new (KeyCounts).
            meta = TableFileWriter.writeAll(s.env, s.dir, number, s.sstTableNames, s.tableOptions, s.tables, it,
                    separated ? edit : null, syncDirectory, base == null ? null : new OlderData(base, 0),
                    mem.entryCounts().keys().liveKeys());
            if (separated && meta != null) {
                // The table may refer to values no sync has covered yet: make them durable
                // before the edit recording the table (and retiring its log) can be.
                s.valueLog.sync();
            }
        } finally {
            s.mutex.lock();
            obsolete.release(number);
        }
        int level = 0;
        if (meta != null) {
            if (base != null) {
                level = base.pickLevelForMemTableOutput(InternalKeys.userKey(meta.smallest()),
                        InternalKeys.userKey(meta.largest()));
                if (level > 0 && level == busyLevel) {
                    level--;
                }
            }
            edit.addFile(level, meta);
            s.counters.add(Metric.FLUSHES, 1);
            s.counters.add(Metric.FLUSH_BYTES_WRITTEN, meta.fileSize());
            event.finish(s.dir.toString(), number, meta.fileSize(), level);
            s.infoLog.log("Level-0 table #%d: %d bytes, placed at level %d", number, meta.fileSize(), level);
        }
        s.addStats(level, new CompactionStats((System.nanoTime() - start) / 1000, 0,
                meta == null ? 0 : meta.fileSize()));
    }
}
