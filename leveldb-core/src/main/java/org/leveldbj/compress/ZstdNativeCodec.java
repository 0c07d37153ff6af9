package org.leveldbj.compress;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import com.github.luben.zstd.ZstdDecompressCtx;
import java.nio.ByteBuffer;

/**
 * Zstandard (type 2) through zstd-jni, which runs the reference C library over JNI. Writes one
 * frame with its content size and no checksum, as {@code ZSTD_compress} does for C++ LevelDB;
 * reads any single frame that records its content size.
 *
 * <p>Direct and heap buffers: zstd-jni reads and writes heap arrays and direct buffers in every
 * combination, so decoding never copies (a read-only heap input, whose array is hidden, is the
 * exception). Compression with one direct and one heap buffer stages the direct side on the heap.
 *
 * <p>Thread safety: safe for concurrent use. Each call borrows a native context from a bounded
 * pool ({@link ResourcePool}); a context that failed is closed rather than returned. Pooled
 * contexts are never closed; they are bounded in number and live as long as the codec, which
 * {@link Codecs} keeps for the life of the process.
 *
 * <p>Constructing this class loads the native library and fails with a {@link LinkageError} when
 * it cannot; {@link Codecs} catches that and falls back to {@link ZstdJavaCodec}.
 */
final class ZstdNativeCodec implements BlockCodec {
    /** C++ LevelDB's default {@code zstd_compression_level}. */
    static final int DEFAULT_LEVEL = 1;

    private final ResourcePool<ZstdCompressCtx> compressors;
    private final ResourcePool<ZstdDecompressCtx> decompressors;

    /**
     * @param level a zstd compression level, e.g. {@link #DEFAULT_LEVEL}
     */
    ZstdNativeCodec(int level) {
        // Touching the class loads the library now rather than at the first block.
        Zstd.compressBound(0);
        this.compressors = new ResourcePool<>(ResourcePool.defaultCapacity(),
                () -> new ZstdCompressCtx().setLevel(level).setContentSize(true).setChecksum(false),
                ZstdCompressCtx::close);
        this.decompressors = new ResourcePool<>(ResourcePool.defaultCapacity(),
                ZstdDecompressCtx::new, ZstdDecompressCtx::close);
    }

    @Override
    public int id() {
        return CodecIds.ZSTD;
    }

    @Override
    public String implementationName() {
        return "zstd-jni";
    }

    @Override
    public boolean isNative() {
        return true;
    }

    @Override
    public int maxCompressedLength(int uncompressedLength) {
        CodecSupport.requireCompressible(uncompressedLength);
        return Math.toIntExact(Zstd.compressBound(uncompressedLength));
    }

    @Override
    public int compress(ByteBuffer input, ByteBuffer output) {
        int length = input.remaining();
        int bound = maxCompressedLength(length);
        CodecSupport.requireSpace(output, bound);
        ZstdCompressCtx context = compressors.acquire();
        int written;
        try {
            if (input.isDirect() && output.isDirect()) {
                written = context.compressDirectByteBuffer(output, output.position(), output.remaining(),
                        input, input.position(), length);
            } else {
                ByteBuffer in = CodecSupport.onHeap(input);
                ByteBuffer out = output.hasArray() ? output : ByteBuffer.allocate(bound);
                written = context.compressByteArray(out.array(), CodecSupport.arrayPosition(out),
                        out.remaining(), in.array(), CodecSupport.arrayPosition(in), length);
                if (out != output) {
                    output.duplicate().put(out.array(), 0, written);
                }
            }
        } catch (RuntimeException e) {
            context.close();
            throw new IllegalStateException("zstd-jni failed to compress " + length + " bytes", e);
        }
        compressors.release(context);
        output.position(output.position() + written);
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
        ZstdDecompressCtx context = decompressors.acquire();
        int decoded;
        try {
            decoded = decode(context, compressed, output, length);
        } catch (RuntimeException e) {
            context.close();
            throw CodecSupport.contents(ZstdFrameHeader.ALGORITHM, e);
        }
        decompressors.release(context);
        CodecSupport.requireDecoded(ZstdFrameHeader.ALGORITHM, decoded, length);
        output.position(output.position() + length);
    }

    /** Decodes into exactly {@code length} bytes of {@code output}, whichever kinds they are. */
    private static int decode(ZstdDecompressCtx context, ByteBuffer compressed, ByteBuffer output,
            int length) {
        ByteBuffer in = compressed.isDirect() ? compressed : CodecSupport.onHeap(compressed);
        int inAt = in.isDirect() ? in.position() : CodecSupport.arrayPosition(in);
        int inLength = in.remaining();
        if (output.isDirect()) {
            int outAt = output.position();
            return in.isDirect()
                    ? context.decompressDirectByteBuffer(output, outAt, length, in, inAt, inLength)
                    : context.decompressByteArrayToDirectByteBuffer(output, outAt, length,
                            in.array(), inAt, inLength);
        }
        byte[] out = output.array();
        int outAt = CodecSupport.arrayPosition(output);
        return in.isDirect()
                ? context.decompressDirectByteBufferToByteArray(out, outAt, length, in, inAt, inLength)
                : context.decompressByteArray(out, outAt, length, in.array(), inAt, inLength);
    }
}
