package org.leveldbj.log;

import static org.leveldbj.log.LogFormat.BLOCK_SIZE;
import static org.leveldbj.log.LogFormat.FIRST_TYPE;
import static org.leveldbj.log.LogFormat.FULL_TYPE;
import static org.leveldbj.log.LogFormat.HEADER_SIZE;
import static org.leveldbj.log.LogFormat.LAST_TYPE;
import static org.leveldbj.log.LogFormat.LENGTH_OFFSET;
import static org.leveldbj.log.LogFormat.MIDDLE_TYPE;
import static org.leveldbj.log.LogFormat.TYPE_OFFSET;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.iq80.leveldb.Env;
import org.leveldbj.util.Coding;
import org.leveldbj.util.Crc32c;

/**
 * Appends logical records to a log file (a write-ahead log or a MANIFEST), cutting each into
 * physical records that never cross a block boundary; see the package documentation for the
 * layout.
 *
 * <p>Each record is assembled (headers, fragments and any zero-filled block tail) in a buffer
 * the writer reuses, then handed to the file in one {@code append} followed by one
 * {@code flush}, so that when {@link #addRecord} returns the record has reached the operating
 * system: it survives a crash of this process, and after {@link #sync()} a crash of the
 * machine. A record larger than {@value #MAX_PENDING_BYTES} bytes is appended in several
 * pieces of about that size.
 *
 * <p>Thread safety: not safe for concurrent use; the engine serializes writers of a log.
 *
 * <p>Lifetime: the writer owns the file it is given and closes it in {@link #close()}. After an
 * {@link IOException} the file's contents are unknown: every later call except
 * {@code close()} fails with {@link IllegalStateException}, and the caller must start a new
 * log.
 */
public final class LogWriter implements Closeable {
    /** The most bytes assembled before they are appended to the file. */
    static final int MAX_PENDING_BYTES = 256 * 1024;

    private static final int INITIAL_BUFFER_BYTES = 4 * 1024;

    private final Env.WritableFile file;
    /** Where the next byte goes within the current block, {@code 0 <= blockOffset <= BLOCK_SIZE}. */
    private int blockOffset;
    /** The length of the file, counting every byte appended. */
    private long length;
    /** Bytes {@code [0, pending)} are assembled and not yet appended. */
    private byte[] buffer = new byte[INITIAL_BUFFER_BYTES];
    private int pending;
    private boolean failed;
    private boolean closed;

    /**
     * Creates a writer for a new, empty log.
     *
     * @param file the file to append to; the writer takes ownership
     */
    public LogWriter(Env.WritableFile file) {
        this(file, 0);
    }

    /**
     * Creates a writer that continues a log already {@code existingLength} bytes long, as when
     * a database reuses its last log or MANIFEST: the first record goes in the block the
     * existing bytes end in. Requires: {@code file} is positioned at the end of those bytes.
     *
     * @param file the file to append to; the writer takes ownership
     * @param existingLength the length of the file
     * @throws IllegalArgumentException if {@code existingLength} is negative
     */
    public LogWriter(Env.WritableFile file, long existingLength) {
        assert file != null;
        if (existingLength < 0) {
            throw new IllegalArgumentException("existingLength=" + existingLength + " is negative");
        }
        this.file = file;
        this.blockOffset = (int) (existingLength % BLOCK_SIZE);
        this.length = existingLength;
    }

    /**
     * Appends a record and hands it to the operating system.
     *
     * @param record the record's bytes
     * @throws IOException if the file cannot be written; the writer is then unusable
     */
    public void addRecord(byte[] record) throws IOException {
        addRecord(ByteBuffer.wrap(record));
    }

    /**
     * Appends a record taken from a range of an array and hands it to the operating system.
     *
     * @param record the array holding the record
     * @param offset the index of its first byte
     * @param length its length in bytes
     * @throws IOException if the file cannot be written; the writer is then unusable
     */
    public void addRecord(byte[] record, int offset, int length) throws IOException {
        addRecord(ByteBuffer.wrap(record, offset, length));
    }

    /**
     * Appends the bytes between {@code record}'s position and limit as one record and hands it
     * to the operating system. The buffer's position is not moved.
     *
     * @param record the record's bytes
     * @throws IOException if the file cannot be written; the writer is then unusable
     */
    public void addRecord(ByteBuffer record) throws IOException {
        checkUsable();
        int position = record.position();
        int left = record.remaining();
        boolean begin = true;
        boolean done = false;
        try {
            do {
                int leftover = BLOCK_SIZE - blockOffset;
                if (leftover < HEADER_SIZE) {
                    // Too small for a header: fill the block's tail with zeros, start the next.
                    reserve(leftover);
                    Arrays.fill(buffer, pending, pending + leftover, (byte) 0);
                    pending += leftover;
                    blockOffset = 0;
                }
                int fragment = Math.min(left, BLOCK_SIZE - blockOffset - HEADER_SIZE);
                boolean end = fragment == left;
                int type = begin ? (end ? FULL_TYPE : FIRST_TYPE) : (end ? LAST_TYPE : MIDDLE_TYPE);
                emit(type, record, position, fragment);
                position += fragment;
                left -= fragment;
                begin = false;
            } while (left > 0);
            appendPending();
            file.flush();
            done = true;
        } finally {
            if (!done) {
                failed = true;
            }
        }
    }

    /**
     * Hands every appended byte to the operating system. {@link #addRecord} already does so
     * before it returns; this is for callers that want to say it explicitly.
     *
     * @throws IOException if the file cannot be written; the writer is then unusable
     */
    public void flush() throws IOException {
        checkUsable();
        boolean done = false;
        try {
            file.flush();
            done = true;
        } finally {
            failed |= !done;
        }
    }

    /**
     * Makes every record added so far durable, as {@code fsync} does.
     *
     * @throws IOException if the sync fails; the writer is then unusable
     */
    public void sync() throws IOException {
        checkUsable();
        boolean done = false;
        try {
            file.sync();
            done = true;
        } finally {
            failed |= !done;
        }
    }

    /**
     * The length of the log file: the existing length given at construction plus every byte
     * this writer appended.
     *
     * @return the file length in bytes
     */
    public long length() {
        return length;
    }

    /**
     * Closes the file without syncing it; call {@link #sync()} first when the records must be
     * durable. Closing twice does nothing.
     *
     * @throws IOException if closing the file fails
     */
    @Override
    public void close() throws IOException {
        if (!closed) {
            closed = true;
            buffer = null;
            file.close();
        }
    }

    /** Assembles one physical record at the end of the pending bytes. */
    private void emit(int type, ByteBuffer record, int position, int fragment) throws IOException {
        assert fragment >= 0 && blockOffset + HEADER_SIZE + fragment <= BLOCK_SIZE
                : "fragment=" + fragment + " blockOffset=" + blockOffset;
        reserve(HEADER_SIZE + fragment);
        int h = pending;
        buffer[h + LENGTH_OFFSET] = (byte) fragment;
        buffer[h + LENGTH_OFFSET + 1] = (byte) (fragment >>> 8);
        buffer[h + TYPE_OFFSET] = (byte) type;
        record.get(position, buffer, h + HEADER_SIZE, fragment);
        // The type byte sits right before the payload, so one pass covers both.
        int crc = Crc32c.value(buffer, h + TYPE_OFFSET, 1 + fragment);
        Coding.putFixed32(buffer, h, Crc32c.mask(crc));
        pending += HEADER_SIZE + fragment;
        blockOffset += HEADER_SIZE + fragment;
    }

    /** Makes room for {@code n} more pending bytes, growing the buffer or appending it. */
    private void reserve(int n) throws IOException {
        if (pending + n <= buffer.length) {
            return;
        }
        if (pending + n <= MAX_PENDING_BYTES) {
            int grown = Math.max(pending + n, Math.min(MAX_PENDING_BYTES, 2 * buffer.length));
            buffer = Arrays.copyOf(buffer, grown);
            return;
        }
        appendPending();
        if (n > buffer.length) {
            buffer = new byte[Math.max(n, Math.min(MAX_PENDING_BYTES, 2 * buffer.length))];
        }
    }

    private void appendPending() throws IOException {
        if (pending > 0) {
            file.append(buffer, 0, pending);
            length += pending;
            pending = 0;
        }
    }

    private void checkUsable() {
        if (closed) {
            throw new IllegalStateException("log writer is closed");
        }
        if (failed) {
            throw new IllegalStateException("log writer failed earlier; its file is in an unknown state");
        }
    }
}
