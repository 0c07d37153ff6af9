package org.leveldbj.compress;

import io.airlift.compress.zstd.ZstdCompressor;
import io.airlift.compress.zstd.ZstdDecompressor;
import java.nio.ByteBuffer;

/**
 * Zstandard (type 2) in pure Java through aircompressor; the fallback when zstd-jni cannot load.
 * Writes one frame that records its content size (and a content checksum, which every reader
 * verifies or ignores); reads any single frame that records its content size, whichever
 * implementation wrote it. aircompressor compresses at one fixed level. Buffers are handled as
 * {@link AircompressorCodec} describes.
 *
 * <p>Thread safety: safe for concurrent use. The compressor keeps no state between calls and is
 * shared; each decompression borrows a decompressor (which owns its tables) from a bounded pool
 * and returns it only after a successful decode.
 */
final class ZstdJavaCodec extends AircompressorCodec {
    private final ZstdCompressor compressor = new ZstdCompressor();
    private final ResourcePool<ZstdDecompressor> decompressors =
            new ResourcePool<>(ResourcePool.defaultCapacity(), ZstdDecompressor::new, d -> {});

    ZstdJavaCodec() {
        super(ZstdFrameHeader.ALGORITHM);
    }

    @Override
    public int id() {
        return CodecIds.ZSTD;
    }

    @Override
    int bound(int uncompressedLength) {
        return compressor.maxCompressedLength(uncompressedLength);
    }

    @Override
    void compressRaw(ByteBuffer in, ByteBuffer out) {
        compressor.compress(in, out);
    }

    @Override
    public int uncompressedLength(ByteBuffer compressed) {
        return ZstdFrameHeader.contentSize(compressed);
    }

    @Override
    void decompressRaw(ByteBuffer in, ByteBuffer out) {
        ZstdDecompressor decompressor = decompressors.acquire();
        // Returned only after a successful decode: a decompressor's state after a failure is
        // not specified, so a failed one is dropped.
        decompressor.decompress(in, out);
        decompressors.release(decompressor);
    }
}
