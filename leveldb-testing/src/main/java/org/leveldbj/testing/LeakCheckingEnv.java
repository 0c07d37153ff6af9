package org.leveldbj.testing;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.iq80.leveldb.Env;

/**
 * An {@link Env} wrapper that remembers every handle opened through it (files of the three kinds
 * and locks) with the stack that opened it, until the handle is closed: Lucene's
 * {@code MockDirectoryWrapper} idea. A database closed properly leaves nothing open; one that
 * was not closed leaves its lock and log, and an iterator still open after its database closed
 * leaves the table files it pins. {@link #openHandles()} lists what is open, each with its
 * stack; {@link LeakCheck} fails a test that leaves any.
 *
 * <p>Thread safety: safe for concurrent use (the record is guarded by this object's monitor).
 * Lifetime: as long as the test; it holds no resources of its own.
 */
public final class LeakCheckingEnv extends ForwardingEnv {
    // Guarded by this.
    private final Map<Object, Throwable> open = new IdentityHashMap<>();

    /**
     * @param target the environment calls go to
     */
    public LeakCheckingEnv(Env target) {
        super(target);
    }

    /**
     * The handles opened through this environment and not closed yet.
     *
     * @return one line per handle ({@code "<kind> <path>"}) followed by the stack that opened
     *     it; empty when nothing is open
     */
    public synchronized List<String> openHandles() {
        List<String> out = new ArrayList<>();
        for (Throwable opened : open.values()) {
            StringWriter w = new StringWriter();
            opened.printStackTrace(new PrintWriter(w));
            out.add(w.toString());
        }
        return out;
    }

    private synchronized void opened(Object handle, String kind, Path file) {
        open.put(handle, new Throwable(kind + " " + file + " opened here, never closed"));
    }

    private synchronized void closed(Object handle) {
        open.remove(handle);
    }

    @Override
    public SequentialFile newSequentialFile(Path file) throws IOException {
        SequentialFile target = super.newSequentialFile(file);
        SequentialFile tracked = new SequentialFile() {
            @Override
            public int read(ByteBuffer dst) throws IOException {
                return target.read(dst);
            }

            @Override
            public void skip(long n) throws IOException {
                target.skip(n);
            }

            @Override
            public void close() throws IOException {
                closed(this);
                target.close();
            }
        };
        opened(tracked, "sequential file", file);
        return tracked;
    }

    @Override
    public RandomAccessFile newRandomAccessFile(Path file) throws IOException {
        RandomAccessFile target = super.newRandomAccessFile(file);
        RandomAccessFile tracked = new RandomAccessFile() {
            @Override
            public long size() {
                return target.size();
            }

            @Override
            public ByteBuffer read(long offset, int length) throws IOException {
                return target.read(offset, length);
            }

            @Override
            public boolean isMapped() {
                return target.isMapped();
            }

            @Override
            public void close() throws IOException {
                closed(this);
                target.close();
            }
        };
        opened(tracked, "random-access file", file);
        return tracked;
    }

    @Override
    public WritableFile newWritableFile(Path file) throws IOException {
        return trackWritable(file, super.newWritableFile(file));
    }

    @Override
    public WritableFile newAppendableFile(Path file) throws IOException {
        return trackWritable(file, super.newAppendableFile(file));
    }

    private WritableFile trackWritable(Path file, WritableFile target) {
        WritableFile tracked = new ForwardingWritableFile(file, target) {
            @Override
            public void close() throws IOException {
                closed(this);
                super.close();
            }
        };
        opened(tracked, "writable file", file);
        return tracked;
    }

    @Override
    public FileLock lockFile(Path file) throws IOException {
        return trackLock(file, super.lockFile(file));
    }

    @Override
    public FileLock lockExistingFile(Path file) throws IOException {
        FileLock lock = super.lockExistingFile(file);
        return lock == null ? null : trackLock(file, lock);
    }

    private FileLock trackLock(Path file, FileLock target) {
        FileLock tracked = new FileLock() {
            @Override
            public void close() throws IOException {
                closed(this);
                target.close();
            }
        };
        opened(tracked, "lock", file);
        return tracked;
    }

    @Override
    public String toString() {
        return "LeakCheckingEnv(" + target() + ")";
    }
}
