package org.iq80.leveldb;

/**
 * Thrown when bytes read from a database file are not what the format allows: a checksum
 * mismatch, a truncated block, a malformed varint, an unknown record type.
 *
 * <p>This is an extension of the 0.12 API. It is a {@link DBException}, so existing code that
 * catches {@code DBException} keeps working, while code that wants to react to corruption (for
 * instance by calling {@link DBFactory#repair(java.io.File, Options)}) can catch it separately.
 *
 * <p>The message follows C++ LevelDB's wording so that callers matching on text keep working:
 * {@code "Corruption: block checksum mismatch: 000005.ldb at offset 4096"}. The parts are also
 * available separately through {@link #reason()}, {@link #file()} and {@link #offset()}.
 */
public class CorruptionException extends DBException {
    private static final long serialVersionUID = 1L;

    /** The value of {@link #offset()} when the offset is not known. */
    public static final long UNKNOWN_OFFSET = -1;

    private final String reason;
    private final String file;
    private final long offset;

    /**
     * Creates a corruption report without a location; decoders that do not know which file they
     * read use this, and the code that does know adds it with {@link #at(String, long)}.
     *
     * @param reason what is wrong, e.g. {@code "bad varint32"}
     */
    public CorruptionException(String reason) {
        this(reason, null, UNKNOWN_OFFSET, null);
    }

    /**
     * Creates a corruption report naming where the bad bytes are.
     *
     * @param reason what is wrong, e.g. {@code "block checksum mismatch"}
     * @param file the file name or path, or {@code null} when unknown
     * @param offset the byte offset in that file, or {@link #UNKNOWN_OFFSET}
     */
    public CorruptionException(String reason, String file, long offset) {
        this(reason, file, offset, null);
    }

    /**
     * Creates a corruption report naming where the bad bytes are and what detected it.
     *
     * @param reason what is wrong
     * @param file the file name or path, or {@code null} when unknown
     * @param offset the byte offset in that file, or {@link #UNKNOWN_OFFSET}
     * @param cause the underlying failure (e.g. a decompressor's exception), or {@code null}
     */
    public CorruptionException(String reason, String file, long offset, Throwable cause) {
        super(format(reason, file, offset), cause);
        this.reason = reason;
        this.file = file;
        this.offset = offset;
    }

    private static String format(String reason, String file, long offset) {
        StringBuilder sb = new StringBuilder("Corruption: ").append(reason);
        if (file != null) {
            sb.append(": ").append(file);
        }
        if (offset != UNKNOWN_OFFSET) {
            sb.append(file != null ? " at offset " : ": at offset ").append(offset);
        }
        return sb.toString();
    }

    /**
     * What is wrong, without the location.
     *
     * @return the reason, e.g. {@code "block checksum mismatch"}
     */
    public String reason() {
        return reason;
    }

    /**
     * The file holding the bad bytes.
     *
     * @return the file name or path, or {@code null} when unknown
     */
    public String file() {
        return file;
    }

    /**
     * Where in {@link #file()} the bad bytes are.
     *
     * @return the byte offset, or {@link #UNKNOWN_OFFSET}
     */
    public long offset() {
        return offset;
    }

    /**
     * Returns this report placed in a file. When this report has no file yet, the result names
     * {@code file} and {@code baseOffset} plus any offset already known (an offset within a block
     * becomes an offset within the file); otherwise this report is returned unchanged.
     *
     * @param file the file the decoded bytes came from
     * @param baseOffset the offset in the file of the bytes that were being decoded
     * @return a report naming the file, never {@code null}
     */
    public CorruptionException at(String file, long baseOffset) {
        if (this.file != null) {
            return this;
        }
        long where = offset == UNKNOWN_OFFSET ? baseOffset : baseOffset + offset;
        CorruptionException located = new CorruptionException(reason, file, where, getCause());
        located.setStackTrace(getStackTrace());
        return located;
    }
}
