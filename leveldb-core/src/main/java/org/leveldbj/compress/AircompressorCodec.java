package org.leveldbj.compress;

import java.nio.ByteBuffer;

/**
 * What the two pure-Java codecs share: buffer handling around an aircompressor compressor and
 * decompressor. aircompressor addresses heap arrays and direct buffers alike, so every
 * combination of buffers runs in place, except a read-only heap input, whose array is hidden and
 * which is copied first. Subclasses supply the format: its header parsing, its bound and the
 * two raw calls.
 *
 * <p>Thread safety: as safe as the subclass's raw calls; both codecs are safe for concurrent use.
 */
abstract class AircompressorCodec implements BlockCodec {
    /** The algorithm's name in error reports. */
    private final String algorithm;

    AircompressorCodec(String algorithm) {
        this.algorithm = algorithm;
    }

    @Override
    public final String implementationName() {
        return "aircompressor";
    }

    @Override
    public final boolean isNative() {
        return false;
    }

    @Override
    public final int maxCompressedLength(int uncompressedLength) {
        CodecSupport.requireCompressible(uncompressedLength);
        return bound(uncompressedLength);
    }

    @Override
    public final int compress(ByteBuffer input, ByteBuffer output) {
        CodecSupport.requireSpace(output, maxCompressedLength(input.remaining()));
        ByteBuffer out = output.duplicate();
        compressRaw(inPlace(input), out);
        int written = out.position() - output.position();
        output.position(out.position());
        return written;
    }

    @Override
    public final void decompress(ByteBuffer compressed, ByteBuffer output) {
        int length = uncompressedLength(compressed);
        CodecSupport.requireSpace(output, length);
        ByteBuffer out = CodecSupport.window(output, length);
        try {
            decompressRaw(inPlace(compressed), out);
        } catch (RuntimeException e) {
            throw CodecSupport.contents(algorithm, e);
        }
        CodecSupport.requireDecoded(algorithm, out.position() - output.position(), length);
        output.position(out.position());
    }

    /** An independent view of the input that aircompressor can read in place. */
    private static ByteBuffer inPlace(ByteBuffer input) {
        return input.isDirect() ? input.duplicate() : CodecSupport.onHeap(input).duplicate();
    }

    /** The format's worst-case compressed size; the length is already checked. */
    abstract int bound(int uncompressedLength);

    /** Compresses every remaining byte of {@code in}, advancing {@code out}'s position. */
    abstract void compressRaw(ByteBuffer in, ByteBuffer out);

    /**
     * Decodes {@code in} into {@code out} (whose limit is the announced length), advancing
     * {@code out}'s position; malformed input throws a {@link RuntimeException}.
     */
    abstract void decompressRaw(ByteBuffer in, ByteBuffer out);
}
