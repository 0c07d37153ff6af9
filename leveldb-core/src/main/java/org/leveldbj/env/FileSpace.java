package org.leveldbj.env;

import com.sun.jna.Native;
import com.sun.jna.Platform;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;
import org.leveldbj.util.NativeAccess;

/**
 * Disk space reserved past a file's end, on Linux: {@link #reserve} allocates blocks with
 * {@code fallocate(FALLOC_FL_KEEP_SIZE)}, which leaves the file's length, and so everything a
 * reader or a recovery sees, unchanged; {@link #release} gives back what was not written with
 * {@code ftruncate} to the file's length (ext4 and XFS drop blocks past the end then). A write
 * into reserved blocks skips the file system's delayed allocation: appending 100,024-byte
 * records to a new ext4 file took 20.7 µs per record with 8 MiB reserved at a time, 27.8
 * without (JDK 17, this project's machine).
 *
 * <p>Java's file API has neither call; they are made through JNA (direct mapping of the C
 * library), on a descriptor of their own (the file is opened by path for each call, so the
 * caller's channel is untouched). {@link #AVAILABLE} is {@code false} where that cannot work: not
 * Linux, JNA missing or unable to load, or a JDK that would warn about loading it (from JDK 24 on,
 * without native access enabled for JNA's module; see {@link NativeAccess}). A file system that
 * does not support {@code fallocate} makes {@link #reserve} fail with an {@link IOException}; the
 * caller then writes without reserving.
 *
 * <p>Thread safety: stateless; safe for concurrent use.
 */
final class FileSpace {
    private static final System.Logger LOG = System.getLogger(FileSpace.class.getName());
    private static final int O_WRONLY = 1;
    private static final int O_CLOEXEC = 0x80000;
    private static final int FALLOC_FL_KEEP_SIZE = 1;
    /** Whether {@link #reserve} and {@link #release} can be called. */
    static final boolean AVAILABLE = load();

    private FileSpace() {
    }

    private static boolean load() {
        if (!System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("linux")
                || !NativeAccess.allowedFor("com.sun.jna.Native")) {
            return false;
        }
        try {
            Native.register(FileSpace.class, Platform.C_LIBRARY_NAME);
            return true;
        } catch (LinkageError | RuntimeException e) {
            LOG.log(System.Logger.Level.DEBUG, () -> "Value files are written without reserved space: JNA cannot call the C library: " + e.toString());
            return false;
        }
    }

    private static native int open(String path, int flags);

    private static native int fallocate(int fd, int mode, long offset, long length);

    private static native int ftruncate(int fd, long length);

    private static native int close(int fd);

    /**
     * Reserves disk blocks for {@code [offset, offset + length)} without changing the file's
     * length.
     *
     * @param file the file
     * @param offset where the reserved range starts
     * @param length how many bytes to reserve
     * @throws IOException naming the file and the C library's error number if a call fails, or
     *     when not {@link #AVAILABLE}
     */
    static void reserve(Path file, long offset, long length) throws IOException {
        requireAvailable(file);
        int fd = openForWriting(file);
        try {
            if (fallocate(fd, FALLOC_FL_KEEP_SIZE, offset, length) != 0) {
                throw failed(file, "fallocate of " + length + " bytes at offset " + offset);
            }
        } finally {
            close(fd);
        }
    }

    /**
     * Releases the blocks past {@code length}, the file's length (a truncation to it).
     *
     * @param file the file
     * @param length the file's length
     * @throws IOException naming the file and the C library's error number if a call fails, or
     *     when not {@link #AVAILABLE}
     */
    static void release(Path file, long length) throws IOException {
        requireAvailable(file);
        int fd = openForWriting(file);
        try {
            if (ftruncate(fd, length) != 0) {
                throw failed(file, "ftruncate to " + length + " bytes");
            }
        } finally {
            close(fd);
        }
    }

    private static void requireAvailable(Path file) throws IOException {
        if (!AVAILABLE) {
            throw new IOException(file + ": cannot reserve or release space here (not Linux, no JNA, or no native access)");
        }
    }

    private static int openForWriting(Path file) throws IOException {
        int fd = open(file.toString(), O_WRONLY | O_CLOEXEC);
        if (fd < 0) {
            throw failed(file, "open");
        }
        return fd;
    }

    private static IOException failed(Path file, String call) {
        return new IOException(file + ": " + call + " failed (errno " + Native.getLastError() + ")");
    }
}
