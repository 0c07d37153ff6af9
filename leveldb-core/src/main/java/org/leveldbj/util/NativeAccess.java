package org.leveldbj.util;

import java.lang.reflect.Method;

/**
 * Whether a JNI library may be loaded without the JDK complaining. From JDK 24 on (JEP 472), code
 * that loads a native library from a module without native access enabled makes the JVM print
 * "WARNING: A restricted method in java.lang.System has been called" to standard error, and
 * later JDKs will refuse it. A library must not make its users read that or add flags, so a
 * native library (a codec, the system calls that preallocate files) is only used where native
 * access is enabled for the module holding the code that loads it
 * ({@code --enable-native-access=ALL-UNNAMED} for the class path, or the module's name), and
 * the pure-Java way is taken otherwise.
 *
 * <p>The check reads {@code Module.isNativeAccessEnabled()} (JDK 22 on) by reflection and never
 * initialises the loader class, so asking loads no library.
 *
 * <p>Thread safety: stateless; safe for concurrent use.
 */
public final class NativeAccess {
    /** The first JDK that warns when a library is loaded without native access. */
    public static final int WARNING_RELEASE = 24;

    private NativeAccess() {
    }

    /**
     * Tells whether the class that loads a native library may do so quietly on this JVM.
     *
     * @param loaderClass the binary name of the class that calls {@code System.load} (e.g.
     *     snappy-java's {@code org.xerial.snappy.SnappyLoader})
     * @return {@code true} before JDK 24, or when native access is enabled for that class's
     *     module; {@code false} when it is not, or the class cannot be found
     */
    public static boolean allowedFor(String loaderClass) {
        return allowedFor(loaderClass, Runtime.version().feature());
    }

    /**
     * {@link #allowedFor(String)} as on a JDK of a given feature release.
     *
     * @param loaderClass the binary name of the class that loads the library
     * @param feature the JDK's feature release
     * @return whether the library may be loaded quietly
     */
    public static boolean allowedFor(String loaderClass, int feature) {
        if (feature < WARNING_RELEASE) {
            return true;
        }
        try {
            Module module = Class.forName(loaderClass, false, NativeAccess.class.getClassLoader()).getModule();
            Method enabled = Module.class.getMethod("isNativeAccessEnabled");
            return (Boolean) enabled.invoke(module);
        } catch (ReflectiveOperationException | LinkageError e) {
            return false;
        }
    }
}
