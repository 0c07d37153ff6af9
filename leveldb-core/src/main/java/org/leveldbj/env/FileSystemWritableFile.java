package org.leveldbj.env;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import org.iq80.leveldb.Env;

/**
 * A file written through a {@link FileChannel} with a 64 KiB buffer, so that the many small
 * appends of a log or table writer become few system calls. An append that does not fit in the
 * buffer's room goes to the channel with the buffered bytes, in one gathering write.
 *
 * <p>Durability: {@link #flush()} writes the buffer to the operating system; {@link #sync()}
 * flushes and then calls {@code FileChannel.force(false)} ({@code fdatasync} on Linux), which
 * makes the data and the file's length durable. The file's name is durable only once its
 * directory is synced ({@link FileSystemEnv#syncDir}); a newly created file whose existence
 * matters after a crash (a MANIFEST, the target of a rename such as CURRENT) needs both.
 *
 * <p>Reserved space: a file made with {@code reserveSpace} (value files, on Linux with
 * {@link FileSpace#AVAILABLE}) has disk blocks reserved past its end, {@link #RESERVE_CHUNK}
 * bytes at a time, before a write reaches past what is reserved; the file's length stays the
 * bytes written. {@link #close()} releases what was not written. A file system that refuses
 * ends the reserving for that file, and the writes go on without it. After a crash the blocks
 * reserved past the end stay allocated (at most one chunk per file) until the file is deleted.
 *
 * <p>Thread safety: not safe for concurrent use; one thread writes at a time.
 *
 * <p>Lifetime: {@link #close()} flushes (it does not sync) and closes the channel; it is
 * idempotent; later calls throw an {@link IOException} naming the file. A thread interrupted
 * while writing closes the channel, and the file cannot be written any more.
 */
final class FileSystemWritableFile implements Env.WritableFile {
    private static final System.Logger LOG = System.getLogger(FileSystemWritableFile.class.getName());
    /** Size the write buffer grows to. */
    static final int BUFFER_SIZE = 64 * 1024;
    /**
     * Size of the write buffer of a new file: it doubles up to {@link #BUFFER_SIZE} as appends
     * need, so that the small files of an open (a MANIFEST, CURRENT's temporary file) do not
     * each zero 64 KiB of heap.
     */
    static final int INITIAL_BUFFER_SIZE = 4 * 1024;
    /** How much space a file that reserves space reserves past its end at a time. */
    static final long RESERVE_CHUNK = 8 << 20;

    private final Path file;
    private final FileChannel channel;
    /** Bytes appended but not yet written; in write mode (position = bytes held). */
    private ByteBuffer buffer = ByteBuffer.allocate(INITIAL_BUFFER_SIZE);
    private boolean closed;
    /** Whether space is reserved ahead of the writes; cleared when the file system refuses. */
    private boolean reserving;
    /** Bytes handed to the channel: the file's length, for a new file. */
    private long written;
    /** The end of the space reserved so far. */
    private long reserved;

    /**
     * Takes over an open channel.
     *
     * @param file the file, for messages
     * @param channel a channel open for writing (or appending), owned by this object from now on
     */
    FileSystemWritableFile(Path file, FileChannel channel) {
        this(file, channel, false);
    }

    /**
     * Takes over an open channel on a new, empty file.
     *
     * @param file the file, for messages and for reserving space
     * @param channel a channel open for writing, owned by this object from now on
     * @param reserveSpace whether to reserve disk space ahead of the writes (see the class
     *     comment); ignored unless {@link FileSpace#AVAILABLE}
     */
    FileSystemWritableFile(Path file, FileChannel channel, boolean reserveSpace) {
        this.file = file;
        this.channel = channel;
        this.reserving = reserveSpace && FileSpace.AVAILABLE;
    }

    @Override
    public void append(ByteBuffer data) throws IOException {
        ensureOpen();
        if (data.remaining() > buffer.remaining() && buffer.capacity() < BUFFER_SIZE) {
            grow(buffer.position() + data.remaining());
        }
        if (data.remaining() <= buffer.remaining()) {
            buffer.put(data);
            return;
        }
        // The buffered bytes and the new ones in one gathering write: one system call, and the
        // new bytes are not copied into the buffer first.
        buffer.flip();
        ByteBuffer[] both = {buffer, data};
        reserveFor(buffer.remaining() + (long) data.remaining());
        try {
            while (buffer.hasRemaining() || data.hasRemaining()) {
                written += channel.write(both);
            }
        } catch (IOException e) {
            throw IoErrors.withPath(file, e);
        } finally {
            buffer.compact();
        }
    }

    /** Doubles the buffer, keeping what it holds, until it holds {@code needed} bytes or is full size. */
    private void grow(int needed) {
        int capacity = buffer.capacity();
        while (capacity < needed && capacity < BUFFER_SIZE) {
            capacity *= 2;
        }
        ByteBuffer larger = ByteBuffer.allocate(Math.min(capacity, BUFFER_SIZE));
        buffer.flip();
        larger.put(buffer);
        buffer = larger;
    }

    @Override
    public void append(byte[] data, int offset, int length) throws IOException {
        append(ByteBuffer.wrap(data, offset, length));
    }

    @Override
    public void flush() throws IOException {
        ensureOpen();
        writeBuffer();
    }

    @Override
    public void sync() throws IOException {
        ensureOpen();
        writeBuffer();
        try {
            channel.force(false);
        } catch (IOException e) {
            throw IoErrors.withPath(file, e);
        }
    }

    private void writeBuffer() throws IOException {
        buffer.flip();
        try {
            writeFully(buffer);
        } finally {
            buffer.compact();
        }
    }

    private void writeFully(ByteBuffer data) throws IOException {
        reserveFor(data.remaining());
        try {
            while (data.hasRemaining()) {
                written += channel.write(data);
            }
        } catch (IOException e) {
            throw IoErrors.withPath(file, e);
        }
    }

    /** Reserves space, a chunk at a time, before {@code length} more bytes are written. */
    private void reserveFor(long length) {
        if (!reserving || written + length <= reserved) {
            return;
        }
        long end = written + length;
        long target = (end / RESERVE_CHUNK + 1) * RESERVE_CHUNK;
        try {
            FileSpace.reserve(file, reserved, target - reserved);
            reserved = target;
        } catch (IOException e) {
            // Not supported here, or no space: the write itself says which.
            reserving = false;
            LOG.log(System.Logger.Level.DEBUG, () -> "Writing " + file + " without reserved space: " + e.getMessage());
        }
    }

    private void ensureOpen() throws IOException {
        if (closed) {
            throw IoErrors.closed(file);
        }
    }

    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        IOException failure = null;
        try {
            buffer.flip();
            writeFully(buffer);
        } catch (IOException e) {
            failure = e;
        }
        if (reserved > written && failure == null) {
            try {
                FileSpace.release(file, written);
            } catch (IOException e) {
                // The data is whole; only the reserved blocks stay allocated.
                LOG.log(System.Logger.Level.DEBUG, () -> "Cannot release the space reserved past the end of " + file + ": " + e.getMessage());
            }
        }
        try {
            channel.close();
        } catch (IOException e) {
            if (failure == null) {
                failure = IoErrors.withPath(file, e);
            } else {
                failure.addSuppressed(e);
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    @Override
    public String toString() {
        return "FileSystemWritableFile[" + file + "]";
    }
}
