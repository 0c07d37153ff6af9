package org.leveldbj.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A database asking for a compression no implementation can write is refused when it is
 * opened, with the reason, instead of writing its tables uncompressed. Runs in a child JVM
 * because the codec choice is made once per JVM.
 */
class UnavailableCodecTest {
    @Test
    void openingWithAnUnwritableCompressionFailsWithTheReason(@TempDir Path dir) throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process child = new ProcessBuilder(java.toString(), "-Dleveldbj.codec=bogus", "-cp",
                System.getProperty("java.class.path"), UnavailableCodecMain.class.getName(), dir.toString())
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        List<String> lines;
        try {
            lines = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        } finally {
            assertEquals(0, child.waitFor());
        }
        assertEquals(2, lines.size(), lines.toString());
        assertTrue(lines.get(0).startsWith("SNAPPY: ") && lines.get(0).contains("snappy compression is unavailable")
                && lines.get(0).contains("leveldbj.codec"), lines.get(0));
        assertEquals("NONE: opened and wrote", lines.get(1));
        assertTrue(!dir.resolve("SNAPPY").resolve("CURRENT").toFile().exists(), "nothing was created for snappy");
    }

}
