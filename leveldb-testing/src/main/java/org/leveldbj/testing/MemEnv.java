package org.leveldbj.testing;

import java.io.IOException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.iq80.leveldb.Env;

/**
 * An {@link Env} that keeps every file in memory, for tests and for databases that need no
 * persistence. Paths are names only, compared after {@link Path#normalize()}; nothing touches the
 * real file system.
 *
 * <p>It behaves like a POSIX file system where the engine can tell: directories must exist
 * before files are created in them ({@link #createDir} creates parents); a non-empty directory
 * cannot be deleted; a rename replaces its target atomically (a directory is renamed with
 * everything in it, to a new name only); open handles keep working on the
 * file they were opened on after it is renamed or deleted. Random-access files read a snapshot of
 * the content taken when they are opened; sequential files and new handles see every byte
 * appended so far ({@code flush()} is a no-op).
 *
 * <p>Crash simulation: every file records how much of it was synced ({@link #syncedLength});
 * {@link #dropUnsyncedData()} truncates every file to that length, as a power failure would.
 * Directory operations (create, rename, delete) count as durable at once; a fault-injecting
 * environment can model their loss on top of this one.
 *
 * <p>Thread safety: safe for concurrent use. The name space is guarded by one lock, each file's
 * content by its own.
 *
 * <p>Lifetime: the content lives as long as the environment; there is nothing to close.
 */
public final class MemEnv implements Env {
    private final Object lock = new Object();
    // All guarded by lock; keys are normalized.
    private final Map<Path, MemFile> files = new HashMap<>();
    private final Set<Path> directories = new HashSet<>();
    private final Set<Path> lockedFiles = new HashSet<>();

    /** Creates an empty environment: no files, no directories besides the roots. */
    public MemEnv() {
    }

    private static Path key(Path path) {
        return path.normalize();
    }

    @Override
    public SequentialFile newSequentialFile(Path file) throws IOException {
        return new MemSequentialFile(file, existingFile(file));
    }

    @Override
    public RandomAccessFile newRandomAccessFile(Path file) throws IOException {
        return new MemRandomAccessFile(file, existingFile(file).snapshot());
    }

    @Override
    public WritableFile newWritableFile(Path file) throws IOException {
        synchronized (lock) {
            Path key = key(file);
            checkCreatable(file, key);
            MemFile created = new MemFile();
            files.put(key, created);
            return new MemWritableFile(file, created);
        }
    }

    @Override
    public WritableFile newAppendableFile(Path file) throws IOException {
        synchronized (lock) {
            return new MemWritableFile(file, fileOrCreate(file));
        }
    }

    @Override
    public boolean fileExists(Path file) {
        synchronized (lock) {
            Path key = key(file);
            return files.containsKey(key) || isDirectoryKey(key);
        }
    }

    @Override
    public boolean isDirectory(Path path) {
        synchronized (lock) {
            return isDirectoryKey(key(path));
        }
    }

    @Override
    public List<String> getChildren(Path dir) throws IOException {
        synchronized (lock) {
            Path key = key(dir);
            checkDirectory(dir, key);
            List<String> names = new ArrayList<>();
            for (Path path : files.keySet()) {
                if (key.equals(path.getParent())) {
                    names.add(path.getFileName().toString());
                }
            }
            for (Path path : directories) {
                if (key.equals(path.getParent())) {
                    names.add(path.getFileName().toString());
                }
            }
            return names;
        }
    }

    @Override
    public long getFileSize(Path file) throws IOException {
        return existingFile(file).length();
    }

    @Override
    public void deleteFile(Path file) throws IOException {
        synchronized (lock) {
            Path key = key(file);
            if (isDirectoryKey(key)) {
                throw new FileSystemException(file.toString(), null, "is a directory, not a file");
            }
            if (files.remove(key) == null) {
                throw new NoSuchFileException(file.toString());
            }
        }
    }

    @Override
    public void createDir(Path dir) throws IOException {
        synchronized (lock) {
            Path key = key(dir);
            List<Path> missing = new ArrayList<>();
            for (Path p = key; p != null && !isDirectoryKey(p); p = p.getParent()) {
                if (files.containsKey(p)) {
                    throw new FileAlreadyExistsException(p.toString(), null, "exists and is not a directory");
                }
                missing.add(p);
            }
            directories.addAll(missing);
        }
    }

    @Override
    public void deleteDir(Path dir) throws IOException {
        synchronized (lock) {
            Path key = key(dir);
            checkDirectory(dir, key);
            if (hasChildren(key)) {
                throw new DirectoryNotEmptyException(dir.toString());
            }
            directories.remove(key);
        }
    }

    @Override
    public void renameFile(Path source, Path target) throws IOException {
        synchronized (lock) {
            Path sourceKey = key(source);
            Path targetKey = key(target);
            MemFile file = files.get(sourceKey);
            if (file == null) {
                if (isDirectoryKey(sourceKey)) {
                    renameDirectory(source, sourceKey, target, targetKey);
                    return;
                }
                throw new NoSuchFileException(source.toString());
            }
            checkCreatable(target, targetKey);
            if (sourceKey.equals(targetKey)) {
                return;
            }
            files.remove(sourceKey);
            files.put(targetKey, file);
        }
    }

    /** Moves a directory and everything in it to a name that does not exist yet. */
    private void renameDirectory(Path source, Path sourceKey, Path target, Path targetKey) throws IOException {
        assert Thread.holdsLock(lock);
        if (files.containsKey(targetKey) || isDirectoryKey(targetKey)) {
            throw new FileAlreadyExistsException(target.toString(), null, "a directory is renamed only to a new name");
        }
        if (targetKey.startsWith(sourceKey)) {
            throw new FileSystemException(source.toString(), target.toString(), "cannot move a directory into itself");
        }
        Path parent = targetKey.getParent();
        if (parent != null && !isDirectoryKey(parent)) {
            throw new NoSuchFileException(target.toString(), null, "the parent directory does not exist");
        }
        Map<Path, MemFile> moved = new HashMap<>();
        files.entrySet().removeIf(e -> {
            if (e.getKey().startsWith(sourceKey)) {
                moved.put(targetKey.resolve(sourceKey.relativize(e.getKey())), e.getValue());
                return true;
            }
            return false;
        });
        files.putAll(moved);
        Set<Path> movedDirectories = new HashSet<>();
        directories.removeIf(d -> {
            if (d.startsWith(sourceKey)) {
                movedDirectories.add(targetKey.resolve(sourceKey.relativize(d)));
                return true;
            }
            return false;
        });
        directories.addAll(movedDirectories);
    }

    @Override
    public void syncDir(Path dir) throws IOException {
        synchronized (lock) {
            checkDirectory(dir, key(dir));
        }
    }

    @Override
    public FileLock lockFile(Path file) throws IOException {
        synchronized (lock) {
            Path key = key(file);
            if (lockedFiles.contains(key)) {
                throw new LockHeldException(file);
            }
            fileOrCreate(file);
            lockedFiles.add(key);
            return new MemFileLock(key);
        }
    }

    /**
     * Returns how many bytes of a file have been synced: the part {@link #dropUnsyncedData()}
     * keeps.
     *
     * @param file the file
     * @return its synced length, at most its length
     * @throws NoSuchFileException if there is no such file
     */
    public long syncedLength(Path file) throws IOException {
        return existingFile(file).syncedLength();
    }

    /**
     * Simulates a crash of the machine: truncates every file to its {@linkplain #syncedLength
     * synced length}. Files never synced become empty; no file or directory disappears.
     *
     * <p>Handles opened before stay usable: random-access files keep their snapshot, writable
     * files append after the truncated end. A test normally closes them and reopens the database.
     */
    public void dropUnsyncedData() {
        List<MemFile> all;
        synchronized (lock) {
            all = new ArrayList<>(files.values());
        }
        for (MemFile file : all) {
            file.dropUnsynced();
        }
    }

    // Helpers; all require lock unless they take it.

    private MemFile existingFile(Path file) throws IOException {
        synchronized (lock) {
            Path key = key(file);
            MemFile found = files.get(key);
            if (found == null) {
                if (isDirectoryKey(key)) {
                    throw new FileSystemException(file.toString(), null, "is a directory, not a file");
                }
                throw new NoSuchFileException(file.toString());
            }
            return found;
        }
    }

    private MemFile fileOrCreate(Path file) throws IOException {
        assert Thread.holdsLock(lock);
        Path key = key(file);
        MemFile found = files.get(key);
        if (found == null) {
            checkCreatable(file, key);
            found = new MemFile();
            files.put(key, found);
        }
        return found;
    }

    /** Checks that a file may be created (or replaced) at {@code key}. */
    private void checkCreatable(Path file, Path key) throws IOException {
        assert Thread.holdsLock(lock);
        if (isDirectoryKey(key)) {
            throw new FileSystemException(file.toString(), null, "is a directory, not a file");
        }
        Path parent = key.getParent();
        if (parent != null && !isDirectoryKey(parent)) {
            throw new NoSuchFileException(file.toString(), null, "the parent directory does not exist");
        }
    }

    private void checkDirectory(Path dir, Path key) throws IOException {
        assert Thread.holdsLock(lock);
        if (!isDirectoryKey(key)) {
            if (files.containsKey(key)) {
                throw new NotDirectoryException(dir.toString());
            }
            throw new NoSuchFileException(dir.toString());
        }
    }

    /** A root ({@code /}) always exists; other directories exist once created. */
    private boolean isDirectoryKey(Path key) {
        assert Thread.holdsLock(lock);
        return directories.contains(key) || (key.getParent() == null && key.equals(key.getRoot()));
    }

    private boolean hasChildren(Path key) {
        assert Thread.holdsLock(lock);
        for (Path path : files.keySet()) {
            if (key.equals(path.getParent())) {
                return true;
            }
        }
        for (Path path : directories) {
            if (key.equals(path.getParent())) {
                return true;
            }
        }
        return false;
    }

    @Override
    public String toString() {
        synchronized (lock) {
            return "MemEnv[" + files.size() + " files, " + directories.size() + " directories]";
        }
    }

    /**
     * A lock on a file of this environment.
     *
     * <p>Thread safety: {@link #close()} is idempotent and safe from any thread.
     */
    private final class MemFileLock implements FileLock {
        private final Path key;
        /** Guarded by {@link MemEnv#lock}. */
        private boolean released;

        MemFileLock(Path key) {
            this.key = key;
        }

        @Override
        public void close() {
            synchronized (lock) {
                if (!released) {
                    released = true;
                    lockedFiles.remove(key);
                }
            }
        }

        @Override
        public String toString() {
            return "MemFileLock[" + key + "]";
        }
    }
}
