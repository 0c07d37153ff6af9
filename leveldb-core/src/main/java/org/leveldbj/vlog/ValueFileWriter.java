package org.leveldbj.vlog;

import java.io.Closeable;
import java.io.IOException;
import org.iq80.leveldb.Env;

/**
 * Appends records to one new value file and hands back their references.
 *
 * <p>The file starts with the magic bytes; {@link #append} writes a record's header, key and
 * value in that order and flushes them to the operating system, so that readers of the file
 * (through {@link ValueFiles}) and a process crash see every record whose reference was handed
 * out. {@link #sync} makes them durable against a machine crash.
 *
 * <p>Thread safety: confined to one thread at a time (the database's write leader).
 * Lifetime: {@link #close} closes the file; the writer cannot be used afterwards.
 */
public final class ValueFileWriter implements Closeable {
    /** The size of the file header (the magic bytes) before the first record. */
    public static final int HEADER_SIZE = ValueRecord.MAGIC.length;

    private final Env.WritableFile file;
    private final long number;
    private final byte[] header = new byte[ValueRecord.MAX_HEADER_SIZE];
    private long size;
    private long valueBytes;
    private boolean synced = true;

    /**
     * Starts a value file by writing its magic bytes.
     *
     * @param file the new, empty file; owned from now on
     * @param number the file's number
     * @throws IOException if writing fails (the file is closed)
     */
    public ValueFileWriter(Env.WritableFile file, long number) throws IOException {
        this.file = file;
        this.number = number;
        try {
            file.append(ValueRecord.MAGIC, 0, ValueRecord.MAGIC.length);
            file.flush();
        } catch (IOException | RuntimeException e) {
            try {
                file.close();
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
        size = ValueRecord.MAGIC.length;
    }

    /**
     * Appends a record and flushes it to the operating system.
     *
     * @param key the array holding the key
     * @param keyOffset the key's first byte
     * @param keyLength the key's length
     * @param value the array holding the value
     * @param valueOffset the value's first byte
     * @param valueLength the value's length
     * @return where the value now lives
     * @throws IOException if writing fails; the file's end is then unknown and the writer must
     *     not be used again
     */
    public ValueReference append(byte[] key, int keyOffset, int keyLength,
                                 byte[] value, int valueOffset, int valueLength) throws IOException {
        int headerSize = ValueRecord.encodeHeader(header, key, keyOffset, keyLength, value, valueOffset, valueLength);
        long recordSize = (long) headerSize + keyLength + valueLength;
        if (recordSize > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("value record of " + recordSize + " bytes exceeds 2 GiB");
        }
        long offset = size;
        file.append(header, 0, headerSize);
        file.append(key, keyOffset, keyLength);
        file.append(value, valueOffset, valueLength);
        file.flush();
        size += recordSize;
        valueBytes += valueLength;
        synced = false;
        return new ValueReference(number, offset, (int) recordSize, valueLength);
    }

    /**
     * Makes every appended record durable.
     *
     * @throws IOException if syncing fails
     */
    public void sync() throws IOException {
        if (!synced) {
            file.sync();
            synced = true;
        }
    }

    /**
     * The file's size: magic bytes and records appended.
     *
     * @return the size in bytes
     */
    public long size() {
        return size;
    }

    /**
     * The bytes of values appended (without keys and headers).
     *
     * @return the sum of the values' lengths
     */
    public long valueBytes() {
        return valueBytes;
    }

    /**
     * The file's number.
     *
     * @return the number
     */
    public long number() {
        return number;
    }

    @Override
    public void close() throws IOException {
        file.close();
    }
}
