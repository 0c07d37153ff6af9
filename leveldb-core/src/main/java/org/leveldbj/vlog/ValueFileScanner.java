package org.leveldbj.vlog;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.iq80.leveldb.CorruptionException;
import org.iq80.leveldb.Env;
import org.iq80.leveldb.IOErrorException;
import org.leveldbj.util.Coding;
import org.leveldbj.util.Crc32c;

/**
 * Reads a value file's records from start to end, past damage: for verification and dumps.
 *
 * <p>{@link #next()} moves to the next sound record (its header well-formed, the record within
 * the file, its checksum matching) and returns {@code false} at the end of the file. When the
 * bytes at the current position are not a sound record, it throws {@link CorruptionException}
 * naming the file and that offset, having already found where the damage ends: the first later
 * offset at which a sound record starts, or the end of the file ({@link #damageEnd()}). The next
 * call goes on from there, so one damaged record is one exception. {@link #torn()} tells a torn
 * tail (the record was cut short by the end of the file and nothing sound follows it: what a
 * crash leaves) from damage elsewhere.
 *
 * <p>Finding the next sound record: no length read from a damaged record is trusted. A flipped
 * bit in a length moves the end it announces, possibly onto the start of a later record, and
 * jumping there would skip the sound records in between. Instead every offset after the
 * damaged record's first byte is tried in turn, and the first at which a sound record starts
 * ends the damage; so every sound record that starts after the damage is reached. When only the
 * payload was damaged that offset is the damaged record's end, unless its payload itself holds
 * bytes that form a sound record (a value holding a copy of a value file), which is then read as
 * one: bytes are never skipped on the strength of a length the checksum does not vouch for. Each
 * offset costs a header decode and, when the record it announces fits in the file, a checksum
 * found without reading that record ({@link PrefixChecksums}, computed in one pass over the
 * file at the first damage): a few microseconds per damaged byte, whatever the lengths the
 * damaged bytes announce.
 *
 * <p>Thread safety: confined to one thread. Lifetime: {@link #key()} and {@link #value()} are
 * valid until the scanner moves; {@link #close()} closes the file.
 */
public final class ValueFileScanner implements Closeable {
    /** How much of the file the search for a sound record reads at once. */
    private static final int SEARCH_WINDOW = 64 << 10;

    private final Env.RandomAccessFile file;
    private final String fileName;
    private final long size;
    private long offset;
    private long next;
    private ByteBuffer record;
    private ValueRecord.Parsed parsed;
    private boolean torn;
    private long damageEnd = -1;
    /** Checksums of the file's prefixes; computed at the first damage. */
    private PrefixChecksums prefixes;

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
     * Moves to the next sound record.
     *
     * @return {@code false} at the end of the file
     * @throws CorruptionException if the record at the current position is damaged or cut
     *     short; the next call goes on at {@link #damageEnd()}
     */
    public boolean next() {
        record = null;
        parsed = null;
        torn = false;
        damageEnd = -1;
        if (next >= size) {
            return false;
        }
        offset = next;
        int headerBytes = (int) Math.min(ValueRecord.MAX_HEADER_SIZE, size - offset);
        ByteBuffer head = read(offset, headerBytes);
        boolean cutShort = false;
        try {
            int needed;
            try {
                needed = ValueRecord.header(head, fileName, offset).end() - head.position();
            } catch (CorruptionException e) {
                cutShort = headerBytes < ValueRecord.MAX_HEADER_SIZE;
                throw e;
            }
            if (needed > size - offset) {
                cutShort = true;
                throw new CorruptionException("truncated value record: " + needed + " bytes, "
                        + (size - offset) + " left in the file", fileName, offset);
            }
            ByteBuffer whole = read(offset, needed);
            parsed = ValueRecord.parse(whole, fileName, offset);
            record = whole;
            next = offset + needed;
            return true;
        } catch (CorruptionException e) {
            parsed = null;
            damageEnd = nextSoundRecord(offset + 1);
            torn = cutShort && damageEnd == size;
            next = damageEnd;
            throw e;
        }
    }

    /**
     * Whether the last failure of {@link #next()} was a record cut short by the end of the file,
     * with nothing sound after it.
     *
     * @return {@code true} for a torn tail
     */
    public boolean torn() {
        return torn;
    }

    /**
     * Where the damage the last failure of {@link #next()} reported ends: the offset of the next
     * sound record, or the file's size when none follows.
     *
     * @return the offset the next call of {@link #next()} reads at
     * @throws IllegalStateException if the last call of {@link #next()} did not fail
     */
    public long damageEnd() {
        if (damageEnd < 0) {
            throw new IllegalStateException("no damage reported by the last call of next()");
        }
        return damageEnd;
    }

    /** The first offset from {@code from} at which a sound record starts, or the file's size. */
    private long nextSoundRecord(long from) {
        long last = size - (ValueRecord.CRC_SIZE + 2); // where the smallest record would start
        if (from > last) {
            return size;
        }
        if (prefixes == null) {
            prefixes = new PrefixChecksums(this::read, size);
        }
        // The checksum of the file up to the candidate's checksummed bytes, moved on a byte a step.
        int crcBefore = prefixes.prefix(from + ValueRecord.CRC_SIZE);
        ByteBuffer window = null;
        long windowStart = 0;
        for (long at = from; at <= last; at++) {
            long windowEnd = window == null ? 0 : windowStart + window.limit();
            if (window == null || (at + ValueRecord.MAX_HEADER_SIZE > windowEnd && windowEnd < size)) {
                windowStart = at;
                window = read(at, (int) Math.min(SEARCH_WINDOW, size - at));
            }
            int i = (int) (at - windowStart);
            long recordSize = ValueRecord.announcedSize(window, i, window.limit());
            if (recordSize >= 0 && recordSize <= size - at) {
                int expected = Crc32c.unmask(Coding.getFixed32(window, i, window.limit()));
                long end = at + recordSize;
                if (Crc32c.ofTail(crcBefore, prefixes.prefix(end), recordSize - ValueRecord.CRC_SIZE) == expected) {
                    return at;
                }
            }
            crcBefore = Crc32c.extend(crcBefore, window.get(i + ValueRecord.CRC_SIZE));
        }
        return size;
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
