package org.leveldbj.engine;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.leveldbj.filename.FileNames;
import org.leveldbj.filename.FileType;
import org.leveldbj.memtable.MemTable;
import org.leveldbj.util.LockRank;
import org.leveldbj.util.OrderedLock;

/**
 * The files of the directory that nothing needs any more, and the deletion of them (C++
 * DeleteObsoleteFiles), with the one set that protects files from it: the pending outputs,
 * table files being written by a flush or a compaction that no version names yet.
 *
 * <p>A file is obsolete when it is a log older than the current log number (and not the
 * previous log), a MANIFEST older than the current one, or a table or temporary file that no
 * live version lists and no writer has pending. Nothing is deleted after a background error:
 * the state of the files is unknown then.
 *
 * <p>Thread safety: the sweep requires the database lock and releases it while it deletes;
 * pending outputs are added under the database lock too (so a sweep never misses one), and the
 * set itself is guarded by this object's lock (rank {@link LockRank#OBSOLETE_FILES}).
 */
final class ObsoleteFiles {
    /** This object's lock (doc/impl.md, Locks). */
    private final OrderedLock lock = new OrderedLock(LockRank.OBSOLETE_FILES);
    private final DbState s;
    @GuardedBy("lock")
    private final Set<Long> pendingOutputs = new HashSet<>();
    /**
     * Tables written outside a background step (an ingestion's), protected until released:
     * apart from {@link #pendingOutputs}, which a compaction gives back wholesale.
     */
    @GuardedBy("lock")
    private final Set<Long> heldFiles = new HashSet<>();

    ObsoleteFiles(DbState s) {
        this.s = s;
    }

    /**
     * Allocates a file number for a table about to be written and protects it from the sweep.
     *
     * @return the number, to {@link #release} once a version names the table or it is abandoned
     */
    long newPendingOutput() {
        lock.lock();
        try {
            assert s.mutex.isHeldByCurrentThread();
            long n = s.versions.newFileNumber();
            pendingOutputs.add(n);
            return n;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Allocates a file number for a table written outside a background step and protects it
     * from the sweep until {@link #releaseHeld}; a compaction's {@link #releaseAllBut} leaves it
     * alone. Requires: the database lock.
     *
     * @return the number
     */
    long newHeldFile() {
        lock.lock();
        try {
            assert s.mutex.isHeldByCurrentThread();
            long n = s.versions.newFileNumber();
            heldFiles.add(n);
            return n;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Ends the protection of a file of {@link #newHeldFile}.
     *
     * @param number the file number
     */
    void releaseHeld(long number) {
        lock.lock();
        try {
            heldFiles.remove(number);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Ends the protection of one pending output.
     *
     * @param number the file number
     */
    void release(long number) {
        lock.lock();
        try {
            pendingOutputs.remove(number);
        } finally {
            lock.unlock();
        }
    }

    /**
     * The pending outputs now, to give back with {@link #releaseAllBut} once a step that adds
     * outputs (a compaction) has recorded them.
     *
     * @return a copy of the set
     */
    Set<Long> pendingOutputs() {
        lock.lock();
        try {
            return new HashSet<>(pendingOutputs);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Ends the protection of every pending output not in {@code kept}.
     *
     * @param kept the outputs to keep protecting
     */
    void releaseAllBut(Set<Long> kept) {
        lock.lock();
        try {
            pendingOutputs.retainAll(kept);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Deletes the files no live version, log or pending output needs. Requires: the database
     * lock (asserted; see the package overview on entry points).
     */
    @SuppressWarnings("GuardedBy") // the caller holds the lock through its own reference
    void delete() {
        assert s.mutex.isHeldByCurrentThread();
        deleteLocked();
    }

    /**
     * Whether nothing refers to a value file: no table of a live version, no write on its way
     * (checked before the memtables: such a write notes the file in its memtable before it
     * stops counting as on its way), no memtable.
     */
    @GuardedBy("s.mutex")
    private boolean unreferencedValueFile(long number) {
        if (!s.versions.valueFileUnreferenced(number) || s.valueLog.inUse(number)) {
            return false;
        }
        MemTable mem = s.mem();
        MemTable imm = s.imm();
        return (mem == null || !mem.mayReferToValueFile(number)) && (imm == null || !imm.mayReferToValueFile(number));
    }

    @GuardedBy("s.mutex")
    private void deleteLocked() {
        if (s.hasBackgroundError()) {
            return; // the state of the files is unknown after an error
        }
        Set<Long> live = pendingOutputs();
        lock.lock();
        try {
            live.addAll(heldFiles);
        } finally {
            lock.unlock();
        }
        s.versions.addLiveFiles(live);
        List<String> children;
        try {
            children = s.env.getChildren(s.dir);
        } catch (IOException e) {
            return;
        }
        long logNumber = s.versions.logNumber();
        long prevLogNumber = s.versions.prevLogNumber();
        long manifestNumber = s.versions.oldestLiveManifestNumber();
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
                case VALUE:
                    keep = !unreferencedValueFile(p.number());
                    break;
                default:
                    keep = true;
                    break;
            }
            if (!keep) {
                if (p.type() == FileType.TABLE) {
                    s.tables.evict(p.number());
                } else if (p.type() == FileType.VALUE) {
                    s.valueLog.forget(p.number());
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
}
