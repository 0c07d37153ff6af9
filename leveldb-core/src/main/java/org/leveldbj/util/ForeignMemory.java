package org.leveldbj.util;

import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * The foreign memory API of JDK 22 and later, reached through method handles so that this code
 * compiles for JDK 17: opening and closing a shared {@code Arena}, allocating from it, and mapping
 * a file into it. Arenas are typed {@link AutoCloseable} and segments {@link Object}, so no
 * signature names a class that JDK 17 lacks.
 *
 * <p>Thread safety: stateless; safe for concurrent use. A shared arena may be allocated from and
 * closed by any thread.
 */
final class ForeignMemory {
    /** The first JDK where the API is final. */
    static final int FIRST_FEATURE_RELEASE = 22;

    private ForeignMemory() {
    }

    /**
     * Tells whether this JDK offers the API.
     *
     * @return {@code true} on JDK 22 and later
     */
    static boolean available() {
        return Handles.INSTANCE != null;
    }

    /**
     * Opens a new shared arena. Requires: {@link #available()}.
     *
     * @return the arena
     */
    static AutoCloseable openArena() {
        try {
            return (AutoCloseable) Handles.INSTANCE.ofShared.invokeExact();
        } catch (Throwable e) {
            throw rethrow(e, "opening a shared arena");
        }
    }

    /**
     * Allocates a zero-filled, 8-byte aligned segment of {@code arena}.
     *
     * @return the segment as a buffer of exactly {@code bytes} bytes
     */
    static ByteBuffer allocate(AutoCloseable arena, int bytes) {
        try {
            Object segment = (Object) Handles.INSTANCE.allocate.invokeExact(arena, (long) bytes, (long) Long.BYTES);
            return (ByteBuffer) Handles.INSTANCE.asByteBuffer.invokeExact(segment);
        } catch (Throwable e) {
            throw rethrow(e, "allocating " + bytes + " bytes");
        }
    }

    /**
     * Maps part of a file into {@code arena}.
     *
     * @return the mapping as a buffer, read-only unless {@code mode} is {@code READ_WRITE}
     * @throws IOException if the operating system refuses the mapping
     */
    static ByteBuffer map(AutoCloseable arena, FileChannel channel, FileChannel.MapMode mode, long position,
                          long size) throws IOException {
        try {
            Object segment = (Object) Handles.INSTANCE.map.invokeExact(channel, mode, position, size, arena);
            return (ByteBuffer) Handles.INSTANCE.asByteBuffer.invokeExact(segment);
        } catch (IOException e) {
            throw e;
        } catch (Throwable e) {
            throw rethrow(e, "mapping a file");
        }
    }

    /** Closes an arena, releasing all its memory; buffers of it throw from then on. */
    static void closeArena(AutoCloseable arena) {
        try {
            arena.close();
        } catch (Exception e) {
            // Arena.close() declares no checked exception; AutoCloseable's signature does.
            throw rethrow(e, "closing a shared arena");
        }
    }

    /** Returns an unchecked exception to throw for {@code e}, or throws {@code e} if an error. */
    private static RuntimeException rethrow(Throwable e, String what) {
        if (e instanceof Error) {
            throw (Error) e;
        }
        if (e instanceof RuntimeException) {
            return (RuntimeException) e;
        }
        return new IllegalStateException("unexpected failure " + what, e);
    }

    /** The handles, looked up when first needed; {@code INSTANCE} is null before JDK 22. */
    private static final class Handles {
        static final Handles INSTANCE = lookUp();

        /** {@code Arena.ofShared()}, typed {@code ()AutoCloseable}. */
        final MethodHandle ofShared;
        /** {@code Arena.allocate(long, long)}, typed {@code (AutoCloseable, long, long)Object}. */
        final MethodHandle allocate;
        /** {@code FileChannel.map(MapMode, long, long, Arena)}, returning {@code Object}. */
        final MethodHandle map;
        /** {@code MemorySegment.asByteBuffer()}, typed {@code (Object)ByteBuffer}. */
        final MethodHandle asByteBuffer;

        private Handles(MethodHandle ofShared, MethodHandle allocate, MethodHandle map, MethodHandle asByteBuffer) {
            this.ofShared = ofShared;
            this.allocate = allocate;
            this.map = map;
            this.asByteBuffer = asByteBuffer;
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
                MethodHandle map = lookup.findVirtual(FileChannel.class, "map",
                                MethodType.methodType(segment, FileChannel.MapMode.class, long.class, long.class, arena))
                        .asType(MethodType.methodType(Object.class, FileChannel.class, FileChannel.MapMode.class,
                                long.class, long.class, AutoCloseable.class));
                MethodHandle asByteBuffer = lookup.findVirtual(segment, "asByteBuffer",
                                MethodType.methodType(ByteBuffer.class))
                        .asType(MethodType.methodType(ByteBuffer.class, Object.class));
                return new Handles(ofShared, allocate, map, asByteBuffer);
            } catch (ReflectiveOperationException | RuntimeException e) {
                return null;
            }
        }
    }
}
