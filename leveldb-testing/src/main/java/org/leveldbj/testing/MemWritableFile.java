package org.leveldbj.testing;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import org.iq80.leveldb.Env;

/**
 * Appends to a {@link MemFile}. Appended bytes are visible to readers at once ({@link #flush()}
 * does nothing); {@link #sync()} records them as durable, which is what
 * {@link MemEnv#dropUnsyncedData()} keeps.
 *
 * <p>Thread safety: not safe for concurrent use; one thread writes at a time.
 *
 * <p>Lifetime: {@link #close()} is idempotent and does not sync; later calls throw an
 * {@link IOException} naming the file. The handle writes to the file object it was opened on,
 * even after that is renamed or deleted.
 */
final class MemWritableFile implements Env.WritableFile {
    private final Path name;
    private final MemFile file;
    private boolean closed;

    MemWritableFile(Path name, MemFile file) {
        this.name = name;
        this.file = file;
    }

    @Override
    public void append(ByteBuffer data) throws IOException {
        ensureOpen();
        file.append(data, name);
    }

    @Override
    public void flush() throws IOException {
        ensureOpen();
    }

    @Override
    public void sync() throws IOException {
        ensureOpen();
        file.sync();
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
        return "MemWritableFile[" + name + "]";
    }
}
