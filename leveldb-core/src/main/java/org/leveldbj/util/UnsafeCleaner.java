package org.leveldbj.util;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.nio.ByteBuffer;

/**
 * Early release of a direct or mapped buffer through {@code sun.misc.Unsafe.invokeCleaner}, where
 * that may be used: JDK 17 to 23.
 *
 * <p>{@code sun.misc.Unsafe} is reached by reflection only: a direct reference makes javac print
 * a proprietary-API warning that no annotation suppresses. The module {@code jdk.unsupported}
 * opens {@code sun.misc}, so no command-line flag is needed. From JDK 24 on the JVM prints a
 * deprecation warning on the first call, so the method is not even looked up there.
 *
 * <p>Only a buffer returned by {@link ByteBuffer#allocateDirect} or
 * {@link java.nio.channels.FileChannel#map} itself has a cleaner; its slices and duplicates do
 * not, so owners keep the originals to release.
 *
 * <p>Thread safety: stateless; safe for concurrent use.
 */
final class UnsafeCleaner {
    /** The first JDK where calling {@code invokeCleaner} prints a warning. */
    static final int WARNING_RELEASE = 24;

    /** {@code theUnsafe.invokeCleaner(ByteBuffer)} bound to the instance, or {@code null}. */
    private static final MethodHandle INVOKE_CLEANER = lookUp();

    private UnsafeCleaner() {
    }

    /**
     * Tells whether buffers can be released early on this JVM.
     *
     * @return {@code true} when {@code invokeCleaner} is reachable and may be used
     */
    static boolean available() {
        return INVOKE_CLEANER != null;
    }

    /**
     * Releases a buffer's memory or mapping at once. Requires: {@link #available()}; {@code raw}
     * came from {@code allocateDirect} or {@code map} (it is not a view) and is not released yet.
     *
     * @param raw the buffer that owns the memory
     */
    static void release(ByteBuffer raw) {
        try {
            INVOKE_CLEANER.invokeExact(raw);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException("unexpected failure releasing a direct buffer", e);
        }
    }

    private static MethodHandle lookUp() {
        if (Runtime.version().feature() >= WARNING_RELEASE) {
            return null;
        }
        try {
            Class<?> unsafeClass = Class.forName("sun.misc.Unsafe");
            Field theUnsafe = unsafeClass.getDeclaredField("theUnsafe");
            theUnsafe.setAccessible(true);
            Object unsafe = theUnsafe.get(null);
            return MethodHandles.lookup()
                    .findVirtual(unsafeClass, "invokeCleaner", MethodType.methodType(void.class, ByteBuffer.class))
                    .bindTo(unsafe);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }
}
