package org.leveldbj.testing;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.iq80.leveldb.Env;

/**
 * An in-memory {@link Env} for crash and failure tests: it injects I/O errors into chosen
 * operations and simulates a power failure.
 *
 * <h2>Injected errors</h2>
 * {@link #fail(Op, int)} makes the next {@code n} calls of an operation throw an
 * {@link IOException} whose message starts with {@value #INJECTED} and names the path;
 * {@link #failAlways(Op)} makes every call fail until {@link #clearFaults()}. A failed append
 * can be made <em>torn</em> ({@link #setTornAppends(boolean)}): half of its bytes reach the
 * file before the error, as when a disk fills up in the middle of a write.
 *
 * <p>A full disk ({@link #setSpaceLeft(Predicate, long)}): appends to the chosen files succeed
 * until they have added a given number of bytes between them; then the append that does not fit
 * writes what fits and throws an {@link IOException} whose message is {@value #NO_SPACE}, as
 * the JDK reports {@code ENOSPC} (without the path: naming the file is the caller's job), and so
 * does every later append to those files until {@link #clearFaults()}.
 *
 * <p>{@link #syncs(Path)} counts the successful syncs of a file, so a test can tell whether
 * a file whose sync failed was synced again (on Linux a failed fsync may drop the dirty pages
 * and report the next fsync as a success, so retrying cannot make the data safe).
 *
 * <h2>Crash simulation</h2>
 * {@link #crash()} loses what a power failure loses: every file is cut back to the length it had
 * at its last {@code sync()}, and files created since the last {@code syncDir} of their
 * directory disappear with their names (also when renamed to a name that did not exist).
 * Deletions, and renames over an existing file, are durable at once (a simplification: the
 * engine makes them durable with {@code syncDir} anyway, and a crash never leaves such a name
 * without a file).
 *
 * <p>Thread safety: safe for concurrent use; the fault settings are guarded by this object's
 * monitor. Lifetime: as long as the test needs it; the data lives in the wrapped {@link MemEnv}.
 */
public final class FaultInjectionEnv extends ForwardingEnv {
    /** The start of every injected error's message. */
    public static final String INJECTED = "injected fault";

    /** The message of a failed append to a full disk, the JDK's text for {@code ENOSPC}. */
    public static final String NO_SPACE = "No space left on device";

    /** The operations errors can be injected into. */
    public enum Op {
        /** {@code WritableFile.append}. */
        APPEND,
        /** {@code WritableFile.sync}. */
        SYNC,
        /** {@code newWritableFile} and {@code newAppendableFile}. */
        NEW_FILE,
        /** {@code renameFile}. */
        RENAME,
        /** {@code deleteFile}. */
        DELETE,
        /** {@code syncDir}. */
        SYNC_DIR,
        /** {@code newSequentialFile} and {@code newRandomAccessFile}. */
        OPEN_READ,
        /** {@code linkOrCopyFile}, before anything is made (this environment always copies). */
        LINK
    }

    private final MemEnv base;
    // Guarded by this.
    private final Map<Op, Integer> remainingFailures = new EnumMap<>(Op.class);
    private final Set<Op> alwaysFailing = new HashSet<>();
    private final Set<Path> createdSinceDirSync = new HashSet<>();
    private final Map<Path, Integer> syncs = new HashMap<>();
    private boolean tornAppends;
    private long injected;
    private Predicate<Path> spaceLimited;
    private long spaceLeft;

    /** Creates an environment over a new, empty {@link MemEnv}. */
    public FaultInjectionEnv() {
        this(new MemEnv());
    }

    /**
     * Creates an environment over an existing in-memory one.
     *
     * @param base where the files live
     */
    public FaultInjectionEnv(MemEnv base) {
        super(base);
        this.base = base;
    }

    /**
     * The environment holding the files, to inspect them without faults.
     *
     * @return the wrapped environment
     */
    public MemEnv base() {
        return base;
    }

    /**
     * Makes the next {@code count} calls of an operation fail.
     *
     * @param op the operation
     * @param count how many calls fail, at least 1
     */
    public synchronized void fail(Op op, int count) {
        if (count < 1) {
            throw new IllegalArgumentException("count must be at least 1, but was " + count);
        }
        remainingFailures.merge(op, count, Integer::sum);
    }

    /**
     * Makes every call of an operation fail until {@link #clearFaults()}.
     *
     * @param op the operation
     */
    public synchronized void failAlways(Op op) {
        alwaysFailing.add(op);
    }

    /**
     * Sets whether a failing append writes half of its bytes first.
     *
     * @param torn {@code true} for torn appends
     */
    public synchronized void setTornAppends(boolean torn) {
        this.tornAppends = torn;
    }

    /**
     * Fills the disk for some files: appends to files matching {@code files} may add
     * {@code bytes} more bytes between them; the append that crosses the limit writes the part
     * that fits and fails with {@value #NO_SPACE}, and so do all later appends to those files.
     *
     * @param files which files the limit applies to (tested against the path as given)
     * @param bytes the bytes they may still add, at least 0
     */
    public synchronized void setSpaceLeft(Predicate<Path> files, long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("bytes must be at least 0, but was " + bytes);
        }
        spaceLimited = files;
        spaceLeft = bytes;
    }

    /**
     * How many times a file was synced successfully, counted by path.
     *
     * @param file the file
     * @return the number of successful {@code sync()} calls on handles opened on that path
     */
    public synchronized int syncs(Path file) {
        return syncs.getOrDefault(file.normalize(), 0);
    }

    /** Stops injecting errors, including a full disk. */
    public synchronized void clearFaults() {
        remainingFailures.clear();
        alwaysFailing.clear();
        spaceLimited = null;
    }

    /**
     * How many bytes of an append to {@code file} fit on the disk, taking them from the space
     * left; all of them when the file has no limit.
     */
    private synchronized int fitting(Path file, int bytes) {
        if (spaceLimited == null || !spaceLimited.test(file)) {
            return bytes;
        }
        int fit = (int) Math.min(bytes, spaceLeft);
        spaceLeft -= fit;
        if (fit < bytes) {
            injected++;
        }
        return fit;
    }

    private synchronized void countSync(Path file) {
        syncs.merge(file.normalize(), 1, Integer::sum);
    }

    /**
     * How many errors have been injected so far.
     *
     * @return the count
     */
    public synchronized long injectedFaults() {
        return injected;
    }

    /**
     * Simulates a power failure: unsynced bytes are lost, and so are files whose directory was
     * not synced after they were created. Open handles must not be used afterwards.
     *
     * @throws IOException if a lost file cannot be removed
     */
    public void crash() throws IOException {
        Set<Path> lost;
        synchronized (this) {
            lost = new HashSet<>(createdSinceDirSync);
            createdSinceDirSync.clear();
        }
        for (Path file : lost) {
            if (base.fileExists(file)) {
                base.deleteFile(file);
            }
        }
        base.dropUnsyncedData();
    }

    private synchronized boolean shouldFail(Op op) {
        if (alwaysFailing.contains(op)) {
            injected++;
            return true;
        }
        Integer left = remainingFailures.get(op);
        if (left == null) {
            return false;
        }
        if (left == 1) {
            remainingFailures.remove(op);
        } else {
            remainingFailures.put(op, left - 1);
        }
        injected++;
        return true;
    }

    private void maybeFail(Op op, Path path) throws IOException {
        if (shouldFail(op)) {
            throw new IOException(INJECTED + " (" + op + "): " + path);
        }
    }

    @Override
    public SequentialFile newSequentialFile(Path file) throws IOException {
        maybeFail(Op.OPEN_READ, file);
        return base.newSequentialFile(file);
    }

    @Override
    public RandomAccessFile newRandomAccessFile(Path file) throws IOException {
        maybeFail(Op.OPEN_READ, file);
        return base.newRandomAccessFile(file);
    }

    @Override
    public WritableFile newWritableFile(Path file) throws IOException {
        maybeFail(Op.NEW_FILE, file);
        boolean existed = base.fileExists(file);
        WritableFile created = base.newWritableFile(file);
        noteCreated(file, existed);
        return new FaultyWritableFile(file, created);
    }

    @Override
    public WritableFile newAppendableFile(Path file) throws IOException {
        maybeFail(Op.NEW_FILE, file);
        boolean existed = base.fileExists(file);
        WritableFile opened = base.newAppendableFile(file);
        noteCreated(file, existed);
        return new FaultyWritableFile(file, opened);
    }

    private synchronized void noteCreated(Path file, boolean existed) {
        if (!existed) {
            createdSinceDirSync.add(file.normalize());
        }
    }




    /**
     * {@inheritDoc}
     *
     * <p>Copies through this environment's own files, so that their faults apply to the copy.
     */
    @Override
    public boolean linkOrCopyFile(Path source, Path target) throws IOException {
        maybeFail(Op.LINK, source);
        try (SequentialFile in = newSequentialFile(source)) {
            copyFile(in, target, Long.MAX_VALUE);
        }
        return false;
    }

    @Override
    public void deleteFile(Path file) throws IOException {
        maybeFail(Op.DELETE, file);
        base.deleteFile(file);
        synchronized (this) {
            createdSinceDirSync.remove(file.normalize());
        }
    }



    @Override
    public void renameFile(Path source, Path target) throws IOException {
        maybeFail(Op.RENAME, source);
        boolean replacing = base.fileExists(target);
        base.renameFile(source, target);
        synchronized (this) {
            // A new file renamed to a new name stays at risk until its directory is synced. A
            // rename over an existing file (how CURRENT is replaced) is durable at once: a real
            // crash leaves the old or the new file under that name, never neither, and this
            // simulation cannot bring the old one back.
            if (createdSinceDirSync.remove(source.normalize()) && !replacing) {
                createdSinceDirSync.add(target.normalize());
            } else {
                createdSinceDirSync.remove(target.normalize());
            }
        }
    }

    @Override
    public void syncDir(Path dir) throws IOException {
        maybeFail(Op.SYNC_DIR, dir);
        base.syncDir(dir);
        Path normalized = dir.normalize();
        synchronized (this) {
            createdSinceDirSync.removeIf(p -> normalized.equals(p.getParent()));
        }
    }


    @Override
    public String toString() {
        return "FaultInjectionEnv(" + base + ")";
    }

    /** A writable file whose appends and syncs can fail. */
    private final class FaultyWritableFile extends ForwardingWritableFile {
        FaultyWritableFile(Path path, WritableFile delegate) {
            super(path, delegate);
        }

        @Override
        public void append(ByteBuffer data) throws IOException {
            if (shouldFail(Op.APPEND)) {
                boolean torn;
                synchronized (FaultInjectionEnv.this) {
                    torn = tornAppends;
                }
                if (torn) {
                    appendFirstHalf(data);
                }
                throw new IOException(INJECTED + " (" + Op.APPEND + "): " + path());
            }
            int fit = fitting(path(), data.remaining());
            if (fit < data.remaining()) {
                appendPrefix(data, fit);
                throw new IOException(NO_SPACE);
            }
            super.append(data);
        }

        @Override
        public void sync() throws IOException {
            maybeFail(Op.SYNC, path());
            super.sync();
            countSync(path());
        }
    }
}
