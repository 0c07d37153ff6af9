package org.iq80.leveldb;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * The leveldb-api 0.12 jar the build copies beside the test classes, located through the
 * {@code leveldbj.referenceApiJar} system property.
 */
final class ReferenceApi {
    static final String JAR_PROPERTY = "leveldbj.referenceApiJar";

    private ReferenceApi() {
    }

    /** Returns the reference jar, failing the test with instructions when it is missing. */
    static Path jar() {
        String location = System.getProperty(JAR_PROPERTY);
        if (location == null || location.isEmpty()) {
            fail("System property " + JAR_PROPERTY + " is not set; run the tests through Maven "
                    + "(mvn -pl leveldb-api verify), whose surefire configuration sets it");
        }
        Path jar = Paths.get(location);
        if (!Files.isRegularFile(jar)) {
            fail("Reference jar " + jar + " (from " + JAR_PROPERTY + ") does not exist; the "
                    + "generate-test-resources phase copies it there");
        }
        return jar;
    }

    /**
     * Opens a class loader that sees only the reference jar and the platform classes, so that
     * none of this project's classes can stand in for the reference ones.
     */
    static URLClassLoader isolatedLoader() {
        return new URLClassLoader(new URL[] {toUrl(jar())}, ClassLoader.getPlatformClassLoader());
    }

    /** Returns the binary names of all classes in the reference jar, sorted. */
    static List<String> classNames() {
        List<String> names = new ArrayList<>();
        try (JarFile jarFile = new JarFile(jar().toFile())) {
            for (JarEntry entry : Collections.list(jarFile.entries())) {
                String name = entry.getName();
                if (name.endsWith(".class") && !name.equals("module-info.class")) {
                    names.add(name.substring(0, name.length() - ".class".length())
                            .replace('/', '.'));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Collections.sort(names);
        return names;
    }

    static URL toUrl(Path path) {
        try {
            return path.toUri().toURL();
        } catch (MalformedURLException e) {
            throw new IllegalArgumentException(path.toString(), e);
        }
    }
}
