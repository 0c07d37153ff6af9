package org.leveldbj.readme;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Java examples of the README and of doc/testing.md compile and run as written: the block under a section's
 * heading is compiled against the test class path (only a database path is pointed into a
 * temporary directory) and its output checked.
 */
class ReadmeExampleTest {
    @Test
    void usageExampleRunsAsWritten(@TempDir Path tmp) throws Exception {
        assertEquals(List.of("world", "a"), runSection("README.md", "## Usage", tmp));
    }

    @Test
    void crashTestExampleRunsAsWritten(@TempDir Path tmp) throws Exception {
        assertEquals(List.of("synced: 1, unsynced: null"), runSection("doc/testing.md", "# Testing with leveldbj", tmp));
    }

    /**
     * Compiles and runs the first java block after {@code heading} in a page of the repository;
     * returns its output lines.
     */
    private static List<String> runSection(String page, String heading, Path tmp) throws Exception {
        Path readme = Path.of(System.getProperty("user.dir")).resolve("..").resolve(page).normalize();
        Pattern block = Pattern.compile("(?m)^" + Pattern.quote(heading) + "\\n.*?```java\\n(.*?)```", Pattern.DOTALL);
        Matcher m = block.matcher(Files.readString(readme));
        assertTrue(m.find(), page + " has a java block under '" + heading + "'");
        String example = m.group(1);

        List<String> imports = new ArrayList<>();
        StringBuilder body = new StringBuilder();
        for (String line : example.split("\n")) {
            if (line.startsWith("import ")) {
                imports.add(line);
            } else {
                body.append("        ").append(line).append('\n');
            }
        }
        String dbPath = tmp.resolve("example-db").toString().replace("\\", "\\\\");
        String source = String.join("\n", imports) + "\n\npublic class ReadmeExample {\n"
                + "    public static void main(String[] args) throws Exception {\n"
                + body.toString().replace("\"example-db\"", "\"" + dbPath + "\"")
                + "    }\n}\n";
        Path classes = Files.createDirectories(tmp.resolve("classes"));
        Path src = classes.resolve("ReadmeExample.java");
        Files.writeString(src, source);

        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        assertNotNull(javac, "tests need a JDK");
        ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
        int rc = javac.run(null, null, diagnostics, "-classpath", System.getProperty("java.class.path"),
                "-d", classes.toString(), src.toString());
        assertEquals(0, rc, "the README example must compile:\n" + diagnostics + "\n" + source);
        return List.of(run(classes).strip().split("\\R"));
    }

    private static String run(Path classes) throws Exception {
        PrintStream original = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        try (URLClassLoader loader = new URLClassLoader(new URL[] {classes.toUri().toURL()},
                ReadmeExampleTest.class.getClassLoader())) {
            System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
            Method main = loader.loadClass("ReadmeExample").getMethod("main", String[].class);
            main.invoke(null, (Object) new String[0]);
        } finally {
            System.setOut(original);
        }
        return captured.toString(StandardCharsets.UTF_8);
    }
}
