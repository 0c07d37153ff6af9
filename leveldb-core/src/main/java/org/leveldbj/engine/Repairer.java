package org.leveldbj.engine;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import org.iq80.leveldb.CorruptionException;
import org.iq80.leveldb.DBException;
import org.iq80.leveldb.Env;
import org.iq80.leveldb.TableFileSuffix;
import org.leveldbj.compaction.TableFileWriter;
import org.leveldbj.comparator.KeyComparator;
import org.leveldbj.filename.FileNames;
import org.leveldbj.iterator.MergingIterator;
import org.leveldbj.iterator.SortedIterator;
import org.leveldbj.key.InternalKeyComparator;
import org.leveldbj.key.InternalKeys;
import org.leveldbj.key.ValueType;
import org.leveldbj.log.LogReader;
import org.leveldbj.log.LogWriter;
import org.leveldbj.memtable.MemTable;
import org.leveldbj.table.Table;
import org.leveldbj.table.TableOptions;
import org.leveldbj.table.TableReadOptions;
import org.leveldbj.util.Bytes;
import org.leveldbj.util.LockRank;
import org.leveldbj.util.OrderedLock;
import org.leveldbj.version.FileMetaData;
import org.leveldbj.version.TableSource;
import org.leveldbj.version.VersionEdit;
import org.leveldbj.version.VersionSet;
import org.leveldbj.vlog.SeparatedFormat;
import org.leveldbj.vlog.ValueFiles;
import org.leveldbj.vlog.ValueReference;

/**
 * Rebuilds a usable database from whatever logs and tables in its directory are readable, as
 * C++ LevelDB's RepairDB does, but safe against a crash at any point and without bringing back
 * deleted or overwritten values:
 * <ol>
 *   <li>If the MANIFEST that CURRENT names reads cleanly, it tells which files are leftovers:
 *       tables it neither lists nor postdates (the inputs of a finished compaction whose
 *       deletion a crash interrupted, an unrecorded output) and logs it has already flushed.
 *       They are not used, since their entries may be ones later writes replaced or deleted and
 *       compactions have since dropped together with the deletion. Without a readable
 *       MANIFEST every file is used.
 *   <li>Every log used is replayed (skipping damaged records) into a new table.
 *   <li>Every table used is read from end to end with checksums; a damaged one contributes the
 *       entries of every data block that still reads (as C++ LevelDB's repair keeps them).
 *   <li>All of it is merged in internal-key order into new tables that keep, per user key, only
 *       the newest entry (none when it is a deletion), so they do not overlap; they go to one
 *       level, the first whose size limit holds them. A lookup then finds the newest value
 *       whatever levels and file numbers the sources had.
 *   <li>A new MANIFEST, under a new file number, lists those tables with the largest sequence
 *       number seen and a log number above every log; it is synced, the directory is synced,
 *       and CURRENT is pointed at it (a synced temporary file renamed, the directory synced).
 *       <b>This is the commit point.</b>
 *   <li>Only then are the logs, damaged tables, leftovers and old MANIFESTs moved into
 *       {@code lost/}, and the sound tables and the intermediate tables deleted (their entries
 *       are in the merged tables).
 * </ol>
 * Nothing is moved, renamed over or deleted before the commit point, so a repair killed before
 * it leaves the database as it was, plus new tables no MANIFEST names (the next open deletes
 * them; a second repair uses them, harmlessly: they hold copies of entries with their original
 * sequence numbers). A repair killed after it leaves a database that opens with every
 * recovered entry, the files not yet moved aside being removed by that open or moved aside by
 * a second repair. Repair run again after a kill therefore finishes the job. Files in
 * {@code lost/} are never read again; a name already there is kept, the newcomer getting a
 * numeric suffix.
 *
 * <p>Cost: repair reads every table and writes the whole database once, so it needs free space
 * about the size of the database.
 *
 * <p>Requires: the database is not open (the caller holds its LOCK). Thread safety: one repair
 * at a time; an instance is used once.
 */
public final class Repairer {
    /** The subdirectory damaged and replaced files are moved into. */
    public static final String LOST_DIR = "lost";

    private final Env env;
    private final Path dir;
    private final InternalKeyComparator comparator;
    private final TableOptions tableOptions;
    private final TableSource tables;
    private final TableFileSuffix suffix;
    /** Whether the tables written are named {@code .sst}; resolved by {@link #run()}. */
    private boolean sst;
    private final long maxFileSize;
    private final Consumer<String> log;
    /** Reads separated values, to check the references kept. */
    private final ValueFiles values;

    private final List<Long> logs = new ArrayList<>();
    private final List<Long> tableNumbers = new ArrayList<>();
    private final List<String> manifests = new ArrayList<>();
    /** Readable tables (sound, or written by this repair) whose entries go into the merge. */
    private final List<Source> sources = new ArrayList<>();
    /** Files to move into {@code lost/} once the new MANIFEST is in place. */
    private final List<Path> toArchive = new ArrayList<>();
    /** Tables whose entries the merged tables hold, deleted once the new MANIFEST is in place. */
    private final List<Path> toDelete = new ArrayList<>();
    private long nextFileNumber = 1;
    private long maxSequence;
    /** Whether the directory holds value files (separated values). */
    private boolean valueFiles;
    /** The bytes of each value file that the repaired tables refer to. */
    private final VersionEdit liveBytes = new VersionEdit();
    /** Entries dropped because the value they refer to cannot be read. */
    private long danglingReferences;

    /** A table whose entries go into the merge. */
    private record Source(long number, long size) {
    }

    /**
     * @param env the environment
     * @param dir the database directory
     * @param comparator the database's key order
     * @param tableOptions how to read and write tables (comparator must be {@code comparator})
     * @param tables opens the tables repair reads and writes
     * @param maxFileSize the size at which a merged table is finished
     * @param suffix how the tables repair writes are named, resolved against the directory's
     *     tables when the repair starts ({@link FileNames#writesSst})
     * @param log receives one line per step, for the info log
     */
    public Repairer(Env env, Path dir, InternalKeyComparator comparator, TableOptions tableOptions,
                    TableSource tables, long maxFileSize, TableFileSuffix suffix, Consumer<String> log) {
        this.env = env;
        this.values = new ValueFiles(env, dir);
        this.suffix = suffix;
        this.dir = dir;
        this.comparator = comparator;
        this.tableOptions = tableOptions.withComparator(comparator).withVerifyChecksums(true);
        this.tables = tables;
        this.maxFileSize = maxFileSize;
        this.log = log;
    }

    /**
     * Runs the repair.
     *
     * @throws IOException if the directory cannot be read or written
     * @throws DBException if the directory holds no database file at all
     */
    public void run() throws IOException {
        try {
            repair();
        } finally {
            values.close();
        }
    }

    private void repair() throws IOException {
        sst = FileNames.writesSst(env, dir, suffix);
        findFiles();
        setAsideLeftovers();
        for (long number : logs) {
            convertLogToTable(number);
        }
        for (long number : tableNumbers) {
            scanTable(number);
        }
        List<FileMetaData> merged = merge();
        int level = levelFor(merged);
        writeDescriptor(merged, level);
        for (Path file : toArchive) {
            archive(file);
        }
        if (!toArchive.isEmpty()) {
            env.syncDir(dir.resolve(LOST_DIR));
        }
        for (Path file : toDelete) {
            if (env.fileExists(file)) {
                env.deleteFile(file);
            }
        }
        env.syncDir(dir);
        log.accept("repair done: " + merged.size() + (merged.size() == 1 ? " table" : " tables") + " at level " + level + ", last sequence " + maxSequence
                + (danglingReferences == 0 ? "" : ", " + danglingReferences
                        + " entries dropped: their separated values could not be read"));
    }

    private void findFiles() throws IOException {
        List<String> names = env.getChildren(dir);
        boolean any = false;
        for (String name : names) {
            FileNames.Parsed parsed = FileNames.parse(name);
            if (parsed == null) {
                continue;
            }
            any = true;
            nextFileNumber = Math.max(nextFileNumber, parsed.number() + 1);
            switch (parsed.type()) {
                case DESCRIPTOR -> manifests.add(name);
                case LOG -> logs.add(parsed.number());
                case TABLE -> tableNumbers.add(parsed.number());
                case VALUE -> valueFiles = true;
                default -> { }
            }
        }
        if (!any) {
            throw new DBException(dir + ": repair found no files");
        }
        logs.sort(null);
        tableNumbers.sort(null);
    }

    /**
     * Reads the current MANIFEST, if it reads cleanly, and takes the files it shows to be
     * leftovers out of the repair: tables below its next file number that it does not list, and
     * logs below its log number other than its previous log.
     */
    private void setAsideLeftovers() throws IOException {
        OrderedLock lock = new OrderedLock(LockRank.DATABASE);
        VersionSet versions = new VersionSet(env, dir, comparator, tables, maxFileSize, lock);
        Set<Long> live = new HashSet<>();
        long next;
        long logNumber;
        long prevLogNumber;
        lock.lock();
        try {
            versions.recover();
            versions.addLiveFiles(live);
            next = versions.nextFileNumber() - 1; // the MANIFEST's own number comes after its files
            logNumber = versions.logNumber();
            prevLogNumber = versions.prevLogNumber();
        } catch (IOException | RuntimeException e) {
            log.accept("MANIFEST not usable (" + e + "): every log and table is used");
            return;
        } finally {
            try {
                versions.close();
            } finally {
                lock.unlock();
            }
        }
        for (Long number : List.copyOf(tableNumbers)) {
            if (number < next && !live.contains(number)) {
                tableNumbers.remove(number);
                Path file = tableFile(number);
                log.accept(file.getFileName() + ": not in the MANIFEST, a leftover; to be moved aside");
                toArchive.add(file);
            }
        }
        for (Long number : List.copyOf(logs)) {
            if (number < logNumber && number != prevLogNumber) {
                logs.remove(number);
                log.accept(FileNames.logFileName(number) + ": already in tables by the MANIFEST; to be moved aside");
                toArchive.add(dir.resolve(FileNames.logFileName(number)));
            }
        }
    }

    private Path tableFile(long number) {
        Path file = dir.resolve(FileNames.tableFileName(number));
        return env.fileExists(file) ? file : dir.resolve(FileNames.sstTableFileName(number));
    }

    private void convertLogToTable(long number) throws IOException {
        Path file = dir.resolve(FileNames.logFileName(number));
        MemTable mem = new MemTable(comparator.userComparator());
        int records = 0;
        try {
            try (LogReader reader = new LogReader(env.newSequentialFile(file),
                    (bytes, reason) -> log.accept(file.getFileName() + ": dropping " + bytes + " bytes; " + reason),
                    true, 0)) {
                WriteBatchImpl batch = new WriteBatchImpl();
                MemTableInserter inserter = new MemTableInserter();
                for (ByteBuffer record = reader.readRecord(); record != null; record = reader.readRecord()) {
                    try {
                        batch.setContents(record);
                        long last = inserter.insert(batch, mem) - 1;
                        maxSequence = Math.max(maxSequence, last);
                        records++;
                    } catch (CorruptionException e) {
                        log.accept(file.getFileName() + ": ignoring batch: " + e.getMessage());
                    }
                }
            } catch (IOException e) {
                log.accept(file.getFileName() + ": read stopped: " + e.getMessage());
            }
            long tableNumber = nextFileNumber++;
            FileMetaData meta;
            try (SortedIterator it = mem.iterator()) {
                meta = TableFileWriter.writeAll(env, dir, tableNumber, sst, tableOptions, tables, it);
            }
            log.accept(file.getFileName() + ": " + records + " batches replayed"
                    + (meta == null ? ", nothing to keep" : " into " + FileNames.tableFileName(tableNumber, sst)));
            if (meta != null) {
                sources.add(new Source(meta.number(), meta.fileSize()));
                toDelete.add(dir.resolve(FileNames.tableFileName(tableNumber, sst)));
            }
        } finally {
            mem.unref();
        }
        toArchive.add(file);
    }

    /**
     * Reads a table from end to end. A sound one becomes a source as it is; a damaged one is
     * moved aside after its readable entries are copied into a new source.
     */
    private void scanTable(long number) throws IOException {
        Path file = tableFile(number);
        String name = file.getFileName().toString();
        long count = 0;
        Exception failure = null;
        try (Env.RandomAccessFile in = env.newRandomAccessFile(file)) {
            Table table = Table.open(name, in, in.size(), tableOptions);
            try (SortedIterator it = table.iterator(TableReadOptions.VERIFY)) {
                for (it.seekToFirst(); it.valid(); it.next()) {
                    maxSequence = Math.max(maxSequence, InternalKeys.sequence(trailer(it.key(), name)));
                    count++;
                }
            }
        } catch (DBException | IOException e) {
            failure = e;
        }
        if (failure == null) {
            if (count > 0) {
                sources.add(new Source(number, env.getFileSize(file)));
                toDelete.add(file);
            } else {
                log.accept(name + ": empty table, to be moved aside");
                toArchive.add(file);
            }
            return;
        }
        log.accept(name + ": " + failure.getMessage() + "; salvaging " + count + " readable entries");
        salvage(file, name);
    }

    private static long trailer(ByteBuffer key, String file) {
        if (key.remaining() < InternalKeys.TRAILER_SIZE) {
            throw new CorruptionException("internal key too short", file, CorruptionException.UNKNOWN_OFFSET);
        }
        return InternalKeys.trailer(key, key.position(), key.remaining());
    }

    /**
     * Copies the entries of a damaged table's readable blocks into a new table (a block that
     * reads but does not decode ends the copy there).
     */
    private void salvage(Path file, String name) throws IOException {
        long number = nextFileNumber++;
        try (Env.RandomAccessFile in = env.newRandomAccessFile(file)) {
            Table table = Table.open(name, in, in.size(), tableOptions);
            SortedIterator readable = table.salvagingIterator(TableReadOptions.VERIFY,
                    e -> log.accept(name + ": skipping a damaged block: " + e.getMessage()));
            try (SortedIterator it = new StopAtFirstErrorIterator(readable)) {
                FileMetaData meta = TableFileWriter.writeAll(env, dir, number, sst, tableOptions, tables, it);
                if (meta != null) {
                    sources.add(new Source(meta.number(), meta.fileSize()));
                    toDelete.add(dir.resolve(FileNames.tableFileName(number, sst)));
                }
            }
        } catch (DBException e) {
            log.accept(name + ": nothing salvaged: " + e.getMessage());
        }
        toArchive.add(file);
    }

    /**
     * Merges every source into new tables holding the newest entry of each user key, deletions
     * left out, cut at {@link #maxFileSize}.
     *
     * @return the new tables, in key order, not overlapping
     */
    private List<FileMetaData> merge() throws IOException {
        List<SortedIterator> inputs = new ArrayList<>();
        List<FileMetaData> outputs = new ArrayList<>();
        TableFileWriter out = null;
        boolean ok = false;
        try {
            for (Source f : sources) {
                inputs.add(tables.iterator(f.number(), f.size(), TableReadOptions.VERIFY));
            }
            KeyComparator ucmp = comparator.userComparator();
            byte[] previous = null;
            try (SortedIterator it = MergingIterator.of(comparator, inputs)) {
                inputs.clear(); // owned by the merging iterator now
                for (it.seekToFirst(); it.valid(); it.next()) {
                    ByteBuffer key = it.key();
                    long trailer = trailer(key, "merged tables");
                    int userLength = key.remaining() - InternalKeys.TRAILER_SIZE;
                    if (previous != null && ucmp.compare(key, key.position(), userLength,
                            ByteBuffer.wrap(previous), 0, previous.length) == 0) {
                        continue; // an older entry of a key already decided
                    }
                    previous = new byte[userLength];
                    key.get(key.position(), previous);
                    if (InternalKeys.typeByte(trailer) == ValueType.DELETION.persistentId()) {
                        continue; // deleted: nothing older survives the merge to be hidden
                    }
                    if (InternalKeys.typeByte(trailer) == ValueType.VALUE_REFERENCE.persistentId()
                            && !valueReadable(key, it.value())) {
                        continue; // its value is gone: the key goes, rather than refer to nothing
                    }
                    if (out == null) {
                        out = new TableFileWriter(env, dir, nextFileNumber++, sst, tableOptions, tables);
                    }
                    out.add(key, it.value());
                    liveBytes.countValueReference(key, it.value(), 1);
                    if (out.fileSize() >= maxFileSize) {
                        outputs.add(out.finish());
                        out = null;
                    }
                }
            }
            if (out != null) {
                outputs.add(out.finish());
                out = null;
            }
            ok = true;
        } finally {
            inputs.forEach(SortedIterator::close);
            if (out != null) {
                out.abandon();
            }
            if (!ok) {
                for (FileMetaData f : outputs) {
                    env.deleteFile(dir.resolve(FileNames.tableFileName(f.number(), sst)));
                }
            }
        }
        return outputs;
    }

    /** The first level from 1 whose size limit holds every merged table. */
    private static int levelFor(List<FileMetaData> merged) {
        long total = 0;
        for (FileMetaData f : merged) {
            total += f.fileSize();
        }
        int level = 1;
        while (level < VersionSet.NUM_LEVELS - 1 && total > VersionSet.maxBytesForLevel(level)) {
            level++;
        }
        return level;
    }

    /**
     * Whether the separated value an entry refers to can be read whole, its checksum verified:
     * every kept reference must name a value that is there.
     */
    private boolean valueReadable(ByteBuffer key, ByteBuffer reference) {
        try {
            values.read(ValueReference.decode(reference));
            return true;
        } catch (DBException e) {
            danglingReferences++;
            log.accept(InternalKeys.toString(Bytes.copy(key, key.position(), key.remaining()))
                    + ": dropped, its value cannot be read: " + e.getMessage());
            return false;
        }
    }

    private void writeDescriptor(List<FileMetaData> merged, int level) throws IOException {
        long manifestNumber = nextFileNumber++;
        // Every log is now in a table: a log number above them all keeps the next open from
        // replaying them if the kill comes before they are moved aside.
        VersionEdit edit = new VersionEdit()
                // Value files mean entries may refer to them: the MANIFEST keeps other
                // implementations out (SeparatedFormat).
                .setComparatorName(valueFiles ? SeparatedFormat.markedName(comparator.name()) : comparator.name())
                .setLogNumber(nextFileNumber)
                .setNextFileNumber(nextFileNumber + 1)
                .setLastSequence(maxSequence);
        for (FileMetaData table : merged) {
            edit.addFile(level, table);
        }
        for (String manifest : manifests) {
            toArchive.add(dir.resolve(manifest));
        }
        // The values the tables refer to are durable before the MANIFEST naming the tables is.
        for (long valueFile : liveBytes.valueFileLiveBytes().keySet()) {
            Path path = dir.resolve(FileNames.valueFileName(valueFile));
            if (env.fileExists(path)) {
                ValueFiles.sync(env, path);
            }
        }
        Path temp = dir.resolve(FileNames.tempFileName(manifestNumber));
        try (LogWriter writer = new LogWriter(env.newWritableFile(temp))) {
            writer.addRecord(edit.encode());
            if (!liveBytes.valueFileLiveBytes().isEmpty()) {
                // After the record naming the comparator, as VersionSet writes it.
                writer.addRecord(liveBytes.encode());
            }
            writer.sync();
        }
        env.renameFile(temp, dir.resolve(FileNames.descriptorFileName(manifestNumber)));
        // The MANIFEST's name and the new tables' names are durable before CURRENT names them.
        env.syncDir(dir);
        FileNames.setCurrentFile(env, dir, manifestNumber);
        log.accept(FileNames.descriptorFileName(manifestNumber) + ": written, " + merged.size() + " tables");
    }

    private void archive(Path file) throws IOException {
        Path lost = dir.resolve(LOST_DIR);
        env.createDir(lost);
        if (!env.fileExists(file)) {
            return; // listed twice, e.g. a damaged table that was also empty
        }
        String name = file.getFileName().toString();
        Path target = lost.resolve(name);
        for (int i = 1; env.fileExists(target); i++) {
            target = lost.resolve(name + "." + i); // an earlier repair's file of the same name stays
        }
        env.renameFile(file, target);
        log.accept(name + ": moved to " + LOST_DIR + "/" + target.getFileName());
    }
}
