package org.leveldbj.vlog;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.iq80.leveldb.CorruptionException;
import org.iq80.leveldb.Env;
import org.iq80.leveldb.IOErrorException;

/**
 * Reads a value file's records from start to end: for verification, dumps and repair.
 *
 * <p>{@link #next()} moves to the next record and returns {@code false} at the end of the file.
 * A damaged record, or one cut short by the end of the file (the torn tail a crash leaves),
 * throws {@link CorruptionException} naming the file and the record's offset; {@link #torn()}
 * then tells a short tail (nothing readable follows) from damage in the middle.
 *
 * <p>Thread safety: confined to one thread. Lifetime: {@link #key()} and {@link #value()} are
 * valid until the scanner moves; {@link #close()} closes the file.
 */
public final class ValueFileScanner implements Closeable {
    private final Env.RandomAccessFile file;
    private final String fileName;
    private final long size;
    private long offset;
    private long next;
    private ByteBuffer record;
    private ValueRecord.Parsed parsed;
    private boolean torn;

    /**
     * Opens a scanner and checks the file's magic bytes.
     *
     * @param file the value file, owned from now on
     * @param fileName its name, for reports
     * @throws CorruptionException if the file does not start with the magic bytes (the file is
     *     closed)
     */
    public ValueFileScanner(Env.RandomAccessFile file, String fileName) {
        this.file = file;
        this.fileName = fileName;
        this.size = file.size();
        boolean ok = false;
        try {
            ByteBuffer head = read(0, (int) Math.min(size, ValueFileWriter.HEADER_SIZE));
            byte[] got = new byte[head.remaining()];
            head.get(head.position(), got);
            ok = isValueFileStart(got);
        } finally {
            if (!ok) {
                closeQuietly();
            }
        }
        if (!ok) {
            throw new CorruptionException("not a value file (no LJVLOG01 header)", fileName, 0);
        }
        this.next = ValueFileWriter.HEADER_SIZE;
    }

    /**
     * Whether bytes read from the start of a file are a value file's magic bytes.
     *
     * @param head the file's first {@link ValueFileWriter#HEADER_SIZE} bytes (fewer when the file
     *     is shorter)
     * @return {@code true} for a value file
     */
    public static boolean isValueFileStart(byte[] head) {
        return Arrays.equals(head, ValueRecord.MAGIC);
    }

    /**
     * Moves to the next record.
     *
     * @return {@code false} at the end of the file
     * @throws CorruptionException if the record is damaged or cut short
     */
    public boolean next() {
        record = null;
        parsed = null;
        if (next >= size) {
            return false;
        }
        offset = next;
        int headerBytes = (int) Math.min(ValueRecord.MAX_HEADER_SIZE, size - offset);
        ByteBuffer head = read(offset, headerBytes);
        int needed;
        try {
            needed = ValueRecord.header(head, fileName, offset).end() - head.position();
        } catch (CorruptionException e) {
            torn = headerBytes < ValueRecord.MAX_HEADER_SIZE;
            throw e;
        }
        if (needed > size - offset) {
            torn = true;
            throw new CorruptionException("truncated value record: " + needed + " bytes, "
                    + (size - offset) + " left in the file", fileName, offset);
        }
        ByteBuffer whole = read(offset, needed);
        parsed = ValueRecord.parse(whole, fileName, offset);
        record = whole;
        next = offset + needed;
        return true;
    }

    /**
     * Whether the last failure of {@link #next()} was a record cut short by the end of the file.
     *
     * @return {@code true} for a torn tail
     */
    public boolean torn() {
        return torn;
    }

    /** @return the current record's offset in the file */
    public long offset() {
        return offset;
    }

    /** @return the current record's size */
    public int recordSize() {
        return (int) (next - offset);
    }

    /** @return a view of the current record's key */
    public ByteBuffer key() {
        return record.slice(parsed.keyOffset(), parsed.keyLength());
    }

    /** @return a view of the current record's value */
    public ByteBuffer value() {
        return record.slice(parsed.valueOffset(), parsed.valueLength());
    }

    /**
     * A reference to the current record.
     *
     * @param fileNumber the file's number
     * @return where the current value lives
     */
    public ValueReference reference(long fileNumber) {
        return new ValueReference(fileNumber, offset, recordSize(), parsed.valueLength());
    }

    @Override
    public void close() {
        closeQuietly();
    }

    private ByteBuffer read(long at, int length) {
        try {
            return file.read(at, length);
        } catch (IOException e) {
            throw new IOErrorException("IO error: " + fileName + ": reading " + length + " bytes at offset " + at
                    + ": " + e.getMessage(), e);
        }
    }

    private void closeQuietly() {
        try {
            file.close();
        } catch (IOException ignored) {
            // only read
        }
    }
}
