package org.leveldbj.compress;

import io.airlift.compress.snappy.SnappyCompressor;
import io.airlift.compress.snappy.SnappyDecompressor;
import io.airlift.compress.snappy.SnappyRawCompressor;
import java.nio.ByteBuffer;

/**
 * Snappy (type 1) in pure Java through aircompressor; the fallback when snappy-java cannot load.
 * Reads and writes the same raw snappy block format as {@link SnappyNativeCodec}.
 *
 * <p>Direct and heap buffers: aircompressor addresses heap arrays and direct buffers alike, so
 * every combination runs in place, except a read-only heap input, whose array is hidden and which
 * is copied first.
 *
 * <p>Thread safety: safe for concurrent use. The decompressor is stateless and shared; each
 * compression borrows a compressor (which owns a hash table) from a bounded pool.
 */
final class SnappyJavaCodec implements BlockCodec {
    private final SnappyDecompressor decompressor = new SnappyDecompressor();
    private final ResourcePool<SnappyCompressor> compressors =
            new ResourcePool<>(ResourcePool.defaultCapacity(), SnappyCompressor::new, c -> {});

    @Override
    public int id() {
        return CodecIds.SNAPPY;
    }

    @Override
    public String implementationName() {
        return "aircompressor";
    }

    @Override
    public boolean isNative() {
        return false;
    }

    @Override
    public int maxCompressedLength(int uncompressedLength) {
        CodecSupport.requireCompressible(uncompressedLength);
        return SnappyRawCompressor.maxCompressedLength(uncompressedLength);
    }

    @Override
    public int compress(ByteBuffer input, ByteBuffer output) {
        int length = input.remaining();
        CodecSupport.requireSpace(output, maxCompressedLength(length));
        ByteBuffer in = input.isDirect() ? input.duplicate() : CodecSupport.onHeap(input).duplicate();
        ByteBuffer out = output.duplicate();
        SnappyCompressor compressor = compressors.acquire();
        try {
            compressor.compress(in, out);
        } finally {
            compressors.release(compressor);
        }
        int written = out.position() - output.position();
        output.position(out.position());
        return written;
    }

    @Override
    public int uncompressedLength(ByteBuffer compressed) {
        return SnappyHeader.uncompressedLength(compressed);
    }

    @Override
    public void decompress(ByteBuffer compressed, ByteBuffer output) {
        int length = SnappyHeader.uncompressedLength(compressed);
        CodecSupport.requireSpace(output, length);
        ByteBuffer in = compressed.isDirect() ? compressed.duplicate()
                : CodecSupport.onHeap(compressed).duplicate();
        ByteBuffer out = CodecSupport.window(output, length);
        try {
            decompressor.decompress(in, out);
        } catch (RuntimeException e) {
            throw CodecSupport.contents(SnappyHeader.ALGORITHM, e);
        }
        CodecSupport.requireDecoded(SnappyHeader.ALGORITHM, out.position() - output.position(), length);
        output.position(out.position());
    }
}
