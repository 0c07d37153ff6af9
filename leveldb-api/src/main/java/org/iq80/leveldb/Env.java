package org.iq80.leveldb;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;

/**
 * The file system a database reads and writes: every file operation of the engine goes through
 * an {@code Env}, so a database can live on the real file system, in memory, or behind an
 * environment that injects faults for testing.
 *
 * <p>This is an extension of the 0.12 API, set with {@link Options#env(Env)}. When none is set
 * the engine uses the default file-system environment, which maps table files into memory where
 * it can.
 *
 * <p>Thread safety: an {@code Env} is shared by every database opened with it and must be safe
 * for concurrent use. The file handles it returns are documented one by one below.
 *
 * <p>Paths are absolute or relative {@link Path}s of the default file system; an in-memory
 * environment uses them only as names. Every method reports failure with an {@link IOException}
 * whose message names the path; a missing file is a {@link java.nio.file.NoSuchFileException}.
 */
public interface Env {

    /**
     * Opens a file for reading from start to end, as log and MANIFEST files are read.
     *
     * @param file the file to read
     * @return a new handle positioned at the start of the file
     * @throws IOException if the file cannot be opened
     */
    SequentialFile newSequentialFile(Path file) throws IOException;

    /**
     * Opens a file for reading at arbitrary offsets, as table files are read.
     *
     * @param file the file to read
     * @return a new handle
     * @throws IOException if the file cannot be opened
     */
    RandomAccessFile newRandomAccessFile(Path file) throws IOException;

    /**
     * Creates a file for writing, replacing any file of that name.
     *
     * <p>A write-ahead log (a file named {@code NNNNNN.log}) may be preallocated: while it is
     * open, readers may find zeros after the bytes appended so far, which the log format reads
     * as preallocated space; closing the handle trims them.
     *
     * @param file the file to create
     * @return a new handle positioned at the start of the empty file
     * @throws IOException if the file cannot be created
     */
    WritableFile newWritableFile(Path file) throws IOException;

    /**
     * Opens a file for writing at its end, creating it when missing.
     *
     * @param file the file to append to
     * @return a new handle positioned at the end of the file
     * @throws IOException if the file cannot be opened
     */
    WritableFile newAppendableFile(Path file) throws IOException;

    /**
     * Tells whether a file or directory exists.
     *
     * @param file the path to test
     * @return {@code true} when it exists
     */
    boolean fileExists(Path file);

    /**
     * Tells whether a path is an existing directory. Opening a database checks it, so that a
     * regular file given as a database fails with a clear message.
     *
     * <p>The default implementation tells whether {@link #getChildren} can list the path;
     * environments override it when they can answer directly.
     *
     * @param path the path to test
     * @return {@code true} when it exists and is a directory
     */
    default boolean isDirectory(Path path) {
        if (!fileExists(path)) {
            return false;
        }
        try {
            getChildren(path);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Lists the names (not paths) of the entries of a directory, in no particular order.
     *
     * @param dir the directory to list
     * @return the names of its entries
     * @throws IOException if the directory cannot be read
     */
    List<String> getChildren(Path dir) throws IOException;

    /**
     * Returns the size of a file in bytes.
     *
     * @param file the file to measure
     * @return its length
     * @throws IOException if the file does not exist or cannot be read
     */
    long getFileSize(Path file) throws IOException;

    /**
     * Deletes a file.
     *
     * @param file the file to delete
     * @throws IOException if the file does not exist or cannot be deleted
     */
    void deleteFile(Path file) throws IOException;

    /**
     * Creates a directory and any missing parents; does nothing if it already exists.
     *
     * @param dir the directory to create
     * @throws IOException if it cannot be created
     */
    void createDir(Path dir) throws IOException;

    /**
     * Deletes an empty directory.
     *
     * @param dir the directory to delete
     * @throws IOException if it does not exist, is not empty or cannot be deleted
     */
    void deleteDir(Path dir) throws IOException;

    /**
     * Renames a file, atomically replacing any file at {@code target}: a reader sees either the
     * old target or the new one, never a mixture or nothing. The engine also renames a directory
     * it built (a checkpoint) to a name that does not exist; an environment that cannot rename
     * directories fails those checkpoints with its exception.
     *
     * @param source the file to rename
     * @param target its new name
     * @throws IOException if the rename fails
     */
    void renameFile(Path source, Path target) throws IOException;

    /**
     * Makes {@code target} a file with the contents {@code source} has now: a hard link where
     * the environment can make one (the file is then shared, so only files that no longer
     * change may be linked), a synced copy otherwise. The target must not exist. Checkpoints
     * and backups use it for table files.
     *
     * <p>The default implementation copies with {@link #copyFile}.
     *
     * @param source the file to link or copy
     * @param target the new file
     * @return {@code true} if a link was made, {@code false} for a copy
     * @throws IOException if neither can be made
     */
    default boolean linkOrCopyFile(Path source, Path target) throws IOException {
        try (SequentialFile in = newSequentialFile(source)) {
            copyFile(in, target, Long.MAX_VALUE);
        }
        return false;
    }

    /**
     * Writes the next {@code limit} bytes of an open file (fewer when it ends first) to a new
     * file, syncs and closes it. Checkpoints and backups use it for the files they copy.
     *
     * <p>The default implementation reads with {@link SequentialFile#read} and writes with
     * {@link #newWritableFile}.
     *
     * @param in the file to read, from its current position; left open
     * @param target the new file; it must not exist
     * @param limit the most bytes to copy
     * @return the bytes copied
     * @throws java.nio.file.FileAlreadyExistsException if {@code target} exists
     * @throws IOException if reading or writing fails
     */
    default long copyFile(SequentialFile in, Path target, long limit) throws IOException {
        if (fileExists(target)) {
            throw new java.nio.file.FileAlreadyExistsException(target.toString());
        }
        long copied = 0;
        try (WritableFile out = newWritableFile(target)) {
            java.nio.ByteBuffer buffer = java.nio.ByteBuffer.allocate(64 * 1024);
            while (copied < limit) {
                buffer.clear().limit((int) Math.min(buffer.capacity(), limit - copied));
                int n = in.read(buffer);
                if (n <= 0) {
                    break;
                }
                buffer.flip();
                out.append(buffer);
                copied += n;
            }
            out.sync();
        }
        return copied;
    }

    /**
     * Makes the entries of a directory (created, renamed and deleted files) durable, as a
     * {@code fsync} of the directory does.
     *
     * @param dir the directory to sync
     * @throws IOException if the sync fails
     */
    void syncDir(Path dir) throws IOException;

    /**
     * Takes an exclusive lock on a file, creating it when missing, so that no other process and
     * no other database in this process can take it until the lock is released. Fails at once
     * (never waits) when the lock is held, with a {@link LockHeldException} whose message has the
     * form {@code "lock /path/LOCK: already held by process"}.
     *
     * @param file the lock file
     * @return the held lock; closing it releases the lock
     * @throws LockHeldException if the lock is held elsewhere
     * @throws IOException if the lock cannot be taken for another reason
     */
    FileLock lockFile(Path file) throws IOException;

    /**
     * Takes the lock {@link #lockFile} takes, but only on a file that already exists: a missing
     * file is not created and gives {@code null}. Read-only databases lock this way, so that
     * opening one leaves the directory unchanged.
     *
     * <p>The default implementation checks that the file exists and then calls
     * {@link #lockFile}; environments that can open a file without creating it override it.
     *
     * @param file the lock file
     * @return the held lock, or {@code null} when the file does not exist
     * @throws IOException if the lock is held elsewhere or cannot be taken
     */
    default FileLock lockExistingFile(Path file) throws IOException {
        return fileExists(file) ? lockFile(file) : null;
    }

    /**
     * A file read from start to end. Not safe for concurrent use; one thread reads it at a time.
     */
    interface SequentialFile extends Closeable {
        /**
         * Reads up to {@code dst.remaining()} bytes into {@code dst}, advancing its position.
         * Returns fewer bytes only at the end of the file.
         *
         * @param dst the buffer to fill
         * @return the number of bytes read, {@code 0} at the end of the file
         * @throws IOException if reading fails
         */
        int read(ByteBuffer dst) throws IOException;

        /**
         * Skips bytes; skipping past the end leaves the handle at the end.
         *
         * @param n how many bytes to skip, at least {@code 0}
         * @throws IOException if the skip fails
         */
        void skip(long n) throws IOException;
    }

    /**
     * A file read at arbitrary offsets. Safe for concurrent use by any number of threads.
     *
     * <p>Lifetime: the buffers {@link #read} returns may be views of memory the handle owns (a
     * memory mapping); they stay valid until {@link #close()} and must not be touched after it.
     * (On JDK 22 and later the default environment makes such a touch throw an
     * {@link IllegalStateException}; on older JDKs it may crash the JVM, which is why the engine
     * reference-counts open tables.)
     * The owner closes the handle only when no reader holds such a buffer.
     */
    interface RandomAccessFile extends Closeable {
        /**
         * Returns the size of the file when it was opened.
         *
         * @return the length in bytes
         */
        long size();

        /**
         * Reads {@code length} bytes at {@code offset}.
         *
         * @param offset where to start, {@code 0 <= offset}
         * @param length how many bytes, {@code 0 <= length}
         * @return a read-only buffer whose position is {@code 0} and whose remaining bytes are
         *     those read; fewer than {@code length} only when the file ends first, and empty
         *     when {@code offset >= size()}
         * @throws IOException if reading fails or the handle is closed
         */
        ByteBuffer read(long offset, int length) throws IOException;

        /**
         * Tells whether {@link #read} returns views of a memory mapping (no copy) rather than
         * fresh buffers. Informational (logs, statistics): an in-memory environment answers
         * {@code false} although its views are not copies either.
         *
         * @return {@code true} when the file is memory-mapped
         */
        boolean isMapped();
    }

    /**
     * A file being written. Not safe for concurrent use; one thread writes it at a time.
     * Data appended is durable only after {@link #sync()}.
     */
    interface WritableFile extends Closeable {
        /**
         * Appends the remaining bytes of {@code data}, advancing its position to its limit.
         *
         * @param data the bytes to append
         * @throws IOException if writing fails
         */
        void append(ByteBuffer data) throws IOException;

        /**
         * Appends {@code length} bytes of {@code data} starting at {@code offset}.
         *
         * @param data the array holding the bytes
         * @param offset the index of the first byte to append
         * @param length how many bytes to append
         * @throws IOException if writing fails
         */
        default void append(byte[] data, int offset, int length) throws IOException {
            append(ByteBuffer.wrap(data, offset, length));
        }

        /**
         * Hands buffered bytes to the operating system (they survive a crash of this process,
         * not of the machine).
         *
         * @throws IOException if writing fails
         */
        void flush() throws IOException;

        /**
         * Makes every appended byte durable, as {@code fsync} does.
         *
         * @throws IOException if the sync fails
         */
        void sync() throws IOException;
    }

    /**
     * The lock {@link #lockFile} or {@link #lockExistingFile} asked for is held by another
     * process, or by another lock in this one. Environments throw this type, so that the engine
     * tells a database in use from other failures by type.
     */
    class LockHeldException extends IOException {
        private static final long serialVersionUID = 1L;

        /**
         * Creates an exception.
         *
         * @param file the lock file
         */
        public LockHeldException(Path file) {
            super("lock " + file + ": already held by process");
        }
    }

    /** A held file lock; {@link #close()} releases it. */
    interface FileLock extends Closeable {
    }
}
