package org.leveldbj.engine;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.iq80.leveldb.DBException;
import org.iq80.leveldb.Env;
import org.iq80.leveldb.IOErrorException;
import org.iq80.leveldb.IngestOptions;
import org.iq80.leveldb.InvalidArgumentException;
import org.leveldbj.comparator.KeyComparator;
import org.leveldbj.compaction.TableFileWriter;
import org.leveldbj.filename.FileNames;
import org.leveldbj.iterator.SortedIterator;
import org.leveldbj.key.InternalKeys;
import org.leveldbj.key.ValueType;
import org.leveldbj.memtable.MemTable;
import org.leveldbj.table.BlockCache;
import org.leveldbj.table.Table;
import org.leveldbj.table.TableOptions;
import org.leveldbj.table.TableReadOptions;
import org.leveldbj.version.FileMetaData;
import org.leveldbj.version.Version;
import org.leveldbj.version.VersionEdit;
import org.leveldbj.version.VersionSet;

/**
 * Adds table files made by {@link ExternalTableWriter} to a database in one MANIFEST record
 * ({@code ExtendedDB.ingest}). The sequence-number design and its reasoning are in doc/impl.md
 * (Ingestion); in short:
 *
 * <ol>
 *   <li>Every file is read completely ({@link IngestedFile#check}) before anything changes: a
 *       damaged file never gets in. A file a table writer of this process finished is compared
 *       with the CRC32C it was written with; any other is decoded in full. The files must not
 *       overlap each other.</li>
 *   <li>As the leader of the write queue ({@link WriteQueue#runAlone}) no write runs until the
 *       end, so the set of keys the database holds cannot grow meanwhile. Let S be the last
 *       sequence number plus one. A file whose key range overlaps no memtable and no table,
 *       while no snapshot is open, is taken as it is (its entries keep sequence 0: no other
 *       version of its keys exists, and no reader can tell 0 from S); every other file is
 *       rewritten into the database with sequence S (a stream copy), after the memtable, when it
 *       holds anything, is written to a table (the memtable is read before the tables, and the
 *       MANIFEST must not record S while the live log holds records below it). Otherwise the
 *       logs are synced, as for a synced write: a crash keeps a prefix of the history.</li>
 *   <li>The files go into the directory under new table numbers, protected from the obsolete
 *       files sweep as pending outputs, synced, then the directory once.</li>
 *   <li>The commit runs as a background step ({@link BackgroundWork#runInStep}), so no
 *       compaction is between choosing its outputs and recording them: with new snapshots held
 *       back ({@link SnapshotList#closeGate()}), it checks that still no snapshot is open when
 *       a file keeps sequence 0 (else everything is rewritten with S and committed again),
 *       places each file at the deepest level above the first level its range overlaps (level
 *       0 when level 0 overlaps; the last level when nothing does), records all of them and S in
 *       one edit, and publishes the version.</li>
 * </ol>
 *
 * <p>A crash before the MANIFEST record leaves numbered tables no version names: the next open
 * deletes them. The originals are removed (moving) only after the record.
 *
 * <p>Thread safety: one object per call, on the caller's thread; it takes the database lock.
 */
final class Ingestion {
    private final DbState s;
    private final WriteQueue writes;
    private final WriteAheadLog wal;
    private final BackgroundWork background;
    private final ObsoleteFiles obsolete;
    /** Time spent reading the files to check them, and putting them into the directory (for the info log). */
    private long checkNanos;
    private long prepareNanos;

    /** One file on its way in: the checked original, and the table the database will hold. */
    private static final class Prepared {
        final IngestedFile source;
        /** Whether it keeps sequence 0 (copied or linked as it is). */
        boolean asIs;
        long number;
        FileMetaData meta;
        boolean linked;

        Prepared(IngestedFile source) {
            this.source = source;
        }
    }

    Ingestion(DbState s, WriteQueue writes, WriteAheadLog wal, BackgroundWork background, ObsoleteFiles obsolete) {
        this.s = s;
        this.writes = writes;
        this.wal = wal;
        this.background = background;
        this.obsolete = obsolete;
    }

    /**
     * Ingests the files.
     *
     * @param options copy or move
     * @param files the files
     * @return a line for the info log
     */
    String run(IngestOptions options, Path... files) {
        long start = System.nanoTime();
        List<Prepared> prepared = check(files);
        checkNanos = System.nanoTime() - start;
        String[] summary = new String[1];
        writes.runAlone(() -> summary[0] = asLeader(prepared, options.moveFiles()));
        if (options.moveFiles()) {
            for (Prepared p : prepared) {
                try {
                    s.env.deleteFile(p.source.path());
                } catch (IOException e) {
                    s.infoLog.log("Ingest: removing %s after moving it failed: %s", p.source.path(), e);
                }
            }
        }
        return summary[0];
    }

    /** Reads every file, then checks that no two overlap. */
    private List<Prepared> check(Path[] files) {
        Set<Path> seen = new HashSet<>();
        List<Prepared> out = new ArrayList<>();
        TableOptions options = s.tableOptions;
        for (Path file : files) {
            if (!seen.add(file.toAbsolutePath().normalize())) {
                throw new InvalidArgumentException("Invalid argument: " + file + " is given twice");
            }
            out.add(new Prepared(IngestedFile.check(s.env, file, options)));
        }
        KeyComparator user = s.icmp.userComparator();
        out.sort(Comparator.comparing(p -> p.source.smallestUserKey(), user::compare));
        for (int i = 1; i < out.size(); i++) {
            IngestedFile a = out.get(i - 1).source;
            IngestedFile b = out.get(i).source;
            if (user.compare(a.largestUserKey(), b.smallestUserKey()) >= 0) {
                throw new InvalidArgumentException("Invalid argument: the key ranges of " + a.path() + " ("
                        + ExternalTableWriter.describe(a.smallestUserKey()) + ".." + ExternalTableWriter.describe(a.largestUserKey())
                        + ") and " + b.path() + " (" + ExternalTableWriter.describe(b.smallestUserKey()) + ".."
                        + ExternalTableWriter.describe(b.largestUserKey()) + ") overlap");
            }
        }
        return out;
    }

    /** Everything after the checks, as the write queue's leader. Requires: the lock. */
    @SuppressWarnings("GuardedBy") // held by the caller (the write queue) through its own reference: asserted
    private String asLeader(List<Prepared> files, boolean move) {
        assert s.mutex.isHeldByCurrentThread();
        boolean forceRewrite = false;
        while (true) {
            s.checkBackgroundError();
            if (s.shuttingDown) {
                throw new DBException("database is closed");
            }
            long sequence = s.versions.lastSequence() + 1;
            boolean snapshots = s.snapshots.size() > 0;
            boolean rewrite = false;
            for (Prepared p : files) {
                p.asIs = !forceRewrite && !snapshots && !overlapsLiveData(p.source);
                rewrite |= !p.asIs;
            }
            if (rewrite && (!s.mem().isEmpty() || s.imm() != null)) {
                writes.switchMemTableAsLeader();
                background.awaitImmutableFlushed();
            } else {
                syncLogs();
            }
            for (Prepared p : files) {
                p.number = obsolete.newHeldFile();
                p.meta = null;
            }
            boolean keep = false;
            try {
                long start = System.nanoTime();
                s.mutex.unlock();
                try {
                    prepare(files, sequence, move);
                } finally {
                    s.mutex.lock();
                }
                prepareNanos = System.nanoTime() - start;
                if (s.shuttingDown) {
                    throw new DBException("database is closed");
                }
                boolean[] retry = new boolean[1];
                boolean rewritten = rewrite;
                background.runInStep(() -> {
                    retry[0] = !commit(files, rewritten, sequence);
                    if (!retry[0]) {
                        s.infoLog.log("%s", summary(files, rewritten, sequence));
                    }
                });
                // Once the commit ran, a failure may have left the record in the MANIFEST: the
                // files stay (the sweep deletes them once no version names them).
                keep = !retry[0];
                if (!retry[0]) {
                    return summary(files, rewritten, sequence);
                }
                forceRewrite = true; // a snapshot appeared: sequence 0 is no longer invisible to everyone
            } finally {
                for (Prepared p : files) {
                    obsolete.releaseHeld(p.number);
                }
                if (!keep && !s.hasBackgroundError()) {
                    deletePrepared(files);
                }
            }
        }
    }

    /**
     * Syncs the logs as a synced write does, so that every write before the ingestion is as
     * durable as the ingestion will be (a crash then keeps a prefix of the history). A failure
     * is sticky, as a failed synced write's. Requires: the lock (released while syncing), as the
     * leader.
     */
    @GuardedBy("s.mutex")
    private void syncLogs() {
        if (s.mem().isEmpty() && s.imm() == null) {
            return;
        }
        WriteAheadLog.Append append = wal.prepare(true);
        IOException failure = null;
        s.mutex.unlock();
        try {
            if (append.previousToSync() != null) {
                append.previousToSync().sync();
            }
            if (append.syncDirectory()) {
                s.env.syncDir(s.dir);
            }
            append.log().sync();
        } catch (IOException e) {
            failure = e;
        } finally {
            s.mutex.lock();
        }
        if (failure != null) {
            IOErrorException e = new IOErrorException(WriteQueue.ioErrorMessage(wal.currentPath(), failure), failure);
            s.recordBackgroundError(e);
            throw e;
        }
        if (append.syncsSomethingElse()) {
            wal.committed(append);
        }
    }

    /** Whether a memtable or a table holds a key in the file's range. Requires: the lock. */
    @GuardedBy("s.mutex")
    private boolean overlapsLiveData(IngestedFile f) {
        byte[] smallest = f.smallestUserKey();
        byte[] largest = f.largestUserKey();
        if (overlaps(s.mem(), smallest, largest) || overlaps(s.imm(), smallest, largest)) {
            return true;
        }
        Version v = s.versions.current();
        for (int level = 0; level < VersionSet.NUM_LEVELS; level++) {
            if (v.overlapInLevel(level, smallest, largest)) {
                return true;
            }
        }
        return false;
    }

    private boolean overlaps(MemTable mem, byte[] smallest, byte[] largest) {
        if (mem == null || mem.isEmpty()) {
            return false;
        }
        try (SortedIterator it = mem.iterator()) {
            it.seek(ByteBuffer.wrap(InternalKeys.encode(smallest, InternalKeys.MAX_SEQUENCE, ValueType.FOR_SEEK)));
            if (!it.valid()) {
                return false;
            }
            ByteBuffer key = it.key();
            ByteBuffer limit = ByteBuffer.wrap(largest);
            return s.icmp.userComparator().compare(key, key.position(), key.remaining() - InternalKeys.TRAILER_SIZE,
                    limit, 0, largest.length) <= 0;
        }
    }

    /** Puts each file into the directory under its number, then syncs the directory. Without the lock. */
    private void prepare(List<Prepared> files, long sequence, boolean move) {
        Path current = null;
        try {
            for (Prepared p : files) {
                current = p.source.path();
                if (p.asIs) {
                    Path target = s.dir.resolve(FileNames.tableFileName(p.number, s.sstTableNames));
                    if (move) {
                        p.linked = s.env.linkOrCopyFile(p.source.path(), target);
                    } else {
                        try (Env.SequentialFile in = s.env.newSequentialFile(p.source.path())) {
                            s.env.copyFile(in, target, Long.MAX_VALUE);
                        }
                    }
                    p.meta = new FileMetaData(p.number, p.source.size(), p.source.smallest(), p.source.largest());
                } else {
                    p.meta = rewrite(p, sequence);
                }
            }
            current = s.dir;
            s.env.syncDir(s.dir);
        } catch (IOException e) {
            throw new IOErrorException(WriteQueue.ioErrorMessage(current, e), e);
        }
    }

    /** Copies a file's entries into a new table of the database, each with the given sequence number. */
    private FileMetaData rewrite(Prepared p, long sequence) throws IOException {
        Path path = p.source.path();
        TableOptions options = s.tableOptions.withBlockCache(BlockCache.NONE).withVerifyChecksums(true);
        TableFileWriter out = new TableFileWriter(s.env, s.dir, p.number, s.sstTableNames, s.tableOptions, s.tables);
        try (Env.RandomAccessFile file = s.env.newRandomAccessFile(path)) {
            Table table = Table.open(path.toString(), file, p.source.size(), options);
            byte[] key = new byte[64];
            try (SortedIterator it = table.iterator(new TableReadOptions(true, false))) {
                for (it.seekToFirst(); it.valid(); it.next()) {
                    ByteBuffer k = it.key();
                    int length = k.remaining();
                    if (key.length < length) {
                        key = new byte[Math.max(length, 2 * key.length)];
                    }
                    k.get(k.position(), key, 0, length);
                    int type = InternalKeys.typeByte(InternalKeys.trailer(k, k.position(), length));
                    long trailer = (sequence << 8) | type;
                    for (int i = 0; i < 8; i++) {
                        key[length - 8 + i] = (byte) (trailer >>> (8 * i));
                    }
                    out.add(ByteBuffer.wrap(key, 0, length), it.value());
                }
            }
        } catch (IOException | RuntimeException e) {
            out.abandon();
            throw e;
        }
        return out.finish(false);
    }

    /**
     * The commit, as a background step: places and records every file. Requires: the lock.
     *
     * @return {@code false} when a file keeps sequence 0 and a snapshot is open: nothing was
     *     recorded
     */
    @SuppressWarnings("GuardedBy") // held by the background step through its own reference: asserted
    private boolean commit(List<Prepared> files, boolean rewritten, long sequence) throws IOException {
        assert s.mutex.isHeldByCurrentThread();
        boolean noSnapshots = s.snapshots.closeGate();
        try {
            boolean asIs = files.stream().anyMatch(p -> p.asIs);
            if (asIs && !noSnapshots) {
                return false;
            }
            Version v = s.versions.current();
            VersionEdit edit = new VersionEdit();
            for (Prepared p : files) {
                edit.addFile(placeLevel(v, p.source.smallestUserKey(), p.source.largestUserKey()), p.meta);
            }
            if (rewritten) {
                // Published before the version under the closed gate: a reader that reads S
                // with the old version sees the state before, consistently; no snapshot of S
                // exists before the version is current.
                s.versions.setLastSequence(sequence);
                edit.setLastSequence(sequence);
            }
            s.versions.logAndApply(edit);
            s.publishReadView();
            return true;
        } finally {
            s.snapshots.openGate();
        }
    }

    /**
     * The deepest level above the first level whose files overlap the range (level 0 when level
     * 0 does), or the last level when none does: the file's entries, the newest of their keys,
     * then never sit below older entries of those keys.
     */
    static int placeLevel(Version v, byte[] smallest, byte[] largest) {
        for (int level = 0; level < VersionSet.NUM_LEVELS; level++) {
            if (v.overlapInLevel(level, smallest, largest)) {
                return Math.max(0, level - 1);
            }
        }
        return VersionSet.NUM_LEVELS - 1;
    }

    /** Deletes the tables of a failed attempt. Requires: the lock (released while deleting). */
    @GuardedBy("s.mutex")
    private void deletePrepared(List<Prepared> files) {
        List<Path> paths = new ArrayList<>();
        for (Prepared p : files) {
            s.tables.evict(p.number);
            paths.add(s.dir.resolve(FileNames.tableFileName(p.number, s.sstTableNames)));
        }
        s.mutex.unlock();
        try {
            for (Path path : paths) {
                try {
                    if (s.env.fileExists(path)) {
                        s.env.deleteFile(path);
                    }
                } catch (IOException e) {
                    s.infoLog.log("Ingest: deleting %s failed: %s", path, e);
                }
            }
        } finally {
            s.mutex.lock();
        }
    }

    private String summary(List<Prepared> files, boolean rewritten, long sequence) {
        long byChecksum = files.stream().filter(p -> p.source.byWriterChecksum()).count();
        StringBuilder sb = new StringBuilder("Ingested ").append(files.size()).append(" files (checked in ")
                .append(checkNanos / 1_000_000).append(" ms, ").append(byChecksum)
                .append(" by their writer's checksum, put in place in ").append(prepareNanos / 1_000_000)
                .append(" ms)");
        if (rewritten) {
            sb.append(" at sequence ").append(sequence);
        }
        sb.append(':');
        for (Prepared p : files) {
            sb.append(" #").append(p.number).append(p.asIs ? (p.linked ? " (linked)" : " (as is)") : " (rewritten)").append(' ')
                    .append(p.source.entries()).append(" entries");
        }
        return sb.toString();
    }
}
