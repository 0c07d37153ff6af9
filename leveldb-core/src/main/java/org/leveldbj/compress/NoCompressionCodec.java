package org.leveldbj.compress;

import java.nio.ByteBuffer;

/**
 * Compression type 0: the stored bytes are the block itself. Both directions are plain copies;
 * a table reader that can use stored bytes in place should not call {@link #decompress} at all.
 *
 * <p>Thread safety: stateless. Lifetime: a process-wide singleton, {@link #INSTANCE}.
 */
final class NoCompressionCodec implements BlockCodec {
    static final NoCompressionCodec INSTANCE = new NoCompressionCodec();

    private NoCompressionCodec() {}

    @Override
    public int id() {
        return CodecIds.NONE;
    }

    @Override
    public String implementationName() {
        return "none";
    }

    @Override
    public boolean isNative() {
        return false;
    }

    @Override
    public int maxCompressedLength(int uncompressedLength) {
        CodecSupport.requireCompressible(uncompressedLength);
        return uncompressedLength;
    }

    @Override
    public int compress(ByteBuffer input, ByteBuffer output) {
        int length = input.remaining();
        CodecSupport.requireCompressible(length);
        CodecSupport.requireSpace(output, length);
        output.put(input.duplicate());
        return length;
    }

    @Override
    public int uncompressedLength(ByteBuffer compressed) {
        return compressed.remaining();
    }

    @Override
    public void decompress(ByteBuffer compressed, ByteBuffer output) {
        CodecSupport.requireSpace(output, compressed.remaining());
        output.put(compressed.duplicate());
    }
}
