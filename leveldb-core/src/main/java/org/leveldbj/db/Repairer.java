package org.leveldbj.db;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.iq80.leveldb.CorruptionException;
import org.iq80.leveldb.DBException;
import org.iq80.leveldb.Env;
import org.leveldbj.compaction.TableFileWriter;
import org.leveldbj.iterator.SortedIterator;
import org.leveldbj.key.InternalKeyComparator;
import org.leveldbj.key.InternalKeys;
import org.leveldbj.log.LogReader;
import org.leveldbj.log.LogWriter;
import org.leveldbj.memtable.MemTable;
import org.leveldbj.table.Table;
import org.leveldbj.table.TableOptions;
import org.leveldbj.table.TableReadOptions;
import org.leveldbj.util.ByteSink;
import org.leveldbj.version.FileMetaData;
import org.leveldbj.version.TableSource;
import org.leveldbj.version.VersionEdit;

/**
 * Rebuilds a usable database from whatever logs and tables in its directory are readable, in
 * the manner of C++ LevelDB's RepairDB, but safe against a crash at any point:
 * <ol>
 *   <li>every write-ahead log is replayed (skipping damaged records) into a new level-0 table;
 *   <li>every table is read from end to end: a sound table is kept as it is; a damaged one has
 *       its readable entries (those before the first error) copied to a new table;
 *   <li>a new MANIFEST, under a new file number, lists every kept table at level 0 with the
 *       largest sequence number seen and a log number above every replayed log; it is synced,
 *       the directory is synced, and CURRENT is pointed at it (written to a temporary file,
 *       synced, renamed, directory synced). <b>This is the commit point.</b>
 *   <li>only then are the replayed logs, the damaged and empty tables and the old MANIFESTs
 *       moved into {@code lost/}.
 * </ol>
 * Nothing is moved, renamed over or deleted before the commit point, so a repair killed before
 * it leaves the database exactly as it was, plus some new tables that no MANIFEST names (the
 * next open sweeps them, or the next repair keeps them: they hold copies of entries with their
 * original sequence numbers, so duplicates are harmless). A repair killed after it leaves a
 * database that opens with every recovered entry; files not yet moved aside are then removed
 * by that open as obsolete, or moved aside by a repair run again. Running repair again after a
 * kill therefore always finishes the job, and never loses an entry the first run could read.
 * Files already in {@code lost/} are never read again: they may hold entries that later
 * deletions (since compacted away) no longer hide.
 *
 * <p>Requires: the database is not open (the caller holds its LOCK). Thread safety: one repair
 * at a time; an instance is used once.
 */
public final class Repairer {
    /** The subdirectory damaged and converted files are moved into. */
    public static final String LOST_DIR = "lost";

    private final Env env;
    private final Path dir;
    private final InternalKeyComparator comparator;
    private final TableOptions tableOptions;
    private final TableSource tables;
    private final Consumer<String> log;

    private final List<Long> logs = new ArrayList<>();
    private final List<Long> tableNumbers = new ArrayList<>();
    private final List<String> manifests = new ArrayList<>();
    private final List<FileMetaData> kept = new ArrayList<>();
    /** Files to move into {@code lost/} once the new MANIFEST is in place. */
    private final List<Path> toArchive = new ArrayList<>();
    private long nextFileNumber = 1;
    private long maxSequence;

    /**
     * @param env the environment
     * @param dir the database directory
     * @param comparator the database's key order
     * @param tableOptions how to read and write tables (comparator must be {@code comparator})
     * @param tables opens the tables repair writes, to check them
     * @param log receives one line per step, for the info log
     */
    public Repairer(Env env, Path dir, InternalKeyComparator comparator, TableOptions tableOptions,
                    TableSource tables, Consumer<String> log) {
        this.env = env;
        this.dir = dir;
        this.comparator = comparator;
        this.tableOptions = tableOptions.withComparator(comparator).withVerifyChecksums(true);
        this.tables = tables;
        this.log = log;
    }

    /**
     * Runs the repair.
     *
     * @throws IOException if the directory cannot be read or written
     * @throws DBException if the directory holds no database file at all
     */
    public void run() throws IOException {
        findFiles();
        for (long number : logs) {
            convertLogToTable(number);
        }
        for (long number : tableNumbers) {
            scanTable(number);
        }
        writeDescriptor();
        for (Path file : toArchive) {
            archive(file);
        }
        if (!toArchive.isEmpty()) {
            env.syncDir(dir.resolve(LOST_DIR));
            env.syncDir(dir);
        }
        log.accept("repair done: " + kept.size() + " tables kept, last sequence " + maxSequence);
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
                default -> { }
            }
        }
        if (!any) {
            throw new DBException(dir + ": repair found no files");
        }
        logs.sort(null);
        tableNumbers.sort(null);
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
                for (ByteBuffer record = reader.readRecord(); record != null; record = reader.readRecord()) {
                    try {
                        batch.setContents(record);
                        long last = mem.addAll(batch) - 1;
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
                meta = TableFileWriter.writeAll(env, dir, tableNumber, tableOptions, tables, it);
            }
            log.accept(file.getFileName() + ": " + records + " batches replayed"
                    + (meta == null ? ", nothing to keep" : " into " + FileNames.tableFileName(tableNumber)));
            if (meta != null) {
                tableNumbers.add(tableNumber);
            }
        } finally {
            mem.unref();
        }
        toArchive.add(file);
    }

    private void scanTable(long number) throws IOException {
        Path file = dir.resolve(FileNames.tableFileName(number));
        if (!env.fileExists(file)) {
            file = dir.resolve(FileNames.sstTableFileName(number));
        }
        String name = file.getFileName().toString();
        long count = 0;
        ByteSink smallest = new ByteSink();
        ByteSink largest = new ByteSink();
        Exception failure = null;
        try (Env.RandomAccessFile in = env.newRandomAccessFile(file)) {
            Table table = Table.open(name, in, in.size(), tableOptions);
            try (SortedIterator it = table.iterator(TableReadOptions.VERIFY)) {
                for (it.seekToFirst(); it.valid(); it.next()) {
                    ByteBuffer key = it.key();
                    if (key.remaining() < InternalKeys.TRAILER_SIZE) {
                        throw new CorruptionException("internal key too short", name, CorruptionException.UNKNOWN_OFFSET);
                    }
                    long trailer = InternalKeys.trailer(key, key.position(), key.remaining());
                    maxSequence = Math.max(maxSequence, InternalKeys.sequence(trailer));
                    if (count++ == 0) {
                        smallest.put(key, key.position(), key.remaining());
                    }
                    largest.reset();
                    largest.put(key, key.position(), key.remaining());
                }
            }
        } catch (DBException | IOException e) {
            failure = e;
        }
        if (failure == null) {
            if (count > 0) {
                kept.add(new FileMetaData(number, env.getFileSize(file), smallest.toByteArray(), largest.toByteArray()));
            } else {
                log.accept(name + ": empty table, to be moved aside");
                toArchive.add(file);
            }
            return;
        }
        log.accept(name + ": " + failure.getMessage() + "; salvaging " + count + " readable entries");
        salvage(file, name);
    }

    /** Copies the entries of a damaged table up to the first error into a new table. */
    private void salvage(Path file, String name) throws IOException {
        long number = nextFileNumber++;
        try (Env.RandomAccessFile in = env.newRandomAccessFile(file)) {
            Table table = Table.open(name, in, in.size(), tableOptions);
            try (SortedIterator it = new StopAtFirstErrorIterator(table.iterator(TableReadOptions.VERIFY))) {
                FileMetaData meta = TableFileWriter.writeAll(env, dir, number, tableOptions, tables, it);
                if (meta != null) {
                    kept.add(meta);
                }
            }
        } catch (DBException e) {
            log.accept(name + ": nothing salvaged: " + e.getMessage());
        }
        toArchive.add(file);
    }

    private void writeDescriptor() throws IOException {
        long manifestNumber = nextFileNumber++;
        // Every replayed log is now in a table: a log number above them all keeps the next open
        // from replaying them a second time if the kill comes before they are moved aside.
        VersionEdit edit = new VersionEdit()
                .setComparatorName(comparator.name())
                .setLogNumber(nextFileNumber)
                .setNextFileNumber(nextFileNumber + 1)
                .setLastSequence(maxSequence);
        for (FileMetaData table : kept) {
            edit.addFile(0, table);
        }
        for (String manifest : manifests) {
            toArchive.add(dir.resolve(manifest));
        }
        Path temp = dir.resolve(FileNames.tempFileName(manifestNumber));
        try (LogWriter writer = new LogWriter(env.newWritableFile(temp))) {
            writer.addRecord(edit.encode());
            writer.sync();
        }
        env.renameFile(temp, dir.resolve(FileNames.descriptorFileName(manifestNumber)));
        // The MANIFEST's name and the new tables' names are durable before CURRENT names them.
        env.syncDir(dir);
        FileNames.setCurrentFile(env, dir, manifestNumber);
        log.accept(FileNames.descriptorFileName(manifestNumber) + ": written, " + kept.size() + " tables");
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
