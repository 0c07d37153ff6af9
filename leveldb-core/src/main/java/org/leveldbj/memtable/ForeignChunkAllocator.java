package org.leveldbj.memtable;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A {@link ChunkAllocator} on the foreign memory API of JDK 22 and later: every chunk is a
 * segment of one shared {@code java.lang.foreign.Arena}, and {@link #releaseAll()} closes that
 * arena. A buffer touched after the release throws {@link IllegalStateException} ("Already
 * closed") instead of reading freed memory, which makes this the safest mechanism.
 *
 * <p>The API is reached through method handles so that the library compiles for and runs on
 * JDK 17; it is not tried on JDK 19 to 21, where it was a preview.
 *
 * <p>Thread safety: not thread-safe (see {@link ChunkAllocator}); closing a shared arena is
 * itself safe while other threads run.
 */
final class ForeignChunkAllocator extends ChunkAllocator {
    /** The first JDK where the foreign memory API is final. */
    private static final int FIRST_FEATURE_RELEASE = 22;

    /** The API's handles, or {@code null} when this JDK does not offer it. */
    private static final Handles HANDLES = lookUp();

    /** The shared arena all chunks come from, typed {@code AutoCloseable}. */
    private final AutoCloseable arena;
    private boolean released;

    private ForeignChunkAllocator(AutoCloseable arena) {
        this.arena = arena;
    }

    /**
     * Tells whether this JDK offers the API.
     *
     * @return {@code true} on JDK 22 and later
     */
    static boolean available() {
        return HANDLES != null;
    }

    /**
     * Opens a new shared arena. Requires: {@link #available()}.
     *
     * @return the allocator
     */
    static ForeignChunkAllocator create() {
        assert HANDLES != null;
        try {
            return new ForeignChunkAllocator((AutoCloseable) HANDLES.ofShared.invokeExact());
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException("unexpected failure creating a shared arena", e);
        }
    }

    @Override
    ByteBuffer allocate(int size) {
        assert size > 0 : "size=" + size;
        if (released) {
            throw new IllegalStateException("arena memory already released");
        }
        try {
            Object segment = (Object) HANDLES.allocate.invokeExact(arena, (long) size, (long) Long.BYTES);
            ByteBuffer buffer = (ByteBuffer) HANDLES.asByteBuffer.invokeExact(segment);
            return buffer.order(ByteOrder.LITTLE_ENDIAN);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException("unexpected failure allocating " + size + " bytes", e);
        }
    }

    @Override
    void releaseAll() {
        if (released) {
            return;
        }
        released = true;
        try {
            arena.close();
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            // Arena.close() declares no checked exception; AutoCloseable's signature does.
            throw new IllegalStateException("unexpected failure closing a shared arena", e);
        }
    }

    @Override
    boolean releasesDeterministically() {
        return true;
    }

    @Override
    String mechanism() {
        return "java.lang.foreign shared arena";
    }

    /** The method handles of the API, typed without naming its classes. */
    private static final class Handles {
        /** {@code Arena.ofShared()}, typed {@code ()AutoCloseable}. */
        final MethodHandle ofShared;
        /** {@code Arena.allocate(long, long)}, typed {@code (AutoCloseable, long, long)Object}. */
        final MethodHandle allocate;
        /** {@code MemorySegment.asByteBuffer()}, typed {@code (Object)ByteBuffer}. */
        final MethodHandle asByteBuffer;

        Handles(MethodHandle ofShared, MethodHandle allocate, MethodHandle asByteBuffer) {
            this.ofShared = ofShared;
            this.allocate = allocate;
            this.asByteBuffer = asByteBuffer;
        }
    }

    private static Handles lookUp() {
        if (Runtime.version().feature() < FIRST_FEATURE_RELEASE) {
            return null;
        }
        try {
            Class<?> arena = Class.forName("java.lang.foreign.Arena");
            Class<?> segment = Class.forName("java.lang.foreign.MemorySegment");
            MethodHandles.Lookup lookup = MethodHandles.publicLookup();
            MethodHandle ofShared = lookup.findStatic(arena, "ofShared", MethodType.methodType(arena))
                    .asType(MethodType.methodType(AutoCloseable.class));
            MethodHandle allocate = lookup.findVirtual(arena, "allocate",
                            MethodType.methodType(segment, long.class, long.class))
                    .asType(MethodType.methodType(Object.class, AutoCloseable.class, long.class, long.class));
            MethodHandle asByteBuffer = lookup.findVirtual(segment, "asByteBuffer",
                            MethodType.methodType(ByteBuffer.class))
                    .asType(MethodType.methodType(ByteBuffer.class, Object.class));
            return new Handles(ofShared, allocate, asByteBuffer);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }
}
