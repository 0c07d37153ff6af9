package org.leveldbj.env;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;
import org.iq80.leveldb.Env;
import org.leveldbj.util.MemoryScope;

/**
 * A file mapped into memory whole: {@link #read} returns a read-only slice of the mapping, with
 * no copy and no system call.
 *
 * <p>Thread safety: safe for concurrent use; reads share the mapping without locking.
 *
 * <p>Lifetime: the file holds a permit of its environment's {@link MappingLimiter} and the
 * {@link MemoryScope} that owns the mapping; {@link #close()} unmaps at once (where the JVM
 * allows) and returns the permit. A read after close throws an {@link IOException}; but a buffer
 * returned before close must not be touched after it: on JDK 22 and later that throws
 * {@link IllegalStateException}, on older JDKs it may crash the JVM (see
 * {@link org.leveldbj.util.NativeMemory}). Owners reference-count their readers and close only
 * when the count drops to zero.
 */
final class MappedRandomAccessFile implements Env.RandomAccessFile {
    private final Path file;
    /** Owns the mapping; closing it unmaps. */
    private final MemoryScope scope;
    /** The mapped bytes, read-only; only absolute slices are taken, so it is never mutated. */
    private final ByteBuffer bytes;
    private final MappingLimiter limiter;
    private final AtomicBoolean closed = new AtomicBoolean();

    /**
     * Wraps a mapping.
     *
     * <p>Requires: the caller holds a permit of {@code limiter}, which passes to this file, and
     * {@code scope} owns {@code bytes} and nothing the caller still uses; both pass to this file.
     *
     * @param file the mapped file, for messages
     * @param scope the owner of the mapping
     * @param bytes the mapping of the whole file: read-only, position 0
     * @param limiter where the permit goes back on close
     */
    MappedRandomAccessFile(Path file, MemoryScope scope, ByteBuffer bytes, MappingLimiter limiter) {
        assert bytes.isReadOnly() && bytes.position() == 0;
        this.file = file;
        this.scope = scope;
        this.bytes = bytes;
        this.limiter = limiter;
    }

    @Override
    public long size() {
        return bytes.capacity();
    }

    @Override
    public ByteBuffer read(long offset, int length) throws IOException {
        IoErrors.checkReadArguments(offset, length);
        if (closed.get()) {
            throw IoErrors.closed(file);
        }
        int n = IoErrors.readableBytes(offset, length, bytes.capacity());
        // One allocation site for every outcome, an empty read included: where the result does
        // not escape, C2 (JDK 25.0.3) scalar-replaces it, and with two sites merged its
        // "reduce allocation merges" rematerialized the buffer as null on deoptimization (which
        // every shared-arena close in another thread causes), so the caller saw its own local
        // variable turn null.
        return bytes.slice((int) Math.min(offset, bytes.capacity()), n);
    }

    @Override
    public boolean isMapped() {
        return true;
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        try {
            scope.close();
        } finally {
            limiter.release();
        }
    }

    @Override
    public String toString() {
        return "MappedRandomAccessFile[" + file + ", size=" + bytes.capacity() + "]";
    }
}
