package org.leveldbj.backup;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/**
 * The version of this library, as the build wrote it into {@code version.properties}; recorded
 * in every meta file.
 *
 * <p>Thread safety: immutable after class initialization.
 */
final class LibraryVersion {
    /** The version, or {@code unknown} when the resource is missing (a build that skipped it). */
    static final String VERSION = read();

    private LibraryVersion() {
    }

    private static String read() {
        Properties p = new Properties();
        try (InputStream in = LibraryVersion.class.getResourceAsStream("version.properties")) {
            if (in != null) {
                p.load(in);
            }
        } catch (IOException e) {
            return "unknown";
        }
        String version = p.getProperty("version", "unknown").strip();
        return version.isEmpty() || version.contains(" ") || version.startsWith("${") ? "unknown" : version;
    }
}
