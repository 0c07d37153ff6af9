package org.leveldbj.compress;

import io.airlift.compress.zstd.ZstdCompressor;
import io.airlift.compress.zstd.ZstdDecompressor;
import java.nio.ByteBuffer;

/**
 * Zstandard (type 2) in pure Java through aircompressor; the fallback when zstd-jni cannot load.
 * Writes one frame that records its content size (and a content checksum, which every reader
 * verifies or ignores); reads any single frame that records its content size, whichever
 * implementation wrote it. aircompressor compresses at one fixed level.
 *
 * <p>Direct and heap buffers: aircompressor addresses heap arrays and direct buffers alike, so
 * every combination runs in place, except a read-only heap input, which is copied first.
 *
 * <p>Thread safety: safe for concurrent use. The compressor keeps no state between calls and is
 * shared; each decompression borrows a decompressor (which owns its tables) from a bounded pool
 * and returns it only after a successful decode.
 */
final class ZstdJavaCodec implements BlockCodec {
    private final ZstdCompressor compressor = new ZstdCompressor();
    private final ResourcePool<ZstdDecompressor> decompressors =
            new ResourcePool<>(ResourcePool.defaultCapacity(), ZstdDecompressor::new, d -> {});

    @Override
    public int id() {
        return CodecIds.ZSTD;
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
        return compressor.maxCompressedLength(uncompressedLength);
    }

    @Override
    public int compress(ByteBuffer input, ByteBuffer output) {
        int length = input.remaining();
        CodecSupport.requireSpace(output, maxCompressedLength(length));
        ByteBuffer in = input.isDirect() ? input.duplicate() : CodecSupport.onHeap(input).duplicate();
        ByteBuffer out = output.duplicate();
        compressor.compress(in, out);
        int written = out.position() - output.position();
        output.position(out.position());
        return written;
    }

    @Override
    public int uncompressedLength(ByteBuffer compressed) {
        return ZstdFrameHeader.contentSize(compressed);
    }

    @Override
    public void decompress(ByteBuffer compressed, ByteBuffer output) {
        int length = ZstdFrameHeader.contentSize(compressed);
        CodecSupport.requireSpace(output, length);
        ByteBuffer in = compressed.isDirect() ? compressed.duplicate()
                : CodecSupport.onHeap(compressed).duplicate();
        ByteBuffer out = CodecSupport.window(output, length);
        ZstdDecompressor decompressor = decompressors.acquire();
        try {
            decompressor.decompress(in, out);
        } catch (RuntimeException e) {
            // The decompressor is dropped rather than returned: its state after a failure is
            // not specified.
            throw CodecSupport.contents(ZstdFrameHeader.ALGORITHM, e);
        }
        decompressors.release(decompressor);
        CodecSupport.requireDecoded(ZstdFrameHeader.ALGORITHM, out.position() - output.position(), length);
        output.position(out.position());
    }
}
