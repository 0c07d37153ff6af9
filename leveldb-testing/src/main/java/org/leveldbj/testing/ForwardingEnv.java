package org.leveldbj.testing;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import org.iq80.leveldb.Env;

/**
 * An {@link Env} that hands every call to another one: the base for environments that change
 * a few operations (inject faults, count opens) and pass the rest through unchanged.
 *
 * <p>Thread safety: as safe as the wrapped environment; this class adds no state.
 */
public class ForwardingEnv implements Env {
    private final Env target;

    /**
     * @param target the environment calls go to
     */
    public ForwardingEnv(Env target) {
        this.target = Objects.requireNonNull(target, "target");
    }

    /**
     * The environment calls go to.
     *
     * @return the wrapped environment
     */
    protected Env target() {
        return target;
    }

    @Override
    public SequentialFile newSequentialFile(Path file) throws IOException {
        return target.newSequentialFile(file);
    }

    @Override
    public RandomAccessFile newRandomAccessFile(Path file) throws IOException {
        return target.newRandomAccessFile(file);
    }

    @Override
    public WritableFile newWritableFile(Path file) throws IOException {
        return target.newWritableFile(file);
    }

    @Override
    public WritableFile newAppendableFile(Path file) throws IOException {
        return target.newAppendableFile(file);
    }

    @Override
    public boolean fileExists(Path file) {
        return target.fileExists(file);
    }

    @Override
    public boolean isDirectory(Path path) {
        return target.isDirectory(path);
    }

    @Override
    public boolean linkOrCopyFile(Path source, Path destination) throws IOException {
        return target.linkOrCopyFile(source, destination);
    }

    @Override
    public List<String> getChildren(Path dir) throws IOException {
        return target.getChildren(dir);
    }

    @Override
    public long getFileSize(Path file) throws IOException {
        return target.getFileSize(file);
    }

    @Override
    public void deleteFile(Path file) throws IOException {
        target.deleteFile(file);
    }

    @Override
    public void createDir(Path dir) throws IOException {
        target.createDir(dir);
    }

    @Override
    public void deleteDir(Path dir) throws IOException {
        target.deleteDir(dir);
    }

    @Override
    public void renameFile(Path source, Path target) throws IOException {
        this.target.renameFile(source, target);
    }

    @Override
    public void syncDir(Path dir) throws IOException {
        target.syncDir(dir);
    }

    @Override
    public FileLock lockFile(Path file) throws IOException {
        return target.lockFile(file);
    }

    @Override
    public FileLock lockExistingFile(Path file) throws IOException {
        return target.lockExistingFile(file);
    }
}
