package org.leveldbj.testing;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import org.iq80.leveldb.Env;

/**
 * Reads a {@link MemFile} from start to end. Reads see bytes appended after open.
 *
 * <p>Thread safety: not safe for concurrent use; one thread reads at a time.
 *
 * <p>Lifetime: {@link #close()} is idempotent; later reads and skips throw an
 * {@link IOException} naming the file.
 */
final class MemSequentialFile implements Env.SequentialFile {
    private final Path name;
    private final MemFile file;
    private long position;
    private boolean closed;

    MemSequentialFile(Path name, MemFile file) {
        this.name = name;
        this.file = file;
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        ensureOpen();
        int n = file.read(position, dst);
        position += n;
        return n;
    }

    @Override
    public void skip(long n) throws IOException {
        HandleChecks.checkSkip(n);
        ensureOpen();
        position += Math.min(n, Math.max(0, file.length() - position));
    }

    private void ensureOpen() throws IOException {
        if (closed) {
            throw HandleChecks.closed(name);
        }
    }

    @Override
    public void close() {
        closed = true;
    }

    @Override
    public String toString() {
        return "MemSequentialFile[" + name + "]";
    }
}
