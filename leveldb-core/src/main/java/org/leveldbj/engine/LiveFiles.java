package org.leveldbj.engine;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.iq80.leveldb.Env;
import org.leveldbj.filename.FileNames;
import org.leveldbj.filename.FileType;
import org.leveldbj.iterator.SortedIterator;
import org.leveldbj.key.InternalKeys;
import org.leveldbj.key.ValueType;
import org.leveldbj.log.LogWriter;
import org.leveldbj.memtable.MemTable;
import org.leveldbj.version.FileMetaData;
import org.leveldbj.version.VersionSet;

/**
 * What a copy of a live database consists of, fixed at one sequence number: the files to carry
 * over unchanged (the tables of the current version, the value files they and the memtables
 * refer to), and the two files a copy needs of its own, generated here: a log holding the
 * memtables' entries up to that sequence number, and a MANIFEST that describes the version and
 * names that log. A checkpoint writes them into a new directory; a backup into its store.
 *
 * <p>Consistency: {@link #capture} reads the last sequence number and pins the published view
 * (memtable, immutable memtable, version) under the database lock, where both are set together
 * after a write is applied; so the copy holds every write acknowledged before the capture (at or
 * below {@link #sequence()}) and none that started after it (above it, whether it reaches the
 * memtable meanwhile or not). Nothing is flushed: capturing costs a directory listing and a few
 * file opens under the lock.
 *
 * <p>Lifetime: the pinned view keeps the version's tables from deletion and the memtables
 * alive; each value file is opened during the capture, so a sweep that deletes it meanwhile
 * does not take its bytes away. {@link #close()} releases all of it; the copy must be finished
 * before.
 *
 * <p>Byte layout of what is generated: the log is LevelDB's log format (doc/log_format.md), write
 * batches of the newest entry at or below the captured sequence number of each key, the
 * immutable memtable's first, then the memtable's, numbered afresh in that order from just above
 * the MANIFEST's last sequence number (so the copy's sequence numbers run on from its tables',
 * increase through the log as C++ LevelDB and goleveldb require, and a key in both memtables
 * ends with the newer entry; older entries of a key matter only to snapshots, which a copy does
 * not have). The MANIFEST is the version as one edit (comparator, compact pointers, files), the
 * value files' live bytes when there are any, then log number, next file number and the last
 * sequence number the database's MANIFEST records, below the log's.
 *
 * <p>Thread safety: one thread at a time.
 */
public final class LiveFiles implements AutoCloseable {
    /** A file of the database to carry over into the copy under the same name. */
    public static final class LiveFile {
        private final Path source;
        private final FileType type;
        private final long length;
        /** A value file's opening made during the capture, until handed out. */
        private Env.SequentialFile opened;

        LiveFile(Path source, FileType type, long length, Env.SequentialFile opened) {
            this.source = source;
            this.type = type;
            this.length = length;
            this.opened = opened;
        }

        /** @return the file's name, which the copy keeps */
        public String name() {
            return source.getFileName().toString();
        }

        /** @return {@link FileType#TABLE} or {@link FileType#VALUE} */
        public FileType type() {
            return type;
        }

        /** @return the bytes the copy holds: a table whole, a value file as long as it was at the capture */
        public long length() {
            return length;
        }

        /** @return the file in the database directory */
        public Path source() {
            return source;
        }

        /**
         * Opens the file for reading its first {@link #length()} bytes. A value file's opening
         * was made during the capture (the file may be deleted since) and is handed out once.
         *
         * @param env the database's environment
         * @return the file, positioned at its start; the caller closes it
         * @throws IOException if it cannot be opened
         */
        public Env.SequentialFile open(Env env) throws IOException {
            if (type == FileType.VALUE) {
                Env.SequentialFile file = opened;
                if (file == null) {
                    throw new IOException(source + ": already opened once for this copy");
                }
                opened = null;
                return file;
            }
            return env.newSequentialFile(source);
        }

        /**
         * Puts the file into a copy: a hard link for a table where the environment can make one
         * (tables never change), a copy of the captured length otherwise.
         *
         * @param env the environment of the database and the target
         * @param target the new file
         * @return {@code true} if linked
         * @throws IOException if neither works
         */
        public boolean linkOrCopyTo(Env env, Path target) throws IOException {
            if (type == FileType.TABLE) {
                return env.linkOrCopyFile(source, target);
            }
            try (Env.SequentialFile in = open(env)) {
                env.copyFile(in, target, length);
            }
            return false;
        }

        void closeOpened() throws IOException {
            Env.SequentialFile file = opened;
            opened = null;
            if (file != null) {
                file.close();
            }
        }
    }

    private final DbState s;
    private final ReadView view;
    private final long sequence;
    private final long recordedSequence;
    private final long logNumber;
    private final long manifestNumber;
    private final List<byte[]> manifestRecords;
    private final List<LiveFile> files;
    private boolean closed;

    private LiveFiles(DbState s, ReadView view, long sequence, long recordedSequence, long logNumber,
                      long manifestNumber, List<byte[]> manifestRecords, List<LiveFile> files) {
        this.s = s;
        this.view = view;
        this.sequence = sequence;
        this.recordedSequence = recordedSequence;
        this.logNumber = logNumber;
        this.manifestNumber = manifestNumber;
        this.manifestRecords = manifestRecords;
        this.files = files;
    }

    /**
     * Fixes what a copy of the database holds now. Takes the database lock.
     *
     * @param s the open database's state
     * @return the captured files, to close once copied
     * @throws IOException if the directory cannot be listed or a value file opened
     */
    static LiveFiles capture(DbState s) throws IOException {
        List<LiveFile> files = new ArrayList<>();
        ReadView view = null;
        s.mutex.lock();
        try {
            s.checkBackgroundError();
            long sequence = s.versions.lastSequence();
            view = s.pinReadView();
            VersionSet versions = s.versions;
            for (int level = 0; level < VersionSet.NUM_LEVELS; level++) {
                for (FileMetaData f : view.version.files(level)) {
                    files.add(new LiveFile(tableFile(s, f.number()), FileType.TABLE, f.fileSize(), null));
                }
            }
            Map<Long, Long> referenced = versions.valueFileLiveBytes();
            for (Map.Entry<Long, Long> e : s.valueLog.fileSizes().entrySet()) {
                long number = e.getKey();
                if (referenced.containsKey(number) || view.mem.mayReferToValueFile(number)
                        || (view.imm != null && view.imm.mayReferToValueFile(number))) {
                    Path path = s.dir.resolve(FileNames.valueFileName(number));
                    // The size read after the sequence number covers every reference at or below it:
                    // a value is in its file before its write is applied.
                    files.add(new LiveFile(path, FileType.VALUE, s.env.getFileSize(path), s.env.newSequentialFile(path)));
                }
            }
            // Numbered before the records are made, so that their next file number lies above both.
            long logNumber = versions.newFileNumber();
            long manifestNumber = versions.newFileNumber();
            List<byte[]> records = versions.checkpointRecords(logNumber);
            LiveFiles captured = new LiveFiles(s, view, sequence, versions.recordedSequence(), logNumber,
                    manifestNumber, records, Collections.unmodifiableList(files));
            view = null;
            return captured;
        } catch (IOException | RuntimeException e) {
            for (LiveFile f : files) {
                try {
                    f.closeOpened();
                } catch (IOException suppressed) {
                    e.addSuppressed(suppressed);
                }
            }
            throw e;
        } finally {
            s.mutex.unlock();
            if (view != null) {
                view.unpin();
            }
        }
    }

    /** The table file of a number as the directory names it ({@code .ldb} or {@code .sst}). */
    private static Path tableFile(DbState s, long number) {
        Path ldb = s.dir.resolve(FileNames.tableFileName(number));
        return s.env.fileExists(ldb) ? ldb : s.dir.resolve(FileNames.sstTableFileName(number));
    }

    /** @return the database's environment, which {@link LiveFile#open} reads the files with */
    public Env env() {
        return s.env;
    }

    /** @return the database's directory */
    public Path directory() {
        return s.dir;
    }

    /** @return the last sequence number the copy holds */
    public long sequence() {
        return sequence;
    }

    /** @return the files to carry over, tables first (by level), then value files */
    public List<LiveFile> files() {
        return files;
    }

    /** @return the name of the generated log ({@code NNNNNN.log}) */
    public String logName() {
        return FileNames.logFileName(logNumber);
    }

    /** @return the name of the generated MANIFEST ({@code MANIFEST-NNNNNN}) */
    public String manifestName() {
        return FileNames.descriptorFileName(manifestNumber);
    }

    /** @return the generated MANIFEST's number, for {@code CURRENT} */
    public long manifestNumber() {
        return manifestNumber;
    }

    /**
     * Writes the log of the memtables' entries at or below {@link #sequence()} (the newest of each
     * key) and syncs it.
     *
     * @param env the environment to write with
     * @param file the new file
     * @return the number of entries written
     * @throws IOException if writing fails
     */
    public long writeLog(Env env, Path file) throws IOException {
        try (LogWriter log = new LogWriter(env.newWritableFile(file));
             LogBatches batches = new LogBatches(log, recordedSequence + 1)) {
            if (view.imm != null) {
                writeNewest(view.imm, batches);
            }
            writeNewest(view.mem, batches);
            batches.finish();
            log.sync();
            return batches.entries();
        }
    }

    /** Adds the newest entry at or below the captured sequence number of each key of a memtable. */
    private void writeNewest(MemTable mem, LogBatches batches) throws IOException {
        byte[] previous = null;
        try (SortedIterator it = mem.iterator()) {
            for (it.seekToFirst(); it.valid(); it.next()) {
                ByteBuffer key = it.key();
                long trailer = InternalKeys.trailer(key, key.position(), key.remaining());
                if (InternalKeys.sequence(trailer) > sequence) {
                    continue; // started after the capture
                }
                byte[] userKey = new byte[key.remaining() - InternalKeys.TRAILER_SIZE];
                key.get(key.position(), userKey);
                if (previous != null && mem.userComparator().compare(previous, userKey) == 0) {
                    continue; // an older entry of the key just written (entries of a key come newest first)
                }
                previous = userKey;
                ByteBuffer value = it.value();
                byte[] valueBytes = new byte[value.remaining()];
                value.get(value.position(), valueBytes);
                batches.add(ValueType.fromPersistentId(InternalKeys.typeByte(trailer)), userKey, valueBytes);
            }
        }
    }

    /**
     * Writes the MANIFEST and syncs it.
     *
     * @param env the environment to write with
     * @param file the new file
     * @throws IOException if writing fails
     */
    public void writeManifest(Env env, Path file) throws IOException {
        try (LogWriter writer = new LogWriter(env.newWritableFile(file))) {
            for (byte[] record : manifestRecords) {
                writer.addRecord(record);
            }
            writer.sync();
        }
    }

    /**
     * Releases the pinned view and the value files' openings not yet handed out.
     *
     * @throws IOException if closing a file fails
     */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        IOException failure = null;
        for (LiveFile f : files) {
            try {
                f.closeOpened();
            } catch (IOException e) {
                failure = e;
            }
        }
        view.unpin();
        if (failure != null) {
            throw failure;
        }
    }

    @Override
    public String toString() {
        return "LiveFiles[" + s.dir + " at sequence " + sequence + ", " + files.size() + " files]";
    }
}
