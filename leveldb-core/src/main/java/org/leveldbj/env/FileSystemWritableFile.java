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
 * <p>Thread safety: not safe for concurrent use; one thread writes at a time.
 *
 * <p>Lifetime: {@link #close()} flushes (it does not sync) and closes the channel; it is
 * idempotent; later calls throw an {@link IOException} naming the file. A thread interrupted
 * while writing closes the channel, and the file cannot be written any more.
 */
final class FileSystemWritableFile implements Env.WritableFile {
    /** Size of the write buffer. */
    static final int BUFFER_SIZE = 64 * 1024;

    private final Path file;
    private final FileChannel channel;
    /** Bytes appended but not yet written; in write mode (position = bytes held). */
    private final ByteBuffer buffer = ByteBuffer.allocate(BUFFER_SIZE);
    private boolean closed;

    /**
     * Takes over an open channel.
     *
     * @param file the file, for messages
     * @param channel a channel open for writing (or appending), owned by this object from now on
     */
    FileSystemWritableFile(Path file, FileChannel channel) {
        this.file = file;
        this.channel = channel;
    }

    @Override
    public void append(ByteBuffer data) throws IOException {
        ensureOpen();
        if (data.remaining() <= buffer.remaining()) {
            buffer.put(data);
            return;
        }
        // The buffered bytes and the new ones in one gathering write: one system call, and the
        // new bytes are not copied into the buffer first.
        buffer.flip();
        ByteBuffer[] both = {buffer, data};
        try {
            while (buffer.hasRemaining() || data.hasRemaining()) {
                channel.write(both);
            }
        } catch (IOException e) {
            throw IoErrors.withPath(file, e);
        } finally {
            buffer.compact();
        }
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
        try {
            while (data.hasRemaining()) {
                channel.write(data);
            }
        } catch (IOException e) {
            throw IoErrors.withPath(file, e);
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
