package org.leveldbj.db;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An application that only opens, writes and reads a database hears nothing from us or the JDK:
 * the child JVM runs without {@code --enable-native-access} and with the class path alone, and
 * its standard error must stay empty (CI runs this on JDK 17 and on JDK 25, where loading
 * snappy-java's native library would make the JVM print a restricted-method warning). Logging
 * is at WARN, so a warning of ours would show too.
 */
class QuietStartTest {
    @Test
    void openingWritingAndReadingPrintNothingToStandardError(@TempDir Path dir) throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process child = new ProcessBuilder(java.toString(), "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
                "-cp", System.getProperty("java.class.path"), QuietStartMain.class.getName(),
                dir.resolve("db").toString())
                .start();
        CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> {
            try {
                return new String(child.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        List<String> out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        int exit = child.waitFor();
        assertEquals("", err.get(), "standard error of the child JVM");
        assertEquals(0, exit);
        String expectedSnappy = Runtime.version().feature() >= 24 ? "java" : "snappy-java";
        assertEquals(List.of("entries 20000", "snappy " + expectedSnappy), out);
    }
}
