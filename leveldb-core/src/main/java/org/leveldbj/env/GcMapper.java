package org.leveldbj.env;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * Maps files as {@link java.nio.MappedByteBuffer}s and leaves unmapping to the garbage
 * collector: {@link Mapping#unmap()} does nothing, and the memory and the file's mapping stay
 * until the buffer is collected. The last resort when neither {@link ForeignMapper} nor
 * {@link CleanerMapper} is available; on Windows it also keeps closed files from being deleted
 * until then.
 *
 * <p>Thread safety: stateless; safe for concurrent use.
 */
final class GcMapper implements Mapper {
    /** The one instance. */
    static final GcMapper INSTANCE = new GcMapper();

    private GcMapper() {
    }

    @Override
    public Mapping map(FileChannel channel, long size) throws IOException {
        assert size > 0 && size <= Integer.MAX_VALUE : "size=" + size;
        ByteBuffer buffer = channel.map(FileChannel.MapMode.READ_ONLY, 0, size).asReadOnlyBuffer();
        return new Mapping() {
            @Override
            public ByteBuffer buffer() {
                return buffer;
            }

            @Override
            public void unmap() {
                // The garbage collector unmaps once the buffer is unreachable.
            }
        };
    }

    @Override
    public boolean unmapsOnClose() {
        return false;
    }

    @Override
    public String name() {
        return "garbage collector";
    }
}
