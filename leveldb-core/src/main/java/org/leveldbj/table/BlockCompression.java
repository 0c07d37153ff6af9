package org.leveldbj.table;

import java.nio.ByteBuffer;
import org.iq80.leveldb.CorruptionException;
import org.iq80.leveldb.DBException;
import org.leveldbj.compress.BlockCodec;
import org.leveldbj.compress.Codecs;
import org.leveldbj.util.ByteSink;

/**
 * The one place where table blocks meet compression codecs: the type byte of the block trailer
 * names the codec ({@link #NONE} 0, {@link #SNAPPY} 1, {@link #ZSTD} 2).
 *
 * <p>The codecs come from {@link Codecs}, which picks a native or pure-Java implementation.
 * When an algorithm has no usable implementation at all (only possible when the
 * {@code leveldbj.codec} property rules one out), writing a block with it throws the
 * {@link DBException} saying why, as the {@code compress} package documents: the on-disk
 * compression is never silently changed from what the options ask for. A reader reports such
 * blocks as corruption naming the cause.
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
     * @throws DBException if the codec has no usable implementation
     */
    static void compress(int type, byte[] raw, int length, ByteSink out) {
        out.reset();
        BlockCodec codec = Codecs.forId(type);
        int bound = codec.maxCompressedLength(length);
        out.ensureRoom(bound);
        int written = codec.compress(ByteBuffer.wrap(raw, 0, length), ByteBuffer.wrap(out.array(), 0, bound));
        out.advance(written);
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
        return decompress(type, stored, null);
    }

    /**
     * Decompresses a block into a caller's array when it is large enough.
     *
     * @param type the trailer's type byte, not {@link #NONE}
     * @param stored the stored bytes: the remaining bytes of the buffer
     * @param into an array to decompress into, or {@code null}
     * @return a heap buffer holding the uncompressed block, from position 0: over {@code into}
     *     when the block fits in it, else over a new array
     * @throws CorruptionException if the type is unknown or unsupported or the bytes do not
     *     decompress; the offset (when given) is relative to the stored block
     */
    static ByteBuffer decompress(int type, ByteBuffer stored, byte[] into) {
        BlockCodec codec;
        try {
            codec = Codecs.forId(type);
        } catch (CorruptionException unknown) {
            throw unknown;
        } catch (DBException unavailable) {
            throw new CorruptionException("cannot decompress block of type " + type + ": "
                    + unavailable.getMessage(), null, CorruptionException.UNKNOWN_OFFSET, unavailable);
        }
        if (into == null) {
            return codec.decompress(stored);
        }
        int length = codec.uncompressedLength(stored);
        ByteBuffer output = length <= into.length ? ByteBuffer.wrap(into, 0, length) : ByteBuffer.allocate(length);
        codec.decompress(stored, output);
        return output.flip();
    }
}
