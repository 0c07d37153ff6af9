package org.leveldbj.log;

/**
 * The constants of the log format shared by {@link LogWriter} and {@link LogReader}; the byte
 * layout they describe is in the package documentation.
 *
 * <p>Thread safety: constants only.
 */
public final class LogFormat {
    /** The size of a block: no physical record crosses a multiple of this offset. */
    public static final int BLOCK_SIZE = 32 * 1024;

    /** The size of a physical record's header: checksum (4), length (2), type (1). */
    public static final int HEADER_SIZE = 4 + 2 + 1;

    /** The most payload bytes one physical record carries. */
    public static final int MAX_FRAGMENT_LENGTH = BLOCK_SIZE - HEADER_SIZE;

    /** Type of preallocated space: a header of zeros. Never written by {@link LogWriter}. */
    public static final int ZERO_TYPE = 0;
    /** Type of a physical record holding a whole logical record. */
    public static final int FULL_TYPE = 1;
    /** Type of the first fragment of a logical record that spans blocks. */
    public static final int FIRST_TYPE = 2;
    /** Type of an inner fragment of a logical record that spans three or more blocks. */
    public static final int MIDDLE_TYPE = 3;
    /** Type of the last fragment of a logical record that spans blocks. */
    public static final int LAST_TYPE = 4;
    /** The largest type a valid log holds. */
    public static final int MAX_TYPE = LAST_TYPE;

    /** Offset of the masked CRC32C (fixed32) within a header. */
    static final int CHECKSUM_OFFSET = 0;
    /** Offset of the payload length (fixed16, little-endian) within a header. */
    static final int LENGTH_OFFSET = 4;
    /** Offset of the type byte within a header; the checksum covers it and the payload. */
    static final int TYPE_OFFSET = 6;

    private LogFormat() {
    }
}
