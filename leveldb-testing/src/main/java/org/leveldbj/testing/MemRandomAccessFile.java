package org.leveldbj.testing;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import org.iq80.leveldb.Env;

/**
 * Reads a snapshot of a {@link MemFile} taken at open: the size and the bytes are those of that
 * moment. Reads return read-only views of the snapshot without copying; they remain valid after
 * close (the garbage collector owns the memory), but {@link #isMapped()} is {@code false} because
 * no mapping is involved.
 *
 * <p>Thread safety: safe for concurrent use; the snapshot is never modified.
 *
 * <p>Lifetime: {@link #close()} is idempotent; later reads throw an {@link IOException} naming
 * the file.
 */
final class MemRandomAccessFile implements Env.RandomAccessFile {
    private final Path name;
    /** Read-only, position 0; only absolute slices are taken, so it is never mutated. */
    private final ByteBuffer content;
    private volatile boolean closed;

    MemRandomAccessFile(Path name, ByteBuffer content) {
        this.name = name;
        this.content = content;
    }

    @Override
    public long size() {
        return content.capacity();
    }

    @Override
    public ByteBuffer read(long offset, int length) throws IOException {
        HandleChecks.checkReadArguments(offset, length);
        if (closed) {
            throw HandleChecks.closed(name);
        }
        int n = HandleChecks.readableBytes(offset, length, content.capacity());
        return n == 0 ? ByteBuffer.allocate(0).asReadOnlyBuffer() : content.slice((int) offset, n);
    }

    @Override
    public boolean isMapped() {
        return false;
    }

    @Override
    public void close() {
        closed = true;
    }

    @Override
    public String toString() {
        return "MemRandomAccessFile[" + name + ", size=" + content.capacity() + "]";
    }
}
