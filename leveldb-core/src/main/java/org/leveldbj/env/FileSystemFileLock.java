package org.leveldbj.env;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.iq80.leveldb.Env;
import org.leveldbj.util.LockRank;
import org.leveldbj.util.OrderedLock;

/**
 * An exclusive lock on a file, held both against other processes (an operating-system lock,
 * {@code fcntl} on Unix, so C++ LevelDB respects it too) and against other databases in this JVM.
 *
 * <p>The JVM holds operating-system locks on behalf of the whole process, so a second lock on the
 * same file from this process is not refused by the operating system, and on some systems closing
 * any channel of a file releases every lock the process holds on it. Hence a JVM-wide set of held
 * lock files, consulted before a channel is even opened.
 *
 * <p>Thread safety: {@link #acquire} is safe for concurrent use; {@link #close()} is idempotent
 * and safe to call from any thread.
 *
 * <p>Lifetime: the lock is held until {@link #close()}; the file is left in place (and, when
 * {@link #acquire} is told not to create it, a missing file is reported, not created).
 */
final class FileSystemFileLock implements Env.FileLock {
    /** Serializes close (doc/impl.md, Locks). */
    private final OrderedLock closeLock = new OrderedLock(LockRank.FILE);
    /** Lock files held by this JVM, by {@link #key}. */
    private static final Set<Path> HELD = ConcurrentHashMap.newKeySet();

    private final Path file;
    private final Path key;
    private final FileChannel channel;
    private final FileLock lock;
    private boolean released;

    private FileSystemFileLock(Path file, Path key, FileChannel channel, FileLock lock) {
        this.file = file;
        this.key = key;
        this.channel = channel;
        this.lock = lock;
    }

    /**
     * Takes the lock; never waits.
     *
     * @param file the lock file
     * @param create whether to create the file when it is missing
     * @return the held lock
     * @throws java.nio.file.NoSuchFileException if the file is missing and {@code create} is
     *     {@code false}
     * @throws IOException {@code "lock <file>: already held by process"} when this JVM or another
     *     process holds it, or the failure to open the file
     */
    static FileSystemFileLock acquire(Path file, boolean create) throws IOException {
        Path key = key(file);
        if (!HELD.add(key)) {
            throw alreadyHeld(file);
        }
        FileChannel channel = null;
        try {
            channel = create
                    ? FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE)
                    : FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
            FileLock lock;
            try {
                lock = channel.tryLock();
            } catch (OverlappingFileLockException e) {
                // Held through a channel opened outside this class (another copy of it).
                lock = null;
            }
            if (lock == null) {
                throw alreadyHeld(file);
            }
            return new FileSystemFileLock(file, key, channel, lock);
        } catch (IOException | RuntimeException | Error e) {
            if (channel != null) {
                try {
                    channel.close();
                } catch (IOException suppressed) {
                    e.addSuppressed(suppressed);
                }
            }
            HELD.remove(key);
            if (e instanceof IOException) {
                throw IoErrors.withPath(file, (IOException) e);
            }
            throw e;
        }
    }

    /**
     * Names a lock file independently of how the caller spelled its path: the real path of its
     * directory (symbolic links resolved) plus its name.
     */
    private static Path key(Path file) {
        Path absolute = file.toAbsolutePath().normalize();
        Path parent = absolute.getParent();
        if (parent == null || absolute.getFileName() == null) {
            return absolute;
        }
        try {
            return parent.toRealPath().resolve(absolute.getFileName());
        } catch (IOException e) {
            // The directory is missing: opening the file will fail and report it.
            return absolute;
        }
    }

    private static IOException alreadyHeld(Path file) {
        return new Env.LockHeldException(file);
    }

    @Override
    public void close() throws IOException {
        closeLock.lock();
        try {
            if (released) {
                return;
            }
            released = true;
            IOException failure = null;
            try {
                lock.release();
            } catch (IOException e) {
                failure = e;
            }
            try {
                channel.close();
            } catch (IOException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            } finally {
                HELD.remove(key);
            }
            if (failure != null) {
                throw IoErrors.withPath(file, failure);
            }
        } finally {
            closeLock.unlock();
        }
    }

    @Override
    public String toString() {
        return "FileSystemFileLock[" + file + "]";
    }
}
