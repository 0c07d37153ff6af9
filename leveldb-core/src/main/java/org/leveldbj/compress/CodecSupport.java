package org.leveldbj.compress;

import java.nio.ByteBuffer;
import org.iq80.leveldb.CorruptionException;

/**
 * Helpers shared by the codec implementations: buffer access without moving positions, output
 * checks and corruption reports.
 *
 * <p>Thread safety: stateless.
 */
final class CodecSupport {
    private CodecSupport() {}

    /**
     * Whether the library array APIs can address this buffer's bytes in place (a writable heap
     * buffer; read-only heap buffers hide their array).
     */
    static boolean isArrayBacked(ByteBuffer buffer) {
        return buffer.hasArray();
    }

    /** The index in {@code buffer.array()} of the buffer's position. Requires: array-backed. */
    static int arrayPosition(ByteBuffer buffer) {
        return buffer.arrayOffset() + buffer.position();
    }

    /**
     * The buffer itself when array-backed, otherwise a heap copy of its remaining bytes (for
     * libraries whose array calls cannot read direct or read-only buffers).
     */
    static ByteBuffer onHeap(ByteBuffer buffer) {
        return buffer.hasArray() ? buffer : ByteBuffer.wrap(copyRemaining(buffer));
    }

    /** Copies the bytes between position and limit into a new array; the buffer is unchanged. */
    static byte[] copyRemaining(ByteBuffer buffer) {
        byte[] copy = new byte[buffer.remaining()];
        buffer.get(buffer.position(), copy);
        return copy;
    }

    /** A view of {@code length} bytes of {@code buffer} from its position, independent of it. */
    static ByteBuffer window(ByteBuffer buffer, int length) {
        ByteBuffer view = buffer.duplicate();
        view.limit(view.position() + length);
        return view;
    }

    /** Rejects a caller-supplied output that cannot take {@code needed} bytes. */
    static void requireSpace(ByteBuffer output, int needed) {
        if (output.isReadOnly()) {
            throw new IllegalArgumentException("output buffer is read-only");
        }
        if (output.remaining() < needed) {
            throw new IllegalArgumentException(
                    "output too small: needed=" + needed + " remaining=" + output.remaining());
        }
    }

    /** Rejects an input longer than any codec accepts. */
    static void requireCompressible(int length) {
        if (length < 0 || length > CodecIds.MAX_UNCOMPRESSED_LENGTH) {
            throw new IllegalArgumentException("input length " + length + " not in [0, "
                    + CodecIds.MAX_UNCOMPRESSED_LENGTH + "]");
        }
    }

    /** Checks a library's reported output size against the size it was asked for. */
    static void requireDecoded(String algorithm, long decoded, int expected) {
        if (decoded != expected) {
            throw contents(algorithm, null);
        }
    }

    /** The report for a block whose announced length is missing or implausible. */
    static CorruptionException length(String algorithm) {
        return new CorruptionException("corrupted " + algorithm + " compressed block length");
    }

    /** The report for a block whose compressed body does not decode. */
    static CorruptionException contents(String algorithm, Throwable cause) {
        return new CorruptionException("corrupted " + algorithm + " compressed block contents",
                null, CorruptionException.UNKNOWN_OFFSET, cause);
    }
}
