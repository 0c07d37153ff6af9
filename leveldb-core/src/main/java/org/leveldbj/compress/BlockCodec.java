package org.leveldbj.compress;

import java.nio.ByteBuffer;
import org.iq80.leveldb.CorruptionException;

/**
 * One block compression algorithm of the table format, in one implementation: turns the bytes of
 * a block into the bytes stored in a table file, and back. The stored bytes of each algorithm are
 * described in the package documentation; every implementation of an algorithm reads what every
 * other implementation of it writes.
 *
 * <p>Thread safety: implementations are safe for concurrent use by any number of threads. Any
 * reusable state (native contexts, hash tables) is borrowed from a bounded pool for the duration
 * of one call.
 *
 * <p>Lifetime: codecs are long-lived; obtain them from {@link Codecs} and never close them.
 *
 * <p>Buffer conventions: a {@code ByteBuffer} argument that is read (the input of
 * {@link #compress(ByteBuffer, ByteBuffer)}, the {@code compressed} argument of the decoding
 * methods) supplies the bytes between its position and its limit, and none of its position, limit
 * or mark is changed, so callers may pass a shared read-only view of a mapped file. A buffer that
 * is written (an {@code output}) receives bytes from its position on, and its position is advanced
 * past them; its limit is left alone. Heap, direct and read-only inputs are all accepted; outputs
 * must be writable. Where the underlying library can read a direct buffer in place it does; where
 * it cannot, the compressed bytes are copied to the heap first (never the larger decoded bytes).
 *
 * <p>Errors: malformed compressed bytes raise {@link CorruptionException} with a reason in C++
 * LevelDB's wording (e.g. {@code "corrupted snappy compressed block contents"}) and no location;
 * the caller adds the file and offset with {@link CorruptionException#at(String, long)}. Misuse
 * by the caller (an output too small, a read-only output) raises an unchecked exception other
 * than {@code CorruptionException}.
 */
public interface BlockCodec {

    /**
     * The compression type id stored in a block trailer.
     *
     * @return {@link CodecIds#NONE}, {@link CodecIds#SNAPPY} or {@link CodecIds#ZSTD}
     */
    int id();

    /**
     * The algorithm, independent of the implementation.
     *
     * @return {@code "none"}, {@code "snappy"} or {@code "zstd"}
     */
    default String algorithm() {
        return CodecIds.algorithmName(id());
    }

    /**
     * Which library does the work, for logs and benchmark headers.
     *
     * @return e.g. {@code "snappy-java"}, {@code "zstd-jni"}, {@code "aircompressor"}
     */
    String implementationName();

    /**
     * Whether this implementation runs native code (as opposed to pure Java).
     *
     * @return {@code true} for a JNI-backed implementation
     */
    boolean isNative();

    /**
     * An upper bound on the compressed size of any input of the given length.
     *
     * <p>Requires: {@code 0 <= uncompressedLength <= }{@link CodecIds#MAX_UNCOMPRESSED_LENGTH}.
     *
     * @param uncompressedLength the number of bytes to compress
     * @return the output space {@link #compress(ByteBuffer, ByteBuffer)} may need
     */
    int maxCompressedLength(int uncompressedLength);

    /**
     * Compresses the bytes between {@code input}'s position and limit into {@code output}.
     *
     * <p>Requires: {@code input.remaining() <= }{@link CodecIds#MAX_UNCOMPRESSED_LENGTH};
     * {@code output.remaining() >= maxCompressedLength(input.remaining())}.
     *
     * @param input the bytes to compress; left unchanged
     * @param output where the compressed bytes go; its position advances past them
     * @return the number of compressed bytes written
     */
    int compress(ByteBuffer input, ByteBuffer output);

    /**
     * Compresses part of an array into a new array of exactly the compressed size.
     *
     * @param input the array holding the bytes to compress
     * @param offset where they start
     * @param length how many there are
     * @return the compressed bytes
     */
    default byte[] compress(byte[] input, int offset, int length) {
        ByteBuffer source = ByteBuffer.wrap(input, offset, length);
        byte[] scratch = new byte[maxCompressedLength(length)];
        int written = compress(source, ByteBuffer.wrap(scratch));
        return written == scratch.length ? scratch : java.util.Arrays.copyOf(scratch, written);
    }

    /**
     * Reads the decoded length that compressed bytes announce, without decoding them. The result
     * is validated: it is at most {@link CodecIds#MAX_UNCOMPRESSED_LENGTH} and no more than the
     * input could expand to.
     *
     * @param compressed the stored bytes between position and limit; left unchanged
     * @return the number of bytes {@link #decompress(ByteBuffer, ByteBuffer)} will produce
     * @throws CorruptionException when the announced length is missing, malformed or implausible
     */
    int uncompressedLength(ByteBuffer compressed);

    /**
     * Decodes {@code compressed} into {@code output}, writing exactly
     * {@code uncompressedLength(compressed)} bytes.
     *
     * <p>Requires: {@code output.remaining() >= uncompressedLength(compressed)}; otherwise an
     * {@link IllegalArgumentException} is thrown and nothing is written.
     *
     * @param compressed the stored bytes between position and limit; left unchanged
     * @param output where the decoded bytes go; its position advances past them. On a
     *     {@code CorruptionException} the bytes after its position are unspecified.
     * @throws CorruptionException when the bytes are not a valid encoding
     */
    void decompress(ByteBuffer compressed, ByteBuffer output);

    /**
     * Decodes {@code compressed} into a new heap buffer owned by the caller.
     *
     * @param compressed the stored bytes between position and limit; left unchanged
     * @return a buffer with position 0 and limit equal to the decoded length
     * @throws CorruptionException when the bytes are not a valid encoding
     */
    default ByteBuffer decompress(ByteBuffer compressed) {
        ByteBuffer output = ByteBuffer.allocate(uncompressedLength(compressed));
        decompress(compressed, output);
        return output.flip();
    }
}
