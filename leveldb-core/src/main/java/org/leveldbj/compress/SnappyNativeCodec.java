package org.leveldbj.compress;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.xerial.snappy.Snappy;
import org.xerial.snappy.SnappyError;

/**
 * Snappy (type 1) compressed through snappy-java, which runs Google's C++ snappy over JNI. The
 * stored bytes are those of {@code snappy::RawCompress}, as C++ LevelDB writes them.
 *
 * <p>Decoding into an array uses {@link SnappyJavaCodec}'s decoder rather than snappy-java's:
 * the native library snappy-java bundles decodes more slowly than that Java code at every block
 * size (real 4 KiB table blocks: 0.98-1.07 against 0.78-0.82 microseconds each, mapped bytes
 * copied to the heap included; 100 KB: 14.1 against 11.5; 1 MB: 142 against 110), while its
 * compression is twice as fast as the Java compressor. Direct-to-direct decoding stays native.
 *
 * <p>Direct and heap buffers: heap-to-heap and direct-to-direct run in place. A direct input
 * with a heap output (a mapped table block) first copies the compressed bytes to the heap; a
 * read-only heap buffer is copied likewise.
 *
 * <p>Thread safety: stateless (snappy-java keeps no state between calls). Constructing this class
 * loads the native library and fails with a {@link LinkageError} or {@link SnappyError} when it
 * cannot; {@link Codecs} catches that and falls back to {@link SnappyJavaCodec}.
 */
final class SnappyNativeCodec implements BlockCodec {

    SnappyNativeCodec() {
        // Touching the class loads the library now rather than at the first block.
        Snappy.maxCompressedLength(0);
    }

    @Override
    public int id() {
        return CodecIds.SNAPPY;
    }

    @Override
    public String implementationName() {
        return "snappy-java";
    }

    @Override
    public boolean isNative() {
        return true;
    }

    @Override
    public int maxCompressedLength(int uncompressedLength) {
        CodecSupport.requireCompressible(uncompressedLength);
        return Snappy.maxCompressedLength(uncompressedLength);
    }

    @Override
    public int compress(ByteBuffer input, ByteBuffer output) {
        int length = input.remaining();
        int bound = maxCompressedLength(length);
        CodecSupport.requireSpace(output, bound);
        int written;
        try {
            if (input.isDirect() && output.isDirect()) {
                // Compresses at the positions and moves neither, but sets the output's limit.
                written = Snappy.compress(input.duplicate(), output.duplicate());
            } else {
                ByteBuffer in = CodecSupport.onHeap(input);
                ByteBuffer out = output.hasArray() ? output : ByteBuffer.allocate(bound);
                written = Snappy.rawCompress(in.array(), CodecSupport.arrayPosition(in), length,
                        out.array(), CodecSupport.arrayPosition(out));
                if (out != output) {
                    output.duplicate().put(out.array(), 0, written);
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("snappy-java failed to compress " + length + " bytes", e);
        }
        output.position(output.position() + written);
        return written;
    }

    @Override
    public int uncompressedLength(ByteBuffer compressed) {
        return SnappyHeader.uncompressedLength(compressed);
    }

    @Override
    public void decompress(ByteBuffer compressed, ByteBuffer output) {
        // The header is parsed and bounded, and the output checked to hold that many bytes,
        // before native code writes as many bytes as the header announces.
        int length = SnappyHeader.uncompressedLength(compressed);
        CodecSupport.requireSpace(output, length);
        if (!compressed.isDirect() || !output.isDirect()) {
            SnappyJavaCodec.decodeInto(compressed, output, length);
            return;
        }
        long decoded;
        try {
            decoded = Snappy.uncompress(compressed.duplicate(), CodecSupport.window(output, length));
        } catch (IOException | RuntimeException | SnappyError e) {
            throw CodecSupport.contents(SnappyHeader.ALGORITHM, e);
        }
        CodecSupport.requireDecoded(SnappyHeader.ALGORITHM, decoded, length);
        output.position(output.position() + length);
    }
}
