package org.leveldbj.testing;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * The content of one file of a {@link MemEnv}: a growable byte array, its length, and how much of
 * it has been synced.
 *
 * <p>Thread safety: safe for concurrent use; every method holds this object's monitor.
 *
 * <p>Invariant: the first {@code length} bytes of the current array are never overwritten.
 * Appends write past {@code length} (into the spare capacity or a larger copy), and
 * {@link #dropUnsynced()} shrinks by switching to a new, shorter array. So a
 * {@linkplain #snapshot() snapshot} can share the array without copying and stays unchanged.
 *
 * <p>Lifetime: a file object lives as long as a directory entry or an open handle refers to it;
 * deleting the entry does not affect open handles, as on POSIX.
 */
final class MemFile {
    /** The largest array the JVM reliably allocates. */
    static final int MAX_LENGTH = Integer.MAX_VALUE - 8;

    private static final byte[] EMPTY = new byte[0];

    // All guarded by this.
    private byte[] data = EMPTY;
    private int length;
    private int syncedLength;

    /**
     * Appends the remaining bytes of {@code src}, advancing its position.
     *
     * @param src the bytes to append
     * @param name the file's name, for the message when it grows too large
     * @throws IOException if the file would exceed {@link #MAX_LENGTH} bytes
     */
    synchronized void append(ByteBuffer src, Path name) throws IOException {
        int n = src.remaining();
        if (n > MAX_LENGTH - length) {
            throw new IOException(name + ": an in-memory file cannot exceed " + MAX_LENGTH
                    + " bytes: length=" + length + " append=" + n);
        }
        if (length + n > data.length) {
            int grown = (int) Math.min(MAX_LENGTH, Math.max((long) length + n, 2L * data.length));
            data = Arrays.copyOf(data, Math.max(grown, 64));
        }
        src.get(data, length, n);
        length += n;
    }

    /**
     * Copies bytes from {@code position} into {@code dst}, as many as both hold.
     *
     * @param position where to start reading, at least {@code 0}
     * @param dst where to copy to; its position advances
     * @return how many bytes were copied; {@code 0} at or past the end
     */
    synchronized int read(long position, ByteBuffer dst) {
        if (position >= length) {
            return 0;
        }
        int n = (int) Math.min(dst.remaining(), length - position);
        dst.put(data, (int) position, n);
        return n;
    }

    /**
     * Returns the current content without copying.
     *
     * @return a read-only buffer of the bytes written so far, position 0; appends and drops that
     *     follow do not change it
     */
    synchronized ByteBuffer snapshot() {
        return ByteBuffer.wrap(data, 0, length).slice().asReadOnlyBuffer();
    }

    /**
     * Returns the length.
     *
     * @return the bytes appended so far (less any dropped)
     */
    synchronized int length() {
        return length;
    }

    /**
     * Returns how many bytes would survive a crash.
     *
     * @return the length at the last {@link #sync()}, or less after a drop
     */
    synchronized int syncedLength() {
        return syncedLength;
    }

    /** Marks every byte appended so far as durable. */
    synchronized void sync() {
        syncedLength = length;
    }

    /** Simulates a crash: forgets every byte appended since the last sync. */
    synchronized void dropUnsynced() {
        if (length > syncedLength) {
            data = Arrays.copyOf(data, syncedLength);
            length = syncedLength;
        }
    }
}
