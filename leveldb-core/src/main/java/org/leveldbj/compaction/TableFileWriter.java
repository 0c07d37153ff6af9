package org.leveldbj.compaction;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.SplittableRandom;
import org.iq80.leveldb.Env;
import org.leveldbj.env.IoErrors;
import org.leveldbj.filename.FileNames;
import org.leveldbj.iterator.SortedIterator;
import org.leveldbj.table.TableBuilder;
import org.leveldbj.table.TableOptions;
import org.leveldbj.table.TableReadOptions;
import org.leveldbj.version.FileMetaData;
import org.leveldbj.version.TableSource;
import org.leveldbj.version.VersionEdit;

/**
 * Writes one table file ({@code NNNNNN.sst} or {@code .ldb}) and describes it: entries are
 * added in key order; {@link #finish()} completes, syncs and closes the file, syncs its
 * directory (so that the name is as durable as the data; a compaction writing several tables
 * syncs it once after the last, see {@link #finish(boolean)}), checks that it opens, and returns
 * its {@link FileMetaData} (with the entry counts when the options write a stats block);
 * {@link #abandon()} deletes it. A failure to write the file is
 * reported by an {@link IOException} naming it.
 *
 * <p>Thread safety: confined to one thread.
 */
public final class TableFileWriter {
    private final Path path;
    private final Env env;
    private final long number;
    private final TableSource tables;
    private final Env.WritableFile file;
    private final TableBuilder builder;
    /** Whether the builder tells deletions apart (and so writes a stats block). */
    private final boolean countsDeletions;
    private byte[] smallest;
    private boolean done;

    /** About how many live keys of a table are looked up in older data ({@link #sampleNovelty}). */
    static final int NOVELTY_SAMPLES = 64;
    /** Where the sampled live keys are looked up, or {@code null}: no sampling. */
    private OlderData older;
    /**
     * About one live key in {@code stride} is looked up, the first one first: the gap to the next
     * is drawn at random between 1 and {@code 2 * stride}, so that the sample cannot fall in step
     * with a pattern in the keys (a fixed gap can: keys written in a strided order put every
     * sampled key on one side of an older table's pattern).
     */
    private long stride = 1;
    private long nextSampleAt = 1;
    private SplittableRandom gaps;
    private long sampled;
    private long novel;

    /**
     * Creates the file.
     *
     * @param env the environment
     * @param dbDir the database directory
     * @param number the file number
     * @param sst whether the file is named {@code .sst} rather than {@code .ldb}
     * @param options the table settings
     * @param tables used to check that the finished table opens
     * @throws IOException if the file cannot be created
     */
    public TableFileWriter(Env env, Path dbDir, long number, boolean sst, TableOptions options, TableSource tables)
            throws IOException {
        this.env = env;
        this.path = dbDir.resolve(FileNames.tableFileName(number, sst));
        this.number = number;
        this.tables = tables;
        this.file = env.newWritableFile(path);
        this.builder = new TableBuilder(options, file);
        this.countsDeletions = options.entryClassifier() != null;
    }

    /**
     * Adds an entry. Requires: keys in increasing order.
     *
     * @param key the internal key (remaining bytes)
     * @param value the value (remaining bytes)
     * @throws IOException if writing fails
     */
    public void add(ByteBuffer key, ByteBuffer value) throws IOException {
        int length = key.remaining();
        if (smallest == null) {
            smallest = new byte[length];
            key.get(key.position(), smallest);
        }
        long liveBefore = builder.liveKeys();
        try {
            builder.add(key, value);
        } catch (IOException e) {
            throw IoErrors.withPath(path, e);
        }
        if (older != null && builder.liveKeys() != liveBefore && builder.liveKeys() >= nextSampleAt) {
            sample(key);
        }
    }

    /**
     * Samples the table's live keys (user keys whose newest version here is a value) and looks
     * them up in the data older than the table, so that its stats block records how many of its
     * live keys are new to the database ({@link org.leveldbj.table.KeyCounts#novelLiveKeys()}).
     * About one live key in {@code expectedLiveKeys / }{@value #NOVELTY_SAMPLES} is looked up, the
     * first one included, at random gaps: about {@value #NOVELTY_SAMPLES} lookups per table
     * whatever its size (each reads a block of a table below at most once per level, bloom
     * filters permitting),
     * fewer when the table ends smaller than expected, more when it grows larger. Without a call,
     * every live key is taken to be new. Requires: before the first {@link #add}.
     *
     * @param olderData where to look the keys up
     * @param expectedLiveKeys about how many live keys the table will hold
     */
    public void sampleNovelty(OlderData olderData, long expectedLiveKeys) {
        this.older = olderData;
        this.stride = Math.max(1, expectedLiveKeys / NOVELTY_SAMPLES);
        this.gaps = new SplittableRandom(number); // reproducible per table
    }

    private void sample(ByteBuffer key) {
        sampled++;
        if (!older.holdsLive(key)) {
            novel++;
        }
        nextSampleAt = builder.liveKeys() + 1 + gaps.nextLong(2 * stride);
    }

    /**
     * Notes that the last deletion added hid an older value that the caller dropped: see
     * {@link TableBuilder#settleDeletion()}. Without a stats block, does nothing.
     */
    public void settleDeletion() {
        if (countsDeletions) {
            builder.settleDeletion();
        }
    }

    /** @return the number of entries added */
    public long numEntries() {
        return builder.numEntries();
    }

    /** @return the bytes written so far */
    public long fileSize() {
        return builder.fileSize();
    }

    /** @return the file number */
    public long number() {
        return number;
    }

    /**
     * Completes the table and syncs its directory. Requires: at least one entry.
     *
     * @return the table's metadata
     * @throws IOException if writing, syncing or reopening fails (the file is then deleted)
     */
    public FileMetaData finish() throws IOException {
        return finish(true);
    }

    /**
     * Completes the table: writes the rest, syncs and closes the file, and checks that it opens.
     * Requires: at least one entry.
     *
     * @param syncDirectory whether to sync the directory too; a caller writing several tables
     *     passes {@code false} and syncs the directory once after the last, before any MANIFEST
     *     names them
     * @return the table's metadata
     * @throws IOException if writing, syncing or reopening fails (the file is then deleted)
     */
    public FileMetaData finish(boolean syncDirectory) throws IOException {
        complete();
        try {
            return syncAndOpen(syncDirectory);
        } catch (IOException | RuntimeException e) {
            deleteFileQuietly(e);
            throw e;
        }
    }

    /**
     * Writes the rest of the table (the last data block, the filter, index and footer), leaving
     * the file neither synced nor closed: {@link #syncAndOpen} does that, possibly on another
     * thread. Requires: at least one entry.
     *
     * @throws IOException if writing fails (the file is then deleted)
     */
    void complete() throws IOException {
        assert builder.numEntries() > 0;
        done = true;
        if (older != null && sampled > 0) {
            builder.setNovelShare((double) novel / sampled);
        }
        try {
            builder.finish();
        } catch (IOException e) {
            IOException named = IoErrors.withPath(path, e);
            deleteQuietly(named);
            throw named;
        } catch (RuntimeException e) {
            deleteQuietly(e);
            throw e;
        }
    }

    /**
     * Syncs and closes a {@link #complete() completed} table and checks that it opens. May run
     * on another thread than the one that wrote the table, once that one has handed it over; it
     * deletes nothing, so that only the database's background step deletes files.
     *
     * @param syncDirectory whether to sync the directory too (see {@link #finish(boolean)})
     * @return the table's metadata
     * @throws IOException if syncing or reopening fails (the file is then closed, and left for
     *     the caller to delete)
     */
    FileMetaData syncAndOpen(boolean syncDirectory) throws IOException {
        try {
            try {
                file.sync();
                file.close();
            } catch (IOException e) {
                throw IoErrors.withPath(path, e);
            }
            if (syncDirectory) {
                // Make the name durable too: a MANIFEST naming this table must never outlive it.
                env.syncDir(path.getParent());
            }
            long size = builder.fileSize();
            try (SortedIterator it = tables.iterator(number, size, TableReadOptions.DEFAULT)) {
                it.seekToFirst();
            }
            return new FileMetaData(number, size, smallest, builder.lastKey(),
                    countsDeletions ? builder.entryCounts() : null);
        } catch (IOException | RuntimeException e) {
            closeQuietly(e);
            throw e;
        }
    }

    /** Gives up on the table and deletes its file. Does nothing after {@link #finish()}. */
    public void abandon() {
        if (done) {
            return;
        }
        done = true;
        builder.abandon();
        RuntimeException holder = new RuntimeException();
        deleteQuietly(holder);
    }

    /**
     * Writes every entry of an iterator (a memtable's) to a new table, as C++ BuildTable does.
     *
     * @param env the environment
     * @param dbDir the database directory
     * @param number the file number
     * @param sst whether the file is named {@code .sst} rather than {@code .ldb}
     * @param options the table settings
     * @param tables used to check that the finished table opens
     * @param entries the entries, in key order; closed by the caller
     * @return the table's metadata, or {@code null} when there were no entries (no file is left)
     * @throws IOException if writing fails (no file is left)
     */
    public static FileMetaData writeAll(Env env, Path dbDir, long number, boolean sst, TableOptions options,
                                        TableSource tables, SortedIterator entries) throws IOException {
        return writeAll(env, dbDir, number, sst, options, tables, entries, null);
    }

    /**
     * Writes every entry of an iterator to a new table, as
     * {@link #writeAll(Env, Path, long, boolean, TableOptions, TableSource, SortedIterator)}
     * does, counting the separated values written in an edit.
     *
     * @param env the environment
     * @param dbDir the database directory
     * @param number the table's file number
     * @param sst whether to name it {@code .sst} rather than {@code .ldb}
     * @param options table settings
     * @param tables used to check that the finished table opens
     * @param entries the entries, in key order; closed by the caller
     * @param liveBytes receives the record sizes of the references written, or {@code null}
     * @return the table's metadata, or {@code null} when there were no entries (no file is left)
     * @throws IOException if writing fails (no file is left)
     */
    public static FileMetaData writeAll(Env env, Path dbDir, long number, boolean sst, TableOptions options,
                                        TableSource tables, SortedIterator entries, VersionEdit liveBytes)
            throws IOException {
        return writeAll(env, dbDir, number, sst, options, tables, entries, liveBytes, true);
    }

    /**
     * Writes every entry of an iterator to a new table, as
     * {@link #writeAll(Env, Path, long, boolean, TableOptions, TableSource, SortedIterator, VersionEdit)}
     * does, syncing the directory or not.
     *
     * @param env the environment
     * @param dbDir the database directory
     * @param number the table's file number
     * @param sst whether to name it {@code .sst} rather than {@code .ldb}
     * @param options table settings
     * @param tables used to check that the finished table opens
     * @param entries the entries, in key order; closed by the caller
     * @param liveBytes receives the record sizes of the references written, or {@code null}
     * @param syncDirectory whether to sync the directory after the table; a caller passing
     *     {@code false} syncs it before any MANIFEST naming the table can be in force
     * @return the table's metadata, or {@code null} when there were no entries (no file is left)
     * @throws IOException if writing fails (no file is left)
     */
    public static FileMetaData writeAll(Env env, Path dbDir, long number, boolean sst, TableOptions options,
                                        TableSource tables, SortedIterator entries, VersionEdit liveBytes,
                                        boolean syncDirectory) throws IOException {
        return writeAll(env, dbDir, number, sst, options, tables, entries, liveBytes, syncDirectory, null, 0);
    }

    /**
     * Writes every entry of an iterator to a new table, as
     * {@link #writeAll(Env, Path, long, boolean, TableOptions, TableSource, SortedIterator, VersionEdit, boolean)}
     * does, sampling its live keys in older data ({@link #sampleNovelty}).
     *
     * @param env the environment
     * @param dbDir the database directory
     * @param number the table's file number
     * @param sst whether to name it {@code .sst} rather than {@code .ldb}
     * @param options table settings
     * @param tables used to check that the finished table opens
     * @param entries the entries, in key order; closed by the caller
     * @param liveBytes receives the record sizes of the references written, or {@code null}
     * @param syncDirectory whether to sync the directory after the table
     * @param olderData the data older than the entries, or {@code null}: no sampling
     * @param expectedLiveKeys about how many live keys the entries hold
     * @return the table's metadata, or {@code null} when there were no entries (no file is left)
     * @throws IOException if writing fails (no file is left)
     */
    public static FileMetaData writeAll(Env env, Path dbDir, long number, boolean sst, TableOptions options,
                                        TableSource tables, SortedIterator entries, VersionEdit liveBytes,
                                        boolean syncDirectory, OlderData olderData, long expectedLiveKeys)
            throws IOException {
        entries.seekToFirst();
        if (!entries.valid()) {
            return null;
        }
        TableFileWriter out = new TableFileWriter(env, dbDir, number, sst, options, tables);
        if (olderData != null) {
            out.sampleNovelty(olderData, expectedLiveKeys);
        }
        try {
            for (; entries.valid(); entries.next()) {
                out.add(entries.key(), entries.value());
                if (liveBytes != null) {
                    liveBytes.countValueReference(entries.key(), entries.value(), 1);
                }
            }
        } catch (IOException | RuntimeException e) {
            out.abandon();
            throw e;
        }
        return out.finish(syncDirectory);
    }

    private void deleteQuietly(Exception e) {
        closeQuietly(e);
        deleteFileQuietly(e);
    }

    private void closeQuietly(Exception e) {
        try {
            file.close();
        } catch (IOException suppressed) {
            e.addSuppressed(suppressed);
        }
    }

    private void deleteFileQuietly(Exception e) {
        try {
            if (env.fileExists(path)) {
                env.deleteFile(path);
            }
        } catch (IOException suppressed) {
            e.addSuppressed(suppressed);
        }
    }
}
