package org.leveldbj.table;

import java.nio.ByteBuffer;
import org.iq80.leveldb.CorruptionException;
import org.leveldbj.util.ByteSink;

/**
 * The one place where table blocks meet compression codecs: the type byte of the block trailer
 * names the codec ({@link #NONE} 0, {@link #SNAPPY} 1, {@link #ZSTD} 2).
 *
 * <p>Only {@link #NONE} is handled here so far; the other codecs are reported as unsupported,
 * so a table builder asked for them stores blocks uncompressed (as C++ LevelDB does when a
 * codec is not compiled in) and a reader reports their blocks as corruption.
 *
 * <p>Thread safety: stateless.
 */
final class BlockCompression {
    /** Stored as is. */
    static final int NONE = 0;
    /** Snappy, C++ LevelDB's default. */
    static final int SNAPPY = 1;
    /** Zstandard (upstream LevelDB after 1.23). */
    static final int ZSTD = 2;

    private BlockCompression() {
    }

    /**
     * Compresses a block.
     *
     * @param type the codec, not {@link #NONE}
     * @param raw the block's bytes: the array's range {@code [0, length)}
     * @param length how many bytes
     * @param out where the compressed form is appended (the sink is reset first)
     * @return {@code true} if {@code out} now holds the compressed form; {@code false} if the
     *     codec is not available, in which case the caller stores the block uncompressed
     */
    static boolean compress(int type, byte[] raw, int length, ByteSink out) {
        out.reset();
        return false;
    }

    /**
     * Decompresses a block.
     *
     * @param type the trailer's type byte, not {@link #NONE}
     * @param stored the stored bytes: the remaining bytes of the buffer
     * @return a new heap buffer holding the uncompressed block
     * @throws CorruptionException if the type is unknown or unsupported or the bytes do not
     *     decompress; the offset (when given) is relative to the stored block
     */
    static ByteBuffer decompress(int type, ByteBuffer stored) {
        throw new CorruptionException("unsupported compression type " + type);
    }
}
