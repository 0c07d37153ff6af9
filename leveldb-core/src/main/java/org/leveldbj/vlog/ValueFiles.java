package org.leveldbj.vlog;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.iq80.leveldb.CorruptionException;
import org.iq80.leveldb.DBException;
import org.iq80.leveldb.Env;
import org.iq80.leveldb.IOErrorException;
import org.leveldbj.filename.FileNames;
import org.leveldbj.util.LockRank;
import org.leveldbj.util.OrderedLock;

/**
 * Reads separated values by reference from a database's value files, keeping one open reader
 * per file.
 *
 * <p>A reader is opened at the first read of its file and reopened when a reference reaches past
 * the size it was opened with (the value file being written grows). Readers are counted: a
 * reader being replaced or forgotten is closed once the reads using it finish, so a read never
 * sees a closed (possibly unmapped) file.
 *
 * <p>Thread safety: safe for concurrent use. Lifetime: {@link #close} closes every reader;
 * reads must have finished, and later reads throw {@link DBException}.
 */
public final class ValueFiles implements Closeable {
    /** This object's lock (doc/impl.md, Locks). */
    private final OrderedLock lock = new OrderedLock(LockRank.VALUE_FILES);
    private final Env env;
    private final Path dir;
    private final ConcurrentHashMap<Long, Reader> readers = new ConcurrentHashMap<>();
    private volatile boolean closed;

    /**
     * Makes a value file that already exists durable (its bytes, as the operating system holds
     * them), whoever wrote it: before a table that refers to its values is recorded.
     *
     * @param env the environment
     * @param file the value file
     * @throws IOException if it cannot be opened or synced
     */
    public static void sync(Env env, Path file) throws IOException {
        try (Env.WritableFile f = env.newAppendableFile(file)) {
            f.sync();
        }
    }

    /** An open value file and the reads using it; the map's own hold counts as one. */
    private static final class Reader {
        final Env.RandomAccessFile file;
        final String fileName;
        final AtomicInteger holds = new AtomicInteger(1);

        Reader(Env.RandomAccessFile file, String fileName) {
            this.file = file;
            this.fileName = fileName;
        }

        boolean tryHold() {
            while (true) {
                int h = holds.get();
                if (h == 0) {
                    return false;
                }
                if (holds.compareAndSet(h, h + 1)) {
                    return true;
                }
            }
        }

        void release() {
            if (holds.decrementAndGet() == 0) {
                try {
                    file.close();
                } catch (IOException ignored) {
                    // A reader only reads: nothing is lost when its close fails.
                }
            }
        }
    }

    /**
     * @param env the database's environment
     * @param dir the database directory
     */
    public ValueFiles(Env env, Path dir) {
        this.env = env;
        this.dir = dir;
    }

    /**
     * The path of a value file.
     *
     * @param number the file's number
     * @return {@code dir/NNNNNN.vlog}
     */
    public Path path(long number) {
        return dir.resolve(FileNames.valueFileName(number));
    }

    /**
     * Reads a value.
     *
     * @param ref where it lives
     * @return a new array holding the value
     * @throws CorruptionException if the file is shorter than the reference says, or the record
     *     is damaged or does not hold a value of the reference's length
     * @throws IOErrorException if the file is missing or cannot be read
     */
    public byte[] read(ValueReference ref) {
        return read(ref, true);
    }

    /**
     * Reads a value, checking its record's checksum only when asked to (as table blocks are
     * read: C++ LevelDB's {@code ReadOptions::verify_checksums}); the record's lengths are
     * always checked against the reference.
     *
     * @param ref where it lives
     * @param verifyChecksum whether to check the record's checksum
     * @return a new array holding the value
     * @throws CorruptionException if the file is shorter than the reference says, or the record
     *     is malformed, does not match the reference, or (when checked) fails its checksum
     * @throws IOErrorException if the file is missing or cannot be read
     */
    public byte[] read(ValueReference ref, boolean verifyChecksum) {
        Reader r = hold(ref);
        try {
            ByteBuffer value = checkedValue(r, ref, verifyChecksum);
            byte[] copy = new byte[value.remaining()];
            value.get(value.position(), copy);
            return copy;
        } finally {
            r.release();
        }
    }

    /**
     * Lends a value in place: checked as {@link #read(ValueReference, boolean)} checks it, then
     * returned as a view of the bytes the file's reader holds, with the file held open until the
     * loan's release runs (which the caller must run once).
     *
     * @param ref where it lives
     * @param verifyChecksum whether to check the record's checksum
     * @return the value and its release
     * @throws CorruptionException as {@link #read(ValueReference, boolean)}
     * @throws IOErrorException as {@link #read(ValueReference, boolean)}
     */
    public LentValue lend(ValueReference ref, boolean verifyChecksum) {
        Reader r = hold(ref);
        boolean lent = false;
        try {
            ByteBuffer value = checkedValue(r, ref, verifyChecksum).asReadOnlyBuffer();
            lent = true;
            return new LentValue(value, r::release);
        } finally {
            if (!lent) {
                r.release();
            }
        }
    }

    /**
     * Reads a value's record through a held reader and checks it against the reference.
     *
     * @return the buffer the reader returned, its position and limit narrowed to the value
     */
    private static ByteBuffer checkedValue(Reader r, ValueReference ref, boolean verifyChecksum) {
        ByteBuffer record;
        try {
            record = r.file.read(ref.offset(), ref.recordSize());
        } catch (IOException e) {
            throw new IOErrorException("IO error: " + r.fileName + ": reading " + ref.recordSize()
                    + " bytes at offset " + ref.offset() + ": " + e.getMessage(), e);
        }
        if (record.remaining() != ref.recordSize()) {
            throw new CorruptionException("truncated value record: " + record.remaining() + " of "
                    + ref.recordSize() + " bytes", r.fileName, ref.offset());
        }
        ValueRecord.Parsed p = ValueRecord.parse(record, r.fileName, ref.offset(), verifyChecksum);
        if (p.end() != record.limit() || p.valueLength() != ref.valueLength()) {
            throw new CorruptionException("value record does not match its reference (" + p.valueLength()
                    + "-byte value in a " + (p.end() - record.position()) + "-byte record)", r.fileName, ref.offset());
        }
        return record.limit(p.valueOffset() + p.valueLength()).position(p.valueOffset());
    }

    /**
     * Closes the reader of a file, if one is open, once the reads using it finish: for a value
     * file about to be deleted.
     *
     * @param number the file's number
     */
    public void forget(long number) {
        Reader r = readers.remove(number);
        if (r != null) {
            r.release();
        }
    }

    @Override
    public void close() {
        closed = true;
        for (Long number : readers.keySet()) {
            forget(number);
        }
    }

    /** A held reader of the reference's file that reaches the reference's end. */
    private Reader hold(ValueReference ref) {
        long number = ref.fileNumber();
        while (true) {
            Reader r = readers.get(number);
            if (r == null || r.file.size() < ref.end()) {
                r = reopen(number, ref, r);
            }
            if (r.tryHold()) {
                return r;
            }
        }
    }

    private Reader reopen(long number, ValueReference ref, Reader stale) {
        lock.lock();
        try {
            if (closed) {
                throw new DBException("value files of " + dir + " are closed");
            }
            Reader current = readers.get(number);
            if (current != null && current != stale && current.file.size() >= ref.end()) {
                return current;
            }
            Path path = path(number);
            String fileName = path.toString();
            Env.RandomAccessFile file;
            try {
                file = env.newRandomAccessFile(path);
            } catch (IOException e) {
                throw new IOErrorException("IO error: " + fileName + ": cannot open value file: " + e.getMessage(), e);
            }
            if (file.size() < ref.end()) {
                long size = file.size();
                try {
                    file.close();
                } catch (IOException ignored) {
                    // only read
                }
                throw new CorruptionException("value file is " + size + " bytes, shorter than the record it holds at offset "
                        + ref.offset() + " (" + ref.recordSize() + " bytes)", fileName, ref.offset());
            }
            Reader fresh = new Reader(file, fileName);
            Reader replaced = readers.put(number, fresh);
            if (replaced != null) {
                replaced.release();
            }
            return fresh;
        } finally {
            lock.unlock();
        }
    }
}
