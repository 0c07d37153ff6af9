package org.leveldbj.compress;

import java.util.Locale;

/**
 * Which implementations {@link Codecs} may choose, from the system property
 * {@value Codecs#PROPERTY}: {@code auto} (the default) tries the native implementation and falls
 * back to pure Java, {@code native} allows only native code, {@code java} only pure Java.
 *
 * <p>Thread safety: immutable.
 */
enum CodecPreference {
    AUTO,
    NATIVE,
    JAVA;

    /**
     * Reads a property value; {@code null} or blank means {@link #AUTO}, case is ignored.
     *
     * @throws IllegalArgumentException for any other value, naming the property and the choices
     */
    static CodecPreference parse(String value) {
        if (value == null || value.isBlank()) {
            return AUTO;
        }
        switch (value.trim().toLowerCase(Locale.ROOT)) {
            case "auto":
                return AUTO;
            case "native":
                return NATIVE;
            case "java":
                return JAVA;
            default:
                throw new IllegalArgumentException("-D" + Codecs.PROPERTY + "=" + value
                        + " is not one of native, java, auto");
        }
    }
}
