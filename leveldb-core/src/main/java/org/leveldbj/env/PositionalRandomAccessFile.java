package org.leveldbj.env;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.iq80.leveldb.Env;
import org.leveldbj.util.LockRank;
import org.leveldbj.util.OrderedLock;

/**
 * A file read with positional reads ({@code pread}): each {@link #read} copies the bytes into a
 * fresh heap buffer. Used when mapping is disabled, when the environment's cap on mappings is
 * reached, for empty files and for files larger than {@link Integer#MAX_VALUE} bytes.
 *
 * <p>Thread safety: safe for concurrent use; positional reads do not share a file position.
 *
 * <p>Interrupts: a {@link FileChannel} is closed when a thread blocked in it is interrupted,
 * which would fail every other reader of this file. Here the interrupted read fails with an
 * {@link java.io.InterruptedIOException} and the channel is reopened, so the other readers (and
 * later reads) carry on.
 *
 * <p>Lifetime: {@link #close()} closes the channel; it is idempotent; later reads throw an
 * {@link IOException} naming the file. The size is the file's length at open; bytes appended
 * later are not read.
 */
final class PositionalRandomAccessFile implements Env.RandomAccessFile {
    private final Path file;
    private final long size;

    /** Guards the replacement of {@link #channel} and {@link #closed}. */
    private final OrderedLock lock = new OrderedLock(LockRank.FILE);
    /** The open channel; replaced under {@link #lock} when an interrupt closed it. */
    private volatile FileChannel channel;
    /** Set under {@link #lock}, read without it. */
    private volatile boolean closed;

    /**
     * Takes over an open channel.
     *
     * @param file the file, for messages and for reopening
     * @param channel a channel open for reading, owned by this object from now on
     * @param size the file's length at open
     */
    PositionalRandomAccessFile(Path file, FileChannel channel, long size) {
        this.file = file;
        this.channel = channel;
        this.size = size;
    }

    @Override
    public long size() {
        return size;
    }

    @Override
    public ByteBuffer read(long offset, int length) throws IOException {
        IoErrors.checkReadArguments(offset, length);
        if (closed) {
            throw IoErrors.closed(file);
        }
        ByteBuffer dst = ByteBuffer.allocate(IoErrors.readableBytes(offset, length, size));
        while (true) {
            FileChannel current = channel;
            try {
                readFully(current, dst, offset);
                break;
            } catch (ClosedChannelException e) {
                if (closed) {
                    throw IoErrors.closed(file);
                }
                reopen(current);
                if (e instanceof ClosedByInterruptException) {
                    throw IoErrors.withPath(file, e);
                }
                // Another thread's interrupt closed the channel under this read: try again.
                dst.clear();
            } catch (IOException e) {
                throw IoErrors.withPath(file, e);
            }
        }
        dst.flip();
        return dst.asReadOnlyBuffer();
    }

    /** Reads until {@code dst} is full or the file ends (it may have shrunk since open). */
    private static void readFully(FileChannel channel, ByteBuffer dst, long offset) throws IOException {
        long position = offset;
        while (dst.hasRemaining()) {
            int n = channel.read(dst, position);
            if (n < 0) {
                return;
            }
            position += n;
        }
    }

    /** Replaces {@code failed} with a new channel unless another thread did so, or close ran. */
    private void reopen(FileChannel failed) throws IOException {
        lock.lock();
        try {
            if (closed || channel != failed) {
                return;
            }
            try {
                channel = FileChannel.open(file, StandardOpenOption.READ);
            } catch (IOException e) {
                throw IoErrors.withPath(file, e);
            }
        } finally {
            lock.unlock();
        }
    }

    @Override
    public boolean isMapped() {
        return false;
    }

    @Override
    public void close() throws IOException {
        FileChannel toClose;
        lock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            toClose = channel;
        } finally {
            lock.unlock();
        }
        try {
            toClose.close();
        } catch (IOException e) {
            throw IoErrors.withPath(file, e);
        }
    }

    @Override
    public String toString() {
        return "PositionalRandomAccessFile[" + file + ", size=" + size + "]";
    }
}
