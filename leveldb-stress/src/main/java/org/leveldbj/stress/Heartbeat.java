package org.leveldbj.stress;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * How a stress process tells the driver that it makes progress: the file {@code DIR/heartbeat}
 * holds the number of operations the process completed so far, rewritten in place by its
 * {@link Watchdog} a few times a second. The driver reads it before a kill: a count that has not
 * moved for a while means the process is stuck, and the kill waits (see {@link Driver}).
 *
 * <p>Layout: one big-endian {@code long}. A file missing or shorter than that reads as
 * {@code -1} (the process has not written it yet).
 *
 * <p>Thread safety: the writer belongs to the watchdog thread; {@link #read} may run anywhere.
 */
final class Heartbeat implements AutoCloseable {
    static final String FILE = "heartbeat";

    private final FileChannel channel;
    private final ByteBuffer buffer = ByteBuffer.allocate(Long.BYTES);

    /** Creates (or empties) the file. */
    Heartbeat(Path file) throws IOException {
        this.channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING);
    }

    /** Writes the count (to the operating system, without {@code fsync}). */
    void publish(long completed) throws IOException {
        buffer.clear();
        buffer.putLong(completed).flip();
        while (buffer.hasRemaining()) {
            channel.write(buffer, buffer.position());
        }
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }

    /** The last count written, or {@code -1} when there is none yet. */
    static long read(Path file) throws IOException {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            return -1;
        }
        return bytes.length < Long.BYTES ? -1 : ByteBuffer.wrap(bytes).getLong();
    }
}
