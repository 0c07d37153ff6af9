package org.leveldbj.cache;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.iq80.leveldb.Env;
import org.leveldbj.testing.ForwardingEnv;

/**
 * An in-test {@link Env} that delegates to another and counts, per file name, how many
 * random-access files were opened and how many closed; reads of a closed file fail.
 */
final class CountingEnv extends ForwardingEnv {
    private final Env env;
    private final Map<String, AtomicInteger> opens = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> closes = new ConcurrentHashMap<>();
    volatile long openDelayMillis;

    CountingEnv(Env env) {
        super(env);
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












}
