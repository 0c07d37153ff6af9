package org.leveldbj.version;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import org.iq80.leveldb.CorruptionException;
import org.iq80.leveldb.Env;
import org.iq80.leveldb.InvalidDatabaseArgumentException;
import org.leveldbj.env.IoErrors;
import org.leveldbj.filename.FileNames;
import org.leveldbj.key.InternalKeyComparator;
import org.leveldbj.log.LogReader;
import org.leveldbj.log.LogWriter;
import org.leveldbj.vlog.SeparatedFormat;

/**
 * The database's file set over time: the current {@link Version}, the MANIFEST that records
 * every change as a {@link VersionEdit}, and the counters the MANIFEST persists (next file
 * number, log numbers, last sequence).
 *
 * <p>Thread safety: every method requires the database lock given at construction, except
 * {@link #lastSequence()} (an acquire read, for readers taking a snapshot),
 * {@link #current()} (a volatile read) and the constants. {@link #logAndApply} releases the lock
 * while it writes and syncs the MANIFEST. Requires: only one thread at a time calls
 * {@code logAndApply} (the database's background step, or the opening thread).
 *
 * <p>Lifetime: {@link #close()} closes the MANIFEST writer and drops the reference on the
 * current version; {@link #current()} returns {@code null} afterwards, and versions readers
 * still hold stay valid until they release them.
 */
public final class VersionSet implements AutoCloseable {
    /** The number of levels. */
    public static final int NUM_LEVELS = VersionEdit.NUM_LEVELS;
    /** Level-0 file count at which a compaction starts. */
    public static final int L0_COMPACTION_TRIGGER = 4;
    /** Level-0 file count at which each write is delayed by 1 ms. */
    public static final int L0_SLOWDOWN_WRITES_TRIGGER = 8;
    /** Level-0 file count at which writes stop until a compaction finishes. */
    public static final int L0_STOP_WRITES_TRIGGER = 12;
    /** The deepest level a flushed memtable may be placed in when it overlaps nothing. */
    public static final int MAX_MEM_COMPACT_LEVEL = 2;
    /** A MANIFEST larger than this is replaced by a new one at the next edit. */
    public static final long DEFAULT_MANIFEST_SIZE_LIMIT = 64L << 20;

    private final Env env;
    private final Path dbDir;
    private final InternalKeyComparator icmp;
    private final TableSource tables;
    private final long maxFileSize;
    private final ReentrantLock mutex;
    private final Set<Version> liveVersions = ConcurrentHashMap.newKeySet();
    private final AtomicLong versionIds = new AtomicLong();
    /**
     * Value file number to the bytes of its records that the current version's tables refer to;
     * a file without an entry has none.
     */
    @GuardedBy("mutex")
    private final TreeMap<Long, Long> valueFileLiveBytes = new TreeMap<>();
    /** Value file number to the id of the first version whose tables no longer refer to it. */
    @GuardedBy("mutex")
    private final Map<Long, Long> valueFileUnreferencedSince = new HashMap<>();
    /** The sum of {@link #valueFileLiveBytes}, readable without the lock. */
    private volatile long valueFileLiveTotal;
    @GuardedBy("mutex")
    private long manifestSizeLimit = DEFAULT_MANIFEST_SIZE_LIMIT;

    /**
     * The next file number to hand out. Atomic rather than guarded by the database lock: value
     * files take their numbers while their writer holds the value log's lock, which ranks after
     * the database lock (doc/impl.md, Locks), so numbering must not need the database lock. A
     * MANIFEST may therefore record a next file number below a value file's; recovery marks the
     * value files it finds as used.
     */
    private final AtomicLong nextFileNumber = new AtomicLong(2);
    /** The number of the next new MANIFEST (or of the one being written to). */
    @GuardedBy("mutex")
    private long manifestFileNumber;
    /**
     * The number of the MANIFEST CURRENT names: {@link #manifestFileNumber} once an edit was
     * logged since the open, else the MANIFEST recovery read (-1 for a new database).
     */
    @GuardedBy("mutex")
    private long liveManifestNumber = -1;
    /**
     * Whether the MANIFEST {@link #recover()} read would fail to load with its last record lost
     * (see {@link #lastRecordIsNeeded()}). Until an edit is logged.
     */
    @GuardedBy("mutex")
    private boolean lastRecordNeeded;
    @GuardedBy("mutex")
    private long logNumber;
    @GuardedBy("mutex")
    private long prevLogNumber;
    /** The last sequence number the MANIFEST records (never ahead of the tables and old logs). */
    @GuardedBy("mutex")
    private long recordedSequence;
    @GuardedBy("mutex")
    private LogWriter descriptorLog;

    /** Whether the MANIFEST is marked as holding separated values ({@link SeparatedFormat}). */
    @GuardedBy("mutex")
    private boolean separatedValues;
    @GuardedBy("mutex")
    private final byte[][] compactPointers = new byte[NUM_LEVELS][];

    /** Written under mutex with release semantics; read by anyone with acquire semantics. */
    private volatile long lastSequence;
    /** Written under mutex; read by anyone. */
    private volatile Version current;

    /**
     * Creates a version set with an empty current version; {@link #recover()} loads the real one.
     *
     * @param env the environment
     * @param dbDir the database directory
     * @param icmp the internal-key order (its name is the one the MANIFEST records)
     * @param tables how versions read tables
     * @param maxFileSize the target table size, which sets the compaction limits
     * @param mutex the database lock guarding this object
     */
    public VersionSet(Env env, Path dbDir, InternalKeyComparator icmp, TableSource tables, long maxFileSize,
                      ReentrantLock mutex) {
        this.env = env;
        this.dbDir = dbDir;
        this.icmp = icmp;
        this.tables = tables;
        this.maxFileSize = maxFileSize;
        this.mutex = mutex;
        List<List<FileMetaData>> empty = new ArrayList<>();
        for (int i = 0; i < NUM_LEVELS; i++) {
            empty.add(List.of());
        }
        Version v = new Version(this, empty);
        v.finish();
        install(v);
    }

    /**
     * The size limit of a level above 0: 10 MiB for level 1, ten times more per level.
     *
     * @param level the level
     * @return bytes
     */
    public static double maxBytesForLevel(int level) {
        double result = 10.0 * 1048576.0;
        while (level > 1) {
            result *= 10;
            level--;
        }
        return result;
    }

    /**
     * Writes the MANIFEST and CURRENT of a new, empty database (MANIFEST-000001).
     *
     * @param env the environment
     * @param dbDir the database directory, which must exist
     * @param comparatorName the user comparator's name
     * @throws IOException if writing fails (the MANIFEST is then removed)
     */
    public static void createNewDatabase(Env env, Path dbDir, String comparatorName) throws IOException {
        VersionEdit edit = new VersionEdit().setComparatorName(comparatorName).setLogNumber(0)
                .setNextFileNumber(2).setLastSequence(0);
        Path manifest = dbDir.resolve(FileNames.descriptorFileName(1));
        try {
            try (LogWriter log = new LogWriter(env.newWritableFile(manifest))) {
                log.addRecord(edit.encode());
                log.sync();
            }
            env.syncDir(dbDir); // the MANIFEST's name is durable before CURRENT names it
            FileNames.setCurrentFile(env, dbDir, 1);
        } catch (IOException | RuntimeException e) {
            try {
                env.deleteFile(manifest);
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    /**
     * Makes this the state of a new, empty database, without writing anything: its first
     * MANIFEST is {@code MANIFEST-000001}, which the first {@link #logAndApply} writes (with
     * the edit naming the first log) before CURRENT names it. Opening a new database so writes
     * one MANIFEST and one CURRENT, not two of each as {@link #createNewDatabase} and a
     * {@link #recover()} that starts a new MANIFEST do (C++ LevelDB's NewDB and Open).
     * Requires: the lock; a version set fresh from its constructor.
     */
    @SuppressWarnings("GuardedBy") // the caller holds the database lock through its own reference: asserted
    public void initializeNew() {
        assert mutex.isHeldByCurrentThread();
        assert descriptorLog == null && current.numFiles(0) == 0;
        manifestFileNumber = 1;
        liveManifestNumber = -1;
        nextFileNumber.set(2);
        lastSequence = 0;
        recordedSequence = 0;
        logNumber = 0;
        prevLogNumber = 0;
    }

    /**
     * Loads the state CURRENT's MANIFEST describes. Strict: any damaged MANIFEST record fails.
     *
     * @throws IOException if a file cannot be read
     * @throws CorruptionException naming the MANIFEST if it or CURRENT is damaged or incomplete
     * @throws InvalidDatabaseArgumentException if the MANIFEST was written with another comparator
     */
    @SuppressWarnings("GuardedBy") // the caller holds the database lock through its own reference: asserted
    public void recover() throws IOException {
        assert mutex.isHeldByCurrentThread();
        String currentName = readCurrent();
        Path manifestPath = dbDir.resolve(currentName);
        String manifestName = manifestPath.toString();
        if (!env.fileExists(manifestPath)) {
            // C++ LevelDB's text, which callers (and repair decisions) match on.
            throw new CorruptionException("CURRENT points to a non-existent file", manifestName,
                    CorruptionException.UNKNOWN_OFFSET);
        }
        VersionBuilder builder = new VersionBuilder(this, current);
        Long nextFile = null;
        Long log = null;
        Long prevLog = null;
        Long lastSeq = null;
        TreeMap<Long, Long> liveBytes = new TreeMap<>();
        boolean marked = separatedValues;
        // Whether the counters (next file, log number, last sequence) are in the last record
        // read only, and in an earlier one.
        boolean countersInLast = false;
        boolean countersEarlier = false;
        String markedName = SeparatedFormat.markedName(icmp.name());
        LogReader.Reporter reporter = new LogReader.Reporter() {
            @Override
            public void corruption(long bytes, String reason) {
                throw new CorruptionException(reason, manifestName, CorruptionException.UNKNOWN_OFFSET);
            }

            @Override
            public void corruption(long offset, long bytes, String reason) {
                throw new CorruptionException(reason + " (" + bytes + " bytes dropped)", manifestName, offset);
            }
        };
        try (LogReader reader = new LogReader(env.newSequentialFile(manifestPath), reporter, true, 0)) {
            ByteBuffer record;
            while ((record = reader.readRecord()) != null) {
                VersionEdit edit;
                try {
                    edit = VersionEdit.decode(record);
                } catch (CorruptionException e) {
                    throw new CorruptionException(e.reason(), manifestName, reader.lastRecordOffset(), e);
                }
                if (edit.comparatorName() != null && edit.comparatorName().equals(markedName)) {
                    marked = true;
                } else if (edit.comparatorName() != null && !edit.comparatorName().equals(icmp.name())) {
                    // C++ LevelDB's exact text, "<stored> does not match existing comparator : <ours>"
                    // (Status::InvalidArgument(msg, msg2) joins its two parts with ": ").
                    throw new InvalidDatabaseArgumentException("Invalid argument: " + edit.comparatorName()
                            + " does not match existing comparator : " + icmp.name());
                }
                countersEarlier |= countersInLast;
                countersInLast = edit.nextFileNumber() != null || edit.logNumber() != null
                        || edit.lastSequence() != null;
                try {
                    builder.apply(edit);
                } catch (IllegalArgumentException e) {
                    throw new CorruptionException(e.getMessage(), manifestName, reader.lastRecordOffset(), e);
                }
                edit.valueFileLiveBytes().forEach((number, delta) -> liveBytes.merge(number, delta, Long::sum));
                log = edit.logNumber() != null ? edit.logNumber() : log;
                prevLog = edit.prevLogNumber() != null ? edit.prevLogNumber() : prevLog;
                nextFile = edit.nextFileNumber() != null ? edit.nextFileNumber() : nextFile;
                lastSeq = edit.lastSequence() != null ? edit.lastSequence() : lastSeq;
            }
        }
        if (nextFile == null) {
            throw new CorruptionException("no meta-nextfile entry in descriptor", manifestName, CorruptionException.UNKNOWN_OFFSET);
        }
        if (log == null) {
            throw new CorruptionException("no meta-lognumber entry in descriptor", manifestName, CorruptionException.UNKNOWN_OFFSET);
        }
        if (lastSeq == null) {
            throw new CorruptionException("no last-sequence-number entry in descriptor", manifestName,
                    CorruptionException.UNKNOWN_OFFSET);
        }
        Version v;
        try {
            v = builder.build();
        } catch (CorruptionException e) {
            throw new CorruptionException(e.reason(), manifestName, CorruptionException.UNKNOWN_OFFSET, e);
        }
        install(v);
        separatedValues = marked;
        valueFileLiveBytes.clear();
        liveBytes.forEach((number, bytes) -> {
            if (bytes != 0) {
                valueFileLiveBytes.put(number, bytes);
            }
        });
        valueFileUnreferencedSince.clear();
        valueFileLiveTotal = valueFileLiveBytes.values().stream().mapToLong(Long::longValue).sum();
        manifestFileNumber = nextFile;
        liveManifestNumber = FileNames.parse(currentName).number();
        lastRecordNeeded = countersInLast && !countersEarlier;
        nextFileNumber.set(nextFile + 1);
        lastSequence = lastSeq;
        recordedSequence = lastSeq;
        logNumber = log;
        prevLogNumber = prevLog == null ? 0 : prevLog;
        markFileNumberUsed(prevLogNumber);
        markFileNumberUsed(logNumber);
    }

    @GuardedBy("mutex")
    private String readCurrent() throws IOException {
        Path currentPath = dbDir.resolve(FileNames.CURRENT);
        StringBuilder sb = new StringBuilder();
        try (Env.SequentialFile file = env.newSequentialFile(currentPath)) {
            ByteBuffer buf = ByteBuffer.allocate(256);
            while (file.read(buf) > 0) {
                buf.flip();
                sb.append(StandardCharsets.UTF_8.decode(buf));
                buf.clear();
            }
        }
        String text = sb.toString();
        if (text.isEmpty() || text.charAt(text.length() - 1) != '\n') {
            throw new CorruptionException("CURRENT file does not end with newline", currentPath.toString(),
                    CorruptionException.UNKNOWN_OFFSET);
        }
        String name = text.substring(0, text.length() - 1);
        FileNames.Parsed parsed = FileNames.parse(name);
        if (parsed == null || parsed.type() != org.leveldbj.filename.FileType.DESCRIPTOR) {
            throw new CorruptionException("CURRENT names no MANIFEST: '" + name + "'", currentPath.toString(),
                    CorruptionException.UNKNOWN_OFFSET);
        }
        return name;
    }

    /**
     * The bytes of value-file records the current tables refer to, in all.
     *
     * @return the sum over every value file; readable without the lock
     */
    public long valueFileLiveTotal() {
        return valueFileLiveTotal;
    }

    /**
     * The bytes of each value file's records that the current version's tables refer to.
     *
     * @return a copy: value file number to bytes; files without references are absent
     */
    @SuppressWarnings("GuardedBy") // the caller holds the database lock through its own reference: asserted
    public Map<Long, Long> valueFileLiveBytes() {
        assert mutex.isHeldByCurrentThread();
        return new TreeMap<>(valueFileLiveBytes);
    }

    /**
     * Whether no table of any live version refers to a value file: the current version's tables
     * do not, and every version still in use was made after they stopped doing so. (Memtables
     * and writes under way are the caller's to check.)
     *
     * @param number the value file's number
     * @return {@code true} when tables give no reason to keep the file
     */
    @SuppressWarnings("GuardedBy") // the caller holds the database lock through its own reference: asserted
    public boolean valueFileUnreferenced(long number) {
        assert mutex.isHeldByCurrentThread();
        if (valueFileLiveBytes.containsKey(number)) {
            return false;
        }
        Long since = valueFileUnreferencedSince.get(number);
        if (since == null) {
            return true;
        }
        long oldest = current.id();
        for (Version v : liveVersions) {
            oldest = Math.min(oldest, v.id());
        }
        if (oldest >= since) {
            valueFileUnreferencedSince.remove(number);
            return true;
        }
        return false;
    }

    /**
     * Removes the mark of separated values once no table refers to a value file: starts a new
     * MANIFEST whose comparator name is the plain one (the old MANIFEST holds the mark and the
     * value-file fields, which other implementations refuse). Does nothing when not marked.
     *
     * <p>Requires: the lock, held by the only thread applying edits.
     *
     * @throws IllegalStateException if tables still refer to value files
     * @throws IOException if writing the new MANIFEST fails; the mark then stays
     */
    @SuppressWarnings("GuardedBy") // the caller holds the database lock through its own reference: asserted
    public void unmarkSeparatedValues() throws IOException {
        assert mutex.isHeldByCurrentThread();
        if (!separatedValues) {
            return;
        }
        if (!valueFileLiveBytes.isEmpty()) {
            throw new IllegalStateException("tables still refer to value files " + valueFileLiveBytes.keySet());
        }
        separatedValues = false;
        try {
            if (descriptorLog != null) {
                descriptorLog.close();
                descriptorLog = null;
            }
            manifestFileNumber = newFileNumber();
            logAndApply(new VersionEdit());
        } catch (IOException | RuntimeException e) {
            separatedValues = true;
            throw e;
        }
    }

    /**
     * Whether the database is marked as one that may hold separated values.
     *
     * @return {@code true} once {@link #markSeparatedValues()} succeeded, or a MANIFEST
     *     recovered was marked
     */
    @SuppressWarnings("GuardedBy") // the caller holds the database lock through its own reference: asserted
    public boolean separatedValues() {
        assert mutex.isHeldByCurrentThread();
        return separatedValues;
    }

    /**
     * Marks the database as one that may hold separated values: records the marked comparator
     * name ({@link SeparatedFormat}) in the MANIFEST, after which other implementations refuse
     * to open it. Does nothing when already marked.
     *
     * <p>Requires: the lock, held by the only thread applying edits.
     *
     * @throws IOException if writing the MANIFEST fails; the database is then not marked
     */
    @SuppressWarnings("GuardedBy") // the caller holds the database lock through its own reference: asserted
    public void markSeparatedValues() throws IOException {
        assert mutex.isHeldByCurrentThread();
        if (separatedValues) {
            return;
        }
        logAndApply(new VersionEdit().setComparatorName(SeparatedFormat.markedName(icmp.name())));
        separatedValues = true;
    }

    /**
     * Whether the MANIFEST {@link #recover()} read holds the next file number, log number and
     * last sequence in its last record only (as one does that holds a snapshot, which has none
     * of them, and one edit), so that it cannot be loaded without that record. Such a MANIFEST
     * may be left as it is by an open that records nothing: a reader takes a record running
     * past the end of the file for a torn write and drops it without a report (C++ LevelDB's
     * too), so a damaged length in the last block of a MANIFEST with many edits could silently
     * take the newest edits away; here losing a record loses the last, whose absence fails the
     * open. Requires: the lock.
     *
     * @return {@code true} for such a MANIFEST, when no edit was logged since
     */
    @SuppressWarnings("GuardedBy") // the caller holds the database lock through its own reference: asserted
    public boolean lastRecordIsNeeded() {
        assert mutex.isHeldByCurrentThread();
        return lastRecordNeeded;
    }

    /**
     * Whether the next {@link #logAndApply} starts a new MANIFEST (which syncs the directory
     * before CURRENT names it) rather than appending to the open one (whose record is in force
     * once synced: the names of the files it records must be durable before). Requires: the lock.
     *
     * @return {@code true} when the next edit goes into a new MANIFEST
     */
    @SuppressWarnings("GuardedBy") // the caller holds the database lock through its own reference: asserted
    public boolean startsNewManifest() {
        assert mutex.isHeldByCurrentThread();
        return descriptorLog == null || descriptorLog.length() > manifestSizeLimit;
    }

    /**
     * Records an edit in the MANIFEST (synced) and makes the resulting version current. Fills in
     * the log numbers, next file number and last sequence the edit does not set; an edit that
     * sets a last sequence must name one whose records are all in tables or in logs older than
     * the edit's log number. Starts a new MANIFEST, beginning with a snapshot of the current
     * state, when none is open or the open one has grown past its size limit.
     *
     * <p>Requires: the lock, held by the only thread applying edits. The lock is released while
     * the MANIFEST is written.
     *
     * @param edit the edit
     * @throws IOException if writing the MANIFEST fails; the current version is then unchanged
     */
    @SuppressWarnings("GuardedBy") // the caller holds the database lock through its own reference: asserted
    public void logAndApply(VersionEdit edit) throws IOException {
        assert mutex.isHeldByCurrentThread();
        if (edit.logNumber() == null) {
            edit.setLogNumber(logNumber);
        }
        assert edit.logNumber() >= logNumber && edit.logNumber() < nextFileNumber.get()
                : "log number " + edit.logNumber() + " outside [" + logNumber + ", " + nextFileNumber + ")";
        if (edit.prevLogNumber() == null) {
            edit.setPrevLogNumber(prevLogNumber);
        }
        if (edit.lastSequence() == null) {
            edit.setLastSequence(recordedSequence);
        }
        assert edit.lastSequence() >= recordedSequence && edit.lastSequence() <= lastSequence;
        VersionBuilder builder = new VersionBuilder(this, current);
        builder.apply(edit);
        Version v = builder.build();
        Map<Long, Long> liveAfter = new HashMap<>();
        edit.valueFileLiveBytes().forEach((number, delta) -> {
            long bytes = valueFileLiveBytes.getOrDefault(number, 0L) + delta;
            if (bytes < 0) {
                // A counting error: refuse the edit rather than let the file be deleted.
                throw new IllegalStateException("value file " + number + " would have " + bytes
                        + " referenced bytes after this edit");
            }
            liveAfter.put(number, bytes);
        });

        boolean newManifest = false;
        if (descriptorLog != null && descriptorLog.length() > manifestSizeLimit) {
            descriptorLog.close();
            descriptorLog = null;
            manifestFileNumber = newFileNumber();
        }
        if (descriptorLog == null) {
            newManifest = true;
        }
        edit.setNextFileNumber(nextFileNumber.get());
        LogWriter writer = descriptorLog;
        Path manifestPath = dbDir.resolve(FileNames.descriptorFileName(manifestFileNumber));
        byte[] snapshot = newManifest ? snapshotEdit().encode() : null;
        byte[] snapshotLiveBytes = newManifest ? liveBytesEdit().encode() : null;
        long manifestNumber = manifestFileNumber;
        mutex.unlock();
        try {
            try {
                if (newManifest) {
                    writer = new LogWriter(env.newWritableFile(manifestPath));
                    writer.addRecord(snapshot);
                    if (snapshotLiveBytes.length > 0) {
                        // A record of its own, after the one naming the comparator: an
                        // implementation that does not know the field stops at the comparator.
                        writer.addRecord(snapshotLiveBytes);
                    }
                }
                writer.addRecord(edit.encode());
                writer.sync();
            } catch (IOException e) {
                throw IoErrors.withPath(manifestPath, e); // the environment may not name it
            }
            if (newManifest) {
                // The new MANIFEST's name must be durable before CURRENT names it (C++ syncs the
                // directory when it first syncs a MANIFEST): otherwise a crash can keep the new
                // CURRENT and lose the file it names.
                env.syncDir(dbDir);
                FileNames.setCurrentFile(env, dbDir, manifestNumber);
            }
        } catch (IOException | RuntimeException e) {
            if (newManifest) {
                closeQuietly(writer, e);
                try {
                    // When only the directory sync after the CURRENT rename failed, CURRENT
                    // already names the new MANIFEST: it must stay, or the database is lost.
                    if (env.fileExists(manifestPath) && !FileNames.currentNames(env, dbDir, manifestNumber)) {
                        env.deleteFile(manifestPath);
                    }
                } catch (IOException suppressed) {
                    e.addSuppressed(suppressed);
                }
            }
            throw e;
        } finally {
            mutex.lock();
        }
        descriptorLog = writer;
        liveManifestNumber = manifestNumber;
        lastRecordNeeded = false;
        install(v);
        valueFileLiveTotal += liveAfter.entrySet().stream()
                .mapToLong(e -> e.getValue() - valueFileLiveBytes.getOrDefault(e.getKey(), 0L)).sum();
        liveAfter.forEach((number, bytes) -> {
            if (bytes == 0) {
                valueFileLiveBytes.remove(number);
                valueFileUnreferencedSince.put(number, v.id());
            } else {
                valueFileLiveBytes.put(number, bytes);
                valueFileUnreferencedSince.remove(number);
            }
        });
        logNumber = edit.logNumber();
        prevLogNumber = edit.prevLogNumber();
        recordedSequence = edit.lastSequence();
    }

    private static void closeQuietly(LogWriter writer, Exception e) {
        if (writer != null) {
            try {
                writer.close();
            } catch (IOException | RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
        }
    }

    /**
     * The records of a MANIFEST that describes the current version on its own, for a copy of the
     * database made from this version's files and a log of its own (a checkpoint, a backup): the
     * state as one edit, the value files' referenced bytes when there are any, then the copy's
     * log number, the next file number (above every number handed out so far) and the last
     * sequence number recorded so far, which covers every entry of the version's tables and
     * none of the memtables' (see {@link #recordedSequence()}).
     *
     * <p>Requires: the lock.
     *
     * @param copyLogNumber the number of the copy's log (its entries are replayed on open)
     * @return the encoded records, in order
     */
    @SuppressWarnings("GuardedBy") // the caller holds the database lock through its own reference: asserted
    public List<byte[]> checkpointRecords(long copyLogNumber) {
        assert mutex.isHeldByCurrentThread();
        List<byte[]> records = new ArrayList<>();
        records.add(snapshotEdit().encode());
        byte[] liveBytes = liveBytesEdit().encode();
        if (liveBytes.length > 0) {
            records.add(liveBytes);
        }
        records.add(new VersionEdit().setLogNumber(copyLogNumber).setPrevLogNumber(0)
                .setNextFileNumber(nextFileNumber.get()).setLastSequence(recordedSequence).encode());
        return records;
    }

    /**
     * The last sequence number the MANIFEST records: at or above every entry of the current
     * version's tables (a flush records its memtable's last), below every entry of the live
     * logs and so of the memtables. Requires: the lock.
     *
     * @return the sequence number
     */
    @SuppressWarnings("GuardedBy") // the caller holds the database lock through its own reference: asserted
    public long recordedSequence() {
        assert mutex.isHeldByCurrentThread();
        return recordedSequence;
    }

    /** The value files' referenced bytes as one edit (empty when there are none). */
    @GuardedBy("mutex")
    private VersionEdit liveBytesEdit() {
        VersionEdit edit = new VersionEdit();
        valueFileLiveBytes.forEach(edit::addValueFileLiveBytes);
        return edit;
    }

    /** The current state as one edit: comparator, compact pointers and every file. */
    @GuardedBy("mutex")
    private VersionEdit snapshotEdit() {
        VersionEdit edit = new VersionEdit().setComparatorName(
                separatedValues ? SeparatedFormat.markedName(icmp.name()) : icmp.name());
        for (int level = 0; level < NUM_LEVELS; level++) {
            if (compactPointers[level] != null) {
                edit.setCompactPointer(level, compactPointers[level]);
            }
            for (FileMetaData f : current.files(level)) {
                edit.addFile(level, f);
            }
        }
        return edit;
    }

    private void install(Version v) {
        Version old = current;
        v.ref();
        current = v;
        if (old != null) {
            old.unref();
        }
    }

    long nextVersionId() {
        return versionIds.incrementAndGet();
    }

    void versionLive(Version v) {
        liveVersions.add(v);
    }

    void versionReleased(Version v) {
        liveVersions.remove(v);
    }

    /** @return how versions read tables */
    public TableSource tables() {
        return tables;
    }

    /** @return the current version; callers that keep it take a reference */
    public Version current() {
        return current;
    }

    /** @return the internal-key order */
    public InternalKeyComparator icmp() {
        return icmp;
    }

    /** @return the target table size */
    public long maxFileSize() {
        return maxFileSize;
    }

    /** @return how much a compaction output may overlap the level below its output level */
    public long maxGrandParentOverlapBytes() {
        return 10 * maxFileSize;
    }

    /** @return the input size up to which a compaction grows its inputs in the upper level */
    public long expandedCompactionByteSizeLimit() {
        return 25 * maxFileSize;
    }

    /**
     * Sets the MANIFEST size beyond which the next edit starts a new MANIFEST (for tests).
     *
     * @param bytes the limit
     */
    @SuppressWarnings("GuardedBy") // the caller holds the database lock through its own reference: asserted
    public void setManifestSizeLimit(long bytes) {
        assert mutex.isHeldByCurrentThread();
        this.manifestSizeLimit = bytes;
    }

    /**
     * Hands out a new file number. Takes no lock: callable with or without the database lock.
     *
     * @return a new file number
     */
    public long newFileNumber() {
        return nextFileNumber.getAndIncrement();
    }

    /**
     * Returns a file number obtained from {@link #newFileNumber()} and not used, if no later one
     * was handed out.
     *
     * @param number the number
     */
    public void reuseFileNumber(long number) {
        nextFileNumber.compareAndSet(number + 1, number);
    }

    /**
     * Makes sure a number found in use is never handed out again.
     *
     * @param number the number
     */
    public void markFileNumberUsed(long number) {
        nextFileNumber.accumulateAndGet(number + 1, Math::max);
    }

    /** @return the next file number to be handed out */
    public long nextFileNumber() {
        return nextFileNumber.get();
    }

    /** @return the number of the MANIFEST in use (or about to be created) */
    @SuppressWarnings("GuardedBy") // the caller holds the database lock through its own reference: asserted
    public long manifestFileNumber() {
        assert mutex.isHeldByCurrentThread();
        return manifestFileNumber;
    }

    /**
     * The oldest MANIFEST number to keep: the one CURRENT names, which is older than
     * {@link #manifestFileNumber()} until an edit is logged after an open that logged none
     * (one that kept its replayed logs).
     *
     * @return MANIFESTs numbered below this are obsolete
     */
    @SuppressWarnings("GuardedBy") // the caller holds the database lock through its own reference: asserted
    public long oldestLiveManifestNumber() {
        assert mutex.isHeldByCurrentThread();
        return liveManifestNumber >= 0 ? Math.min(liveManifestNumber, manifestFileNumber) : manifestFileNumber;
    }

    /** @return the current write-ahead log's number as recorded */
    @SuppressWarnings("GuardedBy") // the caller holds the database lock through its own reference: asserted
    public long logNumber() {
        assert mutex.isHeldByCurrentThread();
        return logNumber;
    }

    /** @return the previous log still being flushed, or 0 */
    @SuppressWarnings("GuardedBy") // the caller holds the database lock through its own reference: asserted
    public long prevLogNumber() {
        assert mutex.isHeldByCurrentThread();
        return prevLogNumber;
    }

    /** @return the last sequence number written (acquire read) */
    public long lastSequence() {
        return lastSequence;
    }

    /**
     * Publishes the last sequence number (release write). Requires: the entries up to it are in
     * the memtable.
     *
     * @param sequence the new last sequence number, not smaller than the current one
     */
    public void setLastSequence(long sequence) {
        assert sequence >= lastSequence : sequence + " < " + lastSequence;
        lastSequence = sequence;
    }

    /**
     * Where the next size compaction of a level starts.
     *
     * @param level the level
     * @return the internal key the last one ended at, or {@code null}
     */
    @SuppressWarnings("GuardedBy") // the caller holds the database lock through its own reference: asserted
    public byte[] compactPointer(int level) {
        assert mutex.isHeldByCurrentThread();
        return compactPointers[level];
    }

    /**
     * Sets where the next size compaction of a level starts.
     *
     * @param level the level
     * @param internalKey the internal key
     */
    @SuppressWarnings("GuardedBy") // the caller holds the database lock through its own reference: asserted
    public void setCompactPointer(int level, byte[] internalKey) {
        assert mutex.isHeldByCurrentThread();
        compactPointers[level] = internalKey.clone();
    }

    /**
     * Tells whether the current version needs a size or seek compaction.
     *
     * @return {@code true} when one is due
     */
    public boolean needsCompaction() {
        Version v = current;
        return v.compactionScore() >= 1 || v.fileToCompact() != null;
    }

    /**
     * Adds the numbers of the table files of every version still referenced.
     *
     * @param live the set to add to
     */
    public void addLiveFiles(Set<Long> live) {
        for (Version v : liveVersions) {
            addFiles(v, live);
        }
        addFiles(current, live);
    }

    private static void addFiles(Version v, Set<Long> live) {
        for (int level = 0; level < NUM_LEVELS; level++) {
            for (FileMetaData f : v.files(level)) {
                live.add(f.number());
            }
        }
    }

    /** @return e.g. {@code "files[ 2 1 0 0 0 0 0 ]"} */
    public String levelSummary() {
        StringBuilder sb = new StringBuilder("files[ ");
        for (int level = 0; level < NUM_LEVELS; level++) {
            sb.append(current.numFiles(level)).append(' ');
        }
        return sb.append(']').toString();
    }

    /** @return the MANIFEST writer's length, or 0 when none is open (for tests) */
    @SuppressWarnings("GuardedBy") // the caller holds the database lock through its own reference: asserted
    public long manifestLength() {
        assert mutex.isHeldByCurrentThread();
        return descriptorLog == null ? 0 : descriptorLog.length();
    }

    @Override
    @SuppressWarnings("GuardedBy") // the caller holds the database lock through its own reference: asserted
    public void close() throws IOException {
        assert mutex.isHeldByCurrentThread();
        Version last = current;
        if (last != null) {
            current = null;
            last.unref();
        }
        if (descriptorLog != null) {
            descriptorLog.close();
            descriptorLog = null;
        }
    }
}
