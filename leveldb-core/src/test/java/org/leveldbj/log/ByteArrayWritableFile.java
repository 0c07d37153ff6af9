package org.leveldbj.log;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.iq80.leveldb.Env;

/**
 * A {@link Env.WritableFile} over a growable byte array, counting the calls made to it and able
 * to fail on demand. Test helper; confined to one thread.
 */
final class ByteArrayWritableFile implements Env.WritableFile {
    private byte[] data;
    private int length;
    int appendCalls;
    int flushCalls;
    int syncCalls;
    boolean closed;
    /** When set, the next append fails after writing this many bytes of its data. */
    int failAppendAfter = -1;

    ByteArrayWritableFile() {
        this(new byte[0]);
    }

    /** A file that already holds {@code initial}, positioned at its end. */
    ByteArrayWritableFile(byte[] initial) {
        data = Arrays.copyOf(initial, Math.max(64, initial.length));
        length = initial.length;
    }

    @Override
    public void append(ByteBuffer src) throws IOException {
        if (closed) {
            throw new IOException("closed");
        }
        appendCalls++;
        int n = src.remaining();
        if (failAppendAfter >= 0) {
            n = Math.min(n, failAppendAfter);
            failAppendAfter = -1;
            put(src, n);
            throw new IOException("injected append failure");
        }
        put(src, n);
    }

    private void put(ByteBuffer src, int n) {
        if (length + n > data.length) {
            data = Arrays.copyOf(data, Math.max(length + n, 2 * data.length));
        }
        src.get(data, length, n);
        length += n;
    }

    @Override
    public void flush() throws IOException {
        if (closed) {
            throw new IOException("closed");
        }
        flushCalls++;
    }

    @Override
    public void sync() throws IOException {
        if (closed) {
            throw new IOException("closed");
        }
        syncCalls++;
    }

    @Override
    public void close() {
        closed = true;
    }

    int length() {
        return length;
    }

    byte[] contents() {
        return Arrays.copyOf(data, length);
    }
}
