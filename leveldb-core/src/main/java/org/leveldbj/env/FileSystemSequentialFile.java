package org.leveldbj.env;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import org.iq80.leveldb.Env;

/**
 * A file read from start to end through a {@link FileChannel}. Reads see bytes appended after
 * open, as log readers following a live file need.
 *
 * <p>Thread safety: not safe for concurrent use; one thread reads at a time.
 *
 * <p>Lifetime: {@link #close()} closes the channel and is idempotent; later reads and skips
 * throw an {@link IOException} naming the file.
 */
final class FileSystemSequentialFile implements Env.SequentialFile {
    private final Path file;
    private final FileChannel channel;
    private boolean closed;

    /**
     * Takes over an open channel.
     *
     * @param file the file, for messages
     * @param channel a channel open for reading at position 0, owned by this object from now on
     */
    FileSystemSequentialFile(Path file, FileChannel channel) {
        this.file = file;
        this.channel = channel;
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        ensureOpen();
        int total = 0;
        try {
            while (dst.hasRemaining()) {
                int n = channel.read(dst);
                if (n < 0) {
                    break;
                }
                total += n;
            }
        } catch (IOException e) {
            throw IoErrors.withPath(file, e);
        }
        return total;
    }

    @Override
    public void skip(long n) throws IOException {
        IoErrors.checkSkip(n);
        ensureOpen();
        try {
            long position = channel.position();
            long size = channel.size();
            long remaining = Math.max(0, size - position);
            channel.position(position + Math.min(n, remaining));
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
        try {
            channel.close();
        } catch (IOException e) {
            throw IoErrors.withPath(file, e);
        }
    }

    @Override
    public String toString() {
        return "FileSystemSequentialFile[" + file + "]";
    }
}
