package org.leveldbj.compress;

import io.airlift.compress.snappy.SnappyCompressor;
import io.airlift.compress.snappy.SnappyDecompressor;
import io.airlift.compress.snappy.SnappyRawCompressor;
import java.nio.ByteBuffer;

/**
 * Snappy (type 1) in pure Java through aircompressor; the fallback when snappy-java cannot load.
 * Reads and writes the same raw snappy block format as {@link SnappyNativeCodec}. Buffers are
 * handled as {@link AircompressorCodec} describes.
 *
 * <p>Thread safety: safe for concurrent use. The decompressor is stateless and shared; each
 * compression borrows a compressor (which owns a hash table) from a bounded pool.
 */
final class SnappyJavaCodec extends AircompressorCodec {
    private final SnappyDecompressor decompressor = new SnappyDecompressor();
    private final ResourcePool<SnappyCompressor> compressors =
            new ResourcePool<>(ResourcePool.defaultCapacity(), SnappyCompressor::new, c -> {});

    SnappyJavaCodec() {
        super(SnappyHeader.ALGORITHM);
    }

    @Override
    public int id() {
        return CodecIds.SNAPPY;
    }

    @Override
    int bound(int uncompressedLength) {
        return SnappyRawCompressor.maxCompressedLength(uncompressedLength);
    }

    @Override
    void compressRaw(ByteBuffer in, ByteBuffer out) {
        SnappyCompressor compressor = compressors.acquire();
        try {
            compressor.compress(in, out);
        } finally {
            compressors.release(compressor);
        }
    }

    @Override
    public int uncompressedLength(ByteBuffer compressed) {
        return SnappyHeader.uncompressedLength(compressed);
    }

    @Override
    void decompressRaw(ByteBuffer in, ByteBuffer out) {
        decompressor.decompress(in, out);
    }
}
