package org.leveldbj.log;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.zip.CRC32C;

/**
 * A log written into memory by a {@link LogWriter}, edited byte by byte, then read back by a
 * {@link LogReader} with a {@link RecordingReporter}. Records are strings whose characters are
 * bytes (ISO-8859-1). Test helper; one per test.
 */
final class LogHarness {
    final ByteArrayWritableFile dest = new ByteArrayWritableFile();
    final LogWriter writer = new LogWriter(dest);
    final RecordingReporter reporter = new RecordingReporter();
    private byte[] edited;
    private LogReader reader;
    private long initialOffset;
    private boolean checksum = true;

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    static String string(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return new String(out, StandardCharsets.ISO_8859_1);
    }

    /** {@code partial} repeated to exactly {@code n} characters. */
    static String bigString(String partial, int n) {
        StringBuilder sb = new StringBuilder(n);
        while (sb.length() < n) {
            sb.append(partial);
        }
        sb.setLength(n);
        return sb.toString();
    }

    /** The decimal digits of {@code n} followed by a period. */
    static String numberString(int n) {
        return n + ".";
    }

    /** The masked CRC32C of {@code data[offset, offset + length)}, computed without util. */
    static int maskedCrc(byte[] data, int offset, int length) {
        CRC32C crc = new CRC32C();
        crc.update(data, offset, length);
        int c = (int) crc.getValue();
        return ((c >>> 15) | (c << 17)) + 0xa282ead8;
    }

    LogHarness write(String record) {
        if (edited != null || reader != null) {
            throw new IllegalStateException("write before editing or reading");
        }
        try {
            writer.addRecord(bytes(record));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    long writtenBytes() {
        return edited != null ? edited.length : dest.length();
    }

    /** Where the next record written will start: past a block tail too short for a header. */
    long nextRecordOffset() {
        long written = writtenBytes();
        long leftover = LogFormat.BLOCK_SIZE - written % LogFormat.BLOCK_SIZE;
        return leftover < LogFormat.HEADER_SIZE ? written + leftover : written;
    }

    byte[] contents() {
        return edited != null ? edited.clone() : dest.contents();
    }

    private byte[] editable() {
        if (reader != null) {
            throw new IllegalStateException("edit before reading");
        }
        if (edited == null) {
            edited = dest.contents();
        }
        return edited;
    }

    void setByte(int offset, int value) {
        editable()[offset] = (byte) value;
    }

    void incrementByte(int offset, int delta) {
        editable()[offset] += (byte) delta;
    }

    /** Appends raw bytes after what the writer wrote. */
    void appendRaw(byte[] raw) {
        byte[] b = editable();
        edited = Arrays.copyOf(b, b.length + raw.length);
        System.arraycopy(raw, 0, edited, b.length, raw.length);
    }

    void shrinkSize(int bytes) {
        edited = Arrays.copyOf(editable(), editable().length - bytes);
    }

    /** Recomputes the checksum of the physical record whose header is at {@code headerOffset}. */
    void fixChecksum(int headerOffset, int payloadLength) {
        byte[] b = editable();
        int crc = maskedCrc(b, headerOffset + 6, 1 + payloadLength);
        b[headerOffset] = (byte) crc;
        b[headerOffset + 1] = (byte) (crc >>> 8);
        b[headerOffset + 2] = (byte) (crc >>> 16);
        b[headerOffset + 3] = (byte) (crc >>> 24);
    }

    void startReadingAt(long offset) {
        initialOffset = offset;
    }

    void withoutChecksums() {
        checksum = false;
    }

    LogReader reader() {
        if (reader == null) {
            reader = new LogReader(new ByteArraySequentialFile(contents()), reporter, checksum, initialOffset);
        }
        return reader;
    }

    /** The next record, or {@code "EOF"}. */
    String read() {
        try {
            ByteBuffer record = reader().readRecord();
            return record == null ? "EOF" : string(record);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    long droppedBytes() {
        return reporter.droppedBytes();
    }

    String reportMessage() {
        return reporter.reasons();
    }
}
