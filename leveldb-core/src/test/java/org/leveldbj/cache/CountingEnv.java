package org.leveldbj.cache;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.iq80.leveldb.Env;

/**
 * An in-test {@link Env} that delegates to another and counts, per file name, how many
 * random-access files were opened and how many closed; reads of a closed file fail.
 */
final class CountingEnv implements Env {
    private final Env env;
    private final Map<String, AtomicInteger> opens = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> closes = new ConcurrentHashMap<>();
    volatile long openDelayMillis;

    CountingEnv(Env env) {
        this.env = env;
    }

    int opens(String name) {
        return opens.getOrDefault(name, new AtomicInteger()).get();
    }

    int closes(String name) {
        return closes.getOrDefault(name, new AtomicInteger()).get();
    }

    /** Files opened and not yet closed, over all names. */
    int openNow() {
        int sum = 0;
        for (Map.Entry<String, AtomicInteger> e : opens.entrySet()) {
            sum += e.getValue().get() - closes(e.getKey());
        }
        return sum;
    }

    @Override
    public RandomAccessFile newRandomAccessFile(Path file) throws IOException {
        if (openDelayMillis > 0) {
            try {
                Thread.sleep(openDelayMillis); // widens the window in which opens could race
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        RandomAccessFile f = env.newRandomAccessFile(file);
        String name = file.getFileName().toString();
        opens.computeIfAbsent(name, k -> new AtomicInteger()).incrementAndGet();
        return new RandomAccessFile() {
            private volatile boolean closed;

            @Override
            public long size() {
                return f.size();
            }

            @Override
            public ByteBuffer read(long offset, int length) throws IOException {
                if (closed) {
                    throw new IOException(name + " read after close");
                }
                return f.read(offset, length);
            }

            @Override
            public boolean isMapped() {
                return f.isMapped();
            }

            @Override
            public void close() throws IOException {
                if (closed) {
                    throw new IOException(name + " closed twice");
                }
                closed = true;
                closes.computeIfAbsent(name, k -> new AtomicInteger()).incrementAndGet();
                f.close();
            }
        };
    }

    @Override
    public SequentialFile newSequentialFile(Path file) throws IOException {
        return env.newSequentialFile(file);
    }

    @Override
    public WritableFile newWritableFile(Path file) throws IOException {
        return env.newWritableFile(file);
    }

    @Override
    public WritableFile newAppendableFile(Path file) throws IOException {
        return env.newAppendableFile(file);
    }

    @Override
    public boolean fileExists(Path file) {
        return env.fileExists(file);
    }

    @Override
    public List<String> getChildren(Path dir) throws IOException {
        return env.getChildren(dir);
    }

    @Override
    public long getFileSize(Path file) throws IOException {
        return env.getFileSize(file);
    }

    @Override
    public void deleteFile(Path file) throws IOException {
        env.deleteFile(file);
    }

    @Override
    public void createDir(Path dir) throws IOException {
        env.createDir(dir);
    }

    @Override
    public void deleteDir(Path dir) throws IOException {
        env.deleteDir(dir);
    }

    @Override
    public void renameFile(Path source, Path target) throws IOException {
        env.renameFile(source, target);
    }

    @Override
    public void syncDir(Path dir) throws IOException {
        env.syncDir(dir);
    }

    @Override
    public FileLock lockFile(Path file) throws IOException {
        return env.lockFile(file);
    }
}
