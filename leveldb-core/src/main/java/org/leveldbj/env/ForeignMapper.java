package org.leveldbj.env;

import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * Maps files with the foreign memory API of JDK 22 and later: each file gets its own shared
 * {@code Arena}, {@code FileChannel.map(mode, offset, size, arena)} maps it, and closing the arena
 * unmaps it. A buffer touched after the arena is closed throws {@link IllegalStateException}
 * ("Already closed") instead of crashing the JVM, which makes this the safest mechanism.
 *
 * <p>The API is reached through method handles so that the library still compiles for and runs
 * on JDK 17, where {@link #create()} returns {@code null}. It is not tried on JDK 19 to 21, where
 * the API was a preview.
 *
 * <p>Thread safety: immutable; safe for concurrent use.
 */
final class ForeignMapper implements Mapper {
    /** The first JDK where the foreign memory API is final. */
    static final int FIRST_FEATURE_RELEASE = 22;

    /** {@code Arena.ofShared()}, typed {@code ()AutoCloseable}. */
    private final MethodHandle ofShared;
    /** {@code FileChannel.map(MapMode, long, long, Arena)}, typed to return {@code Object}. */
    private final MethodHandle mapToSegment;
    /** {@code MemorySegment.asByteBuffer()}, typed {@code (Object)ByteBuffer}. */
    private final MethodHandle asByteBuffer;

    private ForeignMapper(MethodHandle ofShared, MethodHandle mapToSegment, MethodHandle asByteBuffer) {
        this.ofShared = ofShared;
        this.mapToSegment = mapToSegment;
        this.asByteBuffer = asByteBuffer;
    }

    /**
     * Looks up the foreign memory API.
     *
     * @return the mapper, or {@code null} when this JDK does not offer the API
     */
    static ForeignMapper create() {
        if (Runtime.version().feature() < FIRST_FEATURE_RELEASE) {
            return null;
        }
        try {
            Class<?> arena = Class.forName("java.lang.foreign.Arena");
            Class<?> segment = Class.forName("java.lang.foreign.MemorySegment");
            MethodHandles.Lookup lookup = MethodHandles.publicLookup();
            MethodHandle ofShared = lookup.findStatic(arena, "ofShared", MethodType.methodType(arena))
                    .asType(MethodType.methodType(AutoCloseable.class));
            MethodHandle map = lookup.findVirtual(FileChannel.class, "map",
                            MethodType.methodType(segment, FileChannel.MapMode.class, long.class, long.class, arena))
                    .asType(MethodType.methodType(Object.class, FileChannel.class, FileChannel.MapMode.class,
                            long.class, long.class, AutoCloseable.class));
            MethodHandle asByteBuffer = lookup.findVirtual(segment, "asByteBuffer",
                            MethodType.methodType(ByteBuffer.class))
                    .asType(MethodType.methodType(ByteBuffer.class, Object.class));
            return new ForeignMapper(ofShared, map, asByteBuffer);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    @Override
    public Mapping map(FileChannel channel, long size) throws IOException {
        assert size > 0 && size <= Integer.MAX_VALUE : "size=" + size;
        AutoCloseable arena = newArena();
        try {
            Object segment = (Object) mapToSegment.invokeExact(channel, FileChannel.MapMode.READ_ONLY, 0L, size, arena);
            ByteBuffer buffer = (ByteBuffer) asByteBuffer.invokeExact(segment);
            return new ArenaMapping(arena, buffer);
        } catch (IOException | RuntimeException | Error e) {
            closeArena(arena);
            throw e;
        } catch (Throwable e) {
            closeArena(arena);
            throw new IllegalStateException("unexpected failure mapping a file", e);
        }
    }

    @Override
    public boolean unmapsOnClose() {
        return true;
    }

    @Override
    public String name() {
        return "java.lang.foreign shared arena";
    }

    private AutoCloseable newArena() {
        try {
            return (AutoCloseable) ofShared.invokeExact();
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException("unexpected failure creating an arena", e);
        }
    }

    private static void closeArena(AutoCloseable arena) {
        try {
            arena.close();
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            // Arena.close() declares no checked exception; AutoCloseable's signature does.
            throw new IllegalStateException("unexpected failure closing an arena", e);
        }
    }

    /** A mapping owned by its own arena. */
    private static final class ArenaMapping implements Mapping {
        private final AutoCloseable arena;
        private final ByteBuffer buffer;

        ArenaMapping(AutoCloseable arena, ByteBuffer buffer) {
            this.arena = arena;
            this.buffer = buffer.isReadOnly() ? buffer : buffer.asReadOnlyBuffer();
        }

        @Override
        public ByteBuffer buffer() {
            return buffer;
        }

        @Override
        public void unmap() {
            closeArena(arena);
        }
    }
}
