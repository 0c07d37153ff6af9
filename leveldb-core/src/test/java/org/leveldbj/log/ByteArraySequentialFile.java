package org.leveldbj.log;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.iq80.leveldb.Env;

/**
 * A {@link Env.SequentialFile} over a byte array. It can hand out at most {@code chunk} bytes
 * per read (to prove readers loop) and fail once a given offset is reached. Test helper;
 * confined to one thread.
 */
final class ByteArraySequentialFile implements Env.SequentialFile {
    private final byte[] data;
    private final int chunk;
    private int position;
    /** Reading at or past this offset throws; {@code -1} never. */
    int failAtOffset = -1;
    boolean closed;
    long skipped;

    ByteArraySequentialFile(byte[] data) {
        this(data, Integer.MAX_VALUE);
    }

    ByteArraySequentialFile(byte[] data, int chunk) {
        this.data = data;
        this.chunk = chunk;
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        if (closed) {
            throw new IOException("closed");
        }
        if (failAtOffset >= 0 && position >= failAtOffset) {
            throw new IOException("injected read failure at " + position);
        }
        int n = Math.min(Math.min(dst.remaining(), chunk), data.length - position);
        dst.put(data, position, n);
        position += n;
        return n;
    }

    @Override
    public void skip(long n) throws IOException {
        if (closed) {
            throw new IOException("closed");
        }
        skipped += n;
        position = (int) Math.min(data.length, position + n);
    }

    @Override
    public void close() {
        closed = true;
    }
}
