package org.leveldbj.db;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import org.iq80.leveldb.Env;
import org.leveldbj.iterator.SortedIterator;
import org.leveldbj.table.TableBuilder;
import org.leveldbj.table.TableOptions;
import org.leveldbj.util.ByteSink;
import org.leveldbj.util.Bytes;
import org.leveldbj.version.FileMetaData;

/**
 * Writes the entries of an iterator of internal keys into a new table file
 * ({@code NNNNNN.ldb}), syncs it, and describes it for the MANIFEST. Used to flush memtables
 * and by repair to turn logs into tables.
 *
 * <p>The file is complete and durable before this returns: data synced, then the directory, so
 * that a MANIFEST naming the table never outlives the table itself in a crash. On failure the
 * partial file is deleted and nothing is returned.
 *
 * <p>Thread safety: stateless.
 */
public final class TableFileWriter {
    private TableFileWriter() {
    }

    /**
     * Writes every entry from the iterator's current position to its end.
     *
     * <p>Requires: the iterator is positioned (or exhausted) and yields internal keys in the
     * order of {@code options.comparator()}.
     *
     * @param env the environment
     * @param dir the database directory
     * @param number the new table's file number
     * @param options how to build the table
     * @param entries the entries to write
     * @return the table's metadata, or {@code null} when the iterator had no entry (no file is
     *     left behind)
     * @throws IOException if writing fails
     */
    public static FileMetaData write(Env env, Path dir, long number, TableOptions options, SortedIterator entries)
            throws IOException {
        if (!entries.valid()) {
            return null;
        }
        Path file = dir.resolve(FileNames.tableFileName(number));
        boolean done = false;
        try {
            byte[] smallest = Bytes.toArray(entries.key());
            byte[] largest;
            long size;
            try (Env.WritableFile out = env.newWritableFile(file)) {
                TableBuilder builder = new TableBuilder(options, out);
                // The iterator's views die when it moves: keep a copy of the last key.
                ByteSink lastKey = new ByteSink();
                for (; entries.valid(); entries.next()) {
                    ByteBuffer key = entries.key();
                    lastKey.reset();
                    lastKey.put(key, key.position(), key.remaining());
                    builder.add(key, entries.value());
                }
                largest = lastKey.toByteArray();
                builder.finish();
                size = builder.fileSize();
                out.sync();
            }
            env.syncDir(dir);
            done = true;
            return new FileMetaData(number, size, smallest, largest);
        } finally {
            if (!done && env.fileExists(file)) {
                try {
                    env.deleteFile(file);
                } catch (IOException ignored) {
                    // The original failure is what the caller needs; a leftover file is
                    // removed as obsolete the next time the database opens.
                }
            }
        }
    }
}
