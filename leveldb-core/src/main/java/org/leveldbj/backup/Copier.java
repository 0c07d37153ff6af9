package org.leveldbj.backup;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.zip.CRC32C;
import org.iq80.leveldb.Env;

/**
 * Copies and reads files computing the CRC32C of the bytes that pass through, and reports the
 * bytes done to a {@link BackupProgress}. Copies go through {@link Env#copyFile}, so they are
 * written, synced and closed as the environment does it.
 *
 * <p>Thread safety: one operation's instance is used by its thread only.
 */
final class Copier {
    private static final int CHUNK = 64 * 1024;

    private final BackupProgress progress;
    private final long total;
    private long done;

    /**
     * @param progress told after every chunk
     * @param total the bytes the operation will copy or read in all
     */
    Copier(BackupProgress progress, long total) {
        this.progress = progress;
        this.total = total;
    }

    /**
     * What passed through: how many bytes, and their CRC32C.
     *
     * @param bytes the byte count
     * @param crc the CRC32C of those bytes
     */
    record Result(long bytes, int crc) {
    }

    /**
     * Copies the next {@code limit} bytes of an open file (fewer when it ends first) to a new
     * file, synced.
     *
     * @param in the file to read, from its position; left open
     * @param writeEnv the environment of the new file
     * @param target the new file; it must not exist
     * @param limit the most bytes to copy
     * @return the bytes copied and their CRC32C
     * @throws IOException if reading or writing fails
     */
    Result copy(Env.SequentialFile in, Env writeEnv, Path target, long limit) throws IOException {
        Checksumming source = new Checksumming(in);
        long copied = writeEnv.copyFile(source, target, limit);
        return new Result(copied, source.crc());
    }

    /**
     * Reads a whole file.
     *
     * @param env its environment
     * @param file the file
     * @return its length and CRC32C
     * @throws IOException if it cannot be read
     */
    Result read(Env env, Path file) throws IOException {
        try (Env.SequentialFile in = env.newSequentialFile(file)) {
            return read(in, Long.MAX_VALUE);
        }
    }

    /**
     * Reads the next {@code limit} bytes of an open file, fewer when it ends first.
     *
     * @param in the file, from its position; left open
     * @param limit the most bytes to read
     * @return the bytes read and their CRC32C
     * @throws IOException if it cannot be read
     */
    Result read(Env.SequentialFile in, long limit) throws IOException {
        Checksumming source = new Checksumming(in);
        ByteBuffer buffer = ByteBuffer.allocate(CHUNK);
        long bytes = 0;
        while (bytes < limit) {
            buffer.clear().limit((int) Math.min(CHUNK, limit - bytes));
            int n = source.read(buffer);
            if (n <= 0) {
                break;
            }
            bytes += n;
        }
        return new Result(bytes, source.crc());
    }

    /**
     * Counts bytes as done without reading them: what was planned and turned out not needed.
     *
     * @param n the bytes
     */
    void skip(long n) {
        if (n > 0) {
            add(n);
        }
    }

    private void add(long n) {
        done += n;
        progress.progress(done, Math.max(total, done));
    }

    /** A file read through, its bytes summed as they go. */
    private final class Checksumming implements Env.SequentialFile {
        private final Env.SequentialFile in;
        private final CRC32C crc = new CRC32C();

        Checksumming(Env.SequentialFile in) {
            this.in = in;
        }

        int crc() {
            return (int) crc.getValue();
        }

        @Override
        public int read(ByteBuffer dst) throws IOException {
            int start = dst.position();
            int n = in.read(dst);
            if (n > 0) {
                ByteBuffer read = dst.duplicate();
                read.position(start).limit(start + n);
                crc.update(read);
                add(n);
            }
            return n;
        }

        @Override
        public void skip(long n) {
            throw new UnsupportedOperationException("a checksummed read does not skip");
        }

        @Override
        public void close() {
            // The caller closes the file it opened.
        }
    }
}
