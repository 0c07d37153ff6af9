package org.leveldbj.testing;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Objects;
import org.iq80.leveldb.Env;

/**
 * A {@link Env.WritableFile} that hands every call to another one: the base for the writable
 * files of wrapping environments (fault injection, kill points), which check or count a call
 * and then pass it on.
 *
 * <p>Appends of arrays go through {@link #append(ByteBuffer)} (the interface's default), so a
 * subclass that overrides that one method sees every append.
 *
 * <p>Thread safety: as the wrapped file (one thread at a time).
 */
public class ForwardingWritableFile implements Env.WritableFile {
    private final Path path;
    private final Env.WritableFile target;

    /**
     * @param path the file's path, for messages
     * @param target the file calls go to
     */
    public ForwardingWritableFile(Path path, Env.WritableFile target) {
        this.path = Objects.requireNonNull(path, "path");
        this.target = Objects.requireNonNull(target, "target");
    }

    /**
     * The file's path.
     *
     * @return the path given at construction
     */
    protected final Path path() {
        return path;
    }

    /**
     * Writes the first half of {@code data} (when it has more than one byte) without moving its
     * position: what a torn write leaves on disk before it fails.
     *
     * @param data the bytes of the append that is about to fail
     * @throws IOException if the wrapped file fails
     */
    protected final void appendFirstHalf(ByteBuffer data) throws IOException {
        if (data.remaining() > 1) {
            ByteBuffer half = data.duplicate();
            half.limit(half.position() + data.remaining() / 2);
            target.append(half);
        }
    }

    /**
     * Writes the first {@code n} bytes of {@code data} without moving its position.
     *
     * @param data the bytes of an append
     * @param n how many of them to write, at most {@code data.remaining()}
     * @throws IOException if the wrapped file fails
     */
    protected final void appendPrefix(ByteBuffer data, int n) throws IOException {
        ByteBuffer part = data.duplicate();
        part.limit(part.position() + n);
        target.append(part);
    }

    @Override
    public void append(ByteBuffer data) throws IOException {
        target.append(data);
    }

    @Override
    public void flush() throws IOException {
        target.flush();
    }

    @Override
    public void sync() throws IOException {
        target.sync();
    }

    @Override
    public void close() throws IOException {
        target.close();
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "(" + path + ")";
    }
}
