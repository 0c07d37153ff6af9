package org.leveldbj.compress;

import org.iq80.leveldb.CorruptionException;

/**
 * The compression type ids of the table format (the first byte of every block trailer) and the
 * limits every codec enforces.
 *
 * <p>Thread safety: constants and pure functions only.
 */
public final class CodecIds {
    /** Stored as is. */
    public static final int NONE = 0;
    /** Raw snappy block format (not the framing format). */
    public static final int SNAPPY = 1;
    /** One zstd frame that records its content size. */
    public static final int ZSTD = 2;

    /**
     * The largest decoded block any codec accepts or produces: 1 GiB. Table blocks are a few KiB
     * (larger only when a single value is large); the cap stops a corrupted length header from
     * making a reader allocate gigabytes.
     */
    public static final int MAX_UNCOMPRESSED_LENGTH = 1 << 30;

    private CodecIds() {}

    /**
     * The algorithm name of an id.
     *
     * @param id a compression type id
     * @return {@code "none"}, {@code "snappy"} or {@code "zstd"}
     * @throws CorruptionException for any other id: {@code "unknown compression type 7"}
     */
    public static String algorithmName(int id) {
        switch (id) {
            case NONE:
                return "none";
            case SNAPPY:
                return "snappy";
            case ZSTD:
                return "zstd";
            default:
                throw unknown(id);
        }
    }

    static CorruptionException unknown(int id) {
        return new CorruptionException("unknown compression type " + id);
    }
}
