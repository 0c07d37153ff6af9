package org.leveldbj.kafka.streams;

import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.iq80.leveldb.DBException;
import org.iq80.leveldb.Env;
import org.iq80.leveldb.ExtendedDB;
import org.iq80.leveldb.IngestOptions;
import org.iq80.leveldb.TableWriter;

/**
 * Restoration at ingest speed: while the changelog records restored into a store that held no
 * data come in strictly increasing key order (a changelog of keys written in order: time series,
 * sequence numbers, a sorted import), they are written straight into sorted table files with a
 * {@link TableWriter}, with no memtable and no compaction, and the files join the database in
 * one ingestion (moved in, placed at the deepest level) when the run ends.
 *
 * <p>The run ends ({@link #seal()}) at the first record that does not come after the previous
 * one, and before anything else uses the store's data: a read, a write, an iterator, a commit
 * (so the offsets a commit stores never claim data the database lacks), a close. A deletion
 * within a run deletes nothing (the store held no data and every later key is new) and is
 * skipped. The files are written beside the database, in {@code <name>.restore}, which opening
 * the store empties: after a crash in the middle of a run the changelog restores those records
 * again, since no commit covered them.
 *
 * <p>Files are rolled at {@value #FILE_BYTES} bytes (compressed), larger than the engine's own
 * tables so that each file's sync is amortized; they are bottom-level files like any other.
 *
 * <p>Thread safety: the store's stream thread restores; an interactive query on another thread
 * may seal the run, so every method is synchronized.
 */
final class SortedRestore {
    /** Where a file is closed and the next one started. */
    static final long FILE_BYTES = 8L << 20;
    /** The average bytes an entry adds to a file, for rolling; not exact (blocks are compressed). */
    private static final int ENTRY_OVERHEAD = 12;

    private final ExtendedDB db;
    private final Env env;
    private final File dir;
    private final List<File> finished = new ArrayList<>();
    private TableWriter writer;
    private File current;
    private long currentBytes;
    private byte[] lastKey;
    private int fileNumber;

    /**
     * Starts a run.
     *
     * @param db the store's engine; its data namespace must be empty
     * @param env the environment the engine reaches its files through
     * @param dir the directory for the run's files (emptied)
     */
    SortedRestore(ExtendedDB db, Env env, File dir) {
        this.db = db;
        this.env = env;
        this.dir = dir;
        clear(env, dir);
    }

    /**
     * Empties (creating if needed) a run directory: what a run that never ended left there.
     *
     * @param env the environment the directory is in
     * @param dir the directory
     */
    static void clear(Env env, File dir) {
        try {
            env.createDir(dir.toPath());
            for (String leftover : env.getChildren(dir.toPath())) {
                env.deleteFile(dir.toPath().resolve(leftover));
            }
        } catch (IOException e) {
            throw new DBException("cannot empty the restore directory " + dir + ": " + e.getMessage(), e);
        }
    }

    /**
     * Adds a record to the run if it comes after the previous one.
     *
     * @param dataKey the database key (namespace byte included)
     * @param value the value, or {@code null} for a deletion
     * @return {@code false} when the key does not come after the previous one: the caller seals
     *     the run and writes the record otherwise
     */
    synchronized boolean add(byte[] dataKey, byte[] value) {
        if (lastKey != null && Arrays.compareUnsigned(dataKey, lastKey) <= 0) {
            return false;
        }
        lastKey = dataKey;
        if (value == null) {
            return true;
        }
        if (writer == null) {
            current = new File(dir, String.format("run-%06d.ldb", ++fileNumber));
            writer = db.newTableWriter(current);
            currentBytes = 0;
        }
        writer.put(dataKey, value);
        currentBytes += dataKey.length + value.length + ENTRY_OVERHEAD;
        if (currentBytes >= FILE_BYTES) {
            finishFile();
        }
        return true;
    }

    private void finishFile() {
        try {
            writer.finish();
            finished.add(current);
        } finally {
            writer.close();
            writer = null;
        }
    }

    /**
     * Ends the run: finishes the last file and ingests every file, moving them in. Does nothing
     * the second time.
     */
    synchronized void seal() {
        if (writer != null) {
            finishFile();
        }
        if (!finished.isEmpty()) {
            db.ingest(new IngestOptions().moveFiles(true), finished.toArray(new File[0]));
            finished.clear();
        }
    }

    /** Gives up the run's files, as a store closing after a failure does. */
    synchronized void abandon() {
        if (writer != null) {
            writer.close();
            writer = null;
        }
        finished.clear();
        clear(env, dir);
    }
}
