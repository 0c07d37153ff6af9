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

    /**
     * The most bytes a thread keeps for {@link #onHeapScratch} between calls: the stored size of
     * a block holding a value of several MB. A larger input gets an array of its own each time
     * (a new array that large is zeroed first and, in G1, takes whole heap regions: for 1 MB
     * values, allocating the scratch per read took a fifth of a random read's time).
     */
    static final int MAX_SCRATCH = 4 << 20;
    private static final ThreadLocal<byte[]> SCRATCH = ThreadLocal.withInitial(() -> new byte[8 << 10]);

    /**
     * Like {@link #onHeap}, but a direct buffer's bytes are copied into an array the calling
     * thread reuses: the result is valid only until this thread's next call, so it must be
     * consumed at once (as the input of a decompression is).
     */
    static ByteBuffer onHeapScratch(ByteBuffer buffer) {
        if (buffer.hasArray()) {
            return buffer;
        }
        int n = buffer.remaining();
        byte[] scratch = SCRATCH.get();
        if (scratch.length < n) {
            scratch = new byte[Math.max(n, 2 * scratch.length)];
            if (scratch.length <= MAX_SCRATCH) {
                SCRATCH.set(scratch);
            }
        }
        buffer.get(buffer.position(), scratch, 0, n);
        return ByteBuffer.wrap(scratch, 0, n);
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
