package org.leveldbj.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An application that only opens, writes and reads a database hears nothing from us or the JDK.
 * The child JVM runs on what a build that depends on leveldb-core gets (the engine's classes and
 * its compile and runtime dependencies, as the build lists them in
 * {@code target/runtime-class-path.txt}; no SLF4J provider, nothing of the test class path but
 * the program itself), without {@code --enable-native-access}, and its standard error must stay
 * empty. CI runs this on JDK 17 and on JDK 25, where loading snappy-java's native library would
 * make the JVM print a restricted-method warning. The engine logs through {@code System.Logger},
 * which goes to {@code java.util.logging} here and prints INFO and above, so a message of ours
 * above debug level would show too.
 */
class QuietStartTest {
    @Test
    void openingWritingAndReadingPrintNothingToStandardError(@TempDir Path dir) throws Exception {
        List<String> classPath = new ArrayList<>();
        classPath.add(location(DbImpl.class));
        classPath.add(location(org.iq80.leveldb.DB.class));
        classPath.add(location(QuietStartMain.class));
        String dependencies = Files.readString(Path.of("target", "runtime-class-path.txt")).strip();
        classPath.add(dependencies);
        String cp = String.join(File.pathSeparator, classPath);
        assertFalse(cp.contains("slf4j"), "no SLF4J on the class path: " + cp);
        assertFalse(cp.contains("junit"), "nothing of the test class path: " + cp);
        assertTrue(dependencies.contains("snappy-java"), dependencies);

        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process child = new ProcessBuilder(java.toString(), "-cp", cp, QuietStartMain.class.getName(),
                dir.resolve("db").toString())
                .start();
        CompletableFuture<String> err = readAsync(child.getErrorStream());
        CompletableFuture<String> stdout = readAsync(child.getInputStream());
        if (!child.waitFor(120, TimeUnit.SECONDS)) {
            child.destroyForcibly().waitFor();
            fail("the child JVM did not finish in 120 s; standard output so far: " + stdout.getNow(""));
        }
        List<String> out = stdout.get().lines().toList();
        assertEquals("", err.get(), "standard error of the child JVM");
        assertEquals(0, child.exitValue());
        String expectedSnappy = Runtime.version().feature() >= 24 ? "java" : "snappy-java";
        assertEquals(List.of("entries 20000", "snappy " + expectedSnappy), out);
    }

    private static CompletableFuture<String> readAsync(java.io.InputStream in) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return new String(in.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    /** The directory or jar a class was loaded from. */
    private static String location(Class<?> type) throws Exception {
        return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    }
}
