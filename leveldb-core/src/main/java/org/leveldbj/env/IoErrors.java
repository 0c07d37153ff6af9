package org.leveldbj.env;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.channels.ClosedByInterruptException;
import java.nio.file.FileSystemException;
import java.nio.file.Path;

/**
 * The exceptions the environments of this package throw, worded in one place so that every
 * message names the path it concerns. {@link #withPath} is public for the writers of table and
 * MANIFEST files, whose environment may report a failure without the path (the JDK's
 * {@code "No space left on device"} does not name the file).
 *
 * <p>Thread safety: stateless.
 */
public final class IoErrors {
    private IoErrors() {
    }

    /**
     * Returns an exception for an operation on a handle that was already closed.
     *
     * @param file the file the handle was opened on
     * @return {@code "<file>: already closed"}
     */
    static IOException closed(Path file) {
        return new IOException(file + ": already closed");
    }

    /**
     * Makes sure an I/O failure names the file it happened on. Exceptions of the file-system
     * family already do and are returned unchanged; an interrupted channel operation becomes an
     * {@link InterruptedIOException}; anything else is wrapped with the path in front.
     *
     * @param file the file being read or written
     * @param e the failure
     * @return an exception whose message names {@code file}
     */
    public static IOException withPath(Path file, IOException e) {
        if (e instanceof FileSystemException) {
            return e;
        }
        if (e instanceof ClosedByInterruptException) {
            InterruptedIOException interrupted =
                    new InterruptedIOException(file + ": interrupted; the thread's interrupt closed the channel");
            interrupted.initCause(e);
            return interrupted;
        }
        String message = e.getMessage();
        if (message != null && message.contains(file.toString())) {
            return e;
        }
        return new IOException(file + ": " + (message == null ? e.getClass().getSimpleName() : message), e);
    }

    /**
     * Checks the arguments of a positional read.
     *
     * @param offset where the read starts
     * @param length how many bytes it asks for
     * @throws IllegalArgumentException if either is negative; the message gives both
     */
    static void checkReadArguments(long offset, int length) {
        if (offset < 0 || length < 0) {
            throw new IllegalArgumentException(
                    "offset and length must not be negative: offset=" + offset + " length=" + length);
        }
    }

    /**
     * Returns how many bytes a positional read returns: {@code length}, or fewer when the file
     * ends first; {@code 0} when {@code offset} is at or past the end.
     *
     * <p>Requires: {@code offset >= 0}, {@code length >= 0}, {@code size >= 0}.
     *
     * @param offset where the read starts
     * @param length how many bytes it asks for
     * @param size the length of the file
     * @return the number of bytes the read returns
     */
    static int readableBytes(long offset, int length, long size) {
        assert offset >= 0 && length >= 0 && size >= 0;
        if (offset >= size) {
            return 0;
        }
        return (int) Math.min(length, size - offset);
    }

    /**
     * Checks the argument of a skip.
     *
     * @param n how many bytes to skip
     * @throws IllegalArgumentException if {@code n} is negative
     */
    static void checkSkip(long n) {
        if (n < 0) {
            throw new IllegalArgumentException("cannot skip a negative number of bytes: n=" + n);
        }
    }
}
