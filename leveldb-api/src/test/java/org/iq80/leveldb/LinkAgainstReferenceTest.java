package org.iq80.leveldb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.StringWriter;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Compiles a small application against the leveldb-api 0.12 jar alone and runs it on our
 * classes: code built for 0.12 must link and behave the same here without recompiling.
 */
class LinkAgainstReferenceTest {
    private static final String PROBE_RESOURCE = "/link-probe/LinkProbe.java";
    private static final String PROBE_CLASS = "probe.LinkProbe";

    @TempDir
    Path dir;

    @Test
    void codeCompiledAgainstTheReferenceRunsOnOurClasses() throws Exception {
        Path classes = compileProbe(ReferenceApi.jar());
        try (URLClassLoader loader = loaderOnOurClasses(classes)) {
            assertSame(Options.class, loader.loadClass(Options.class.getName()),
                    "the probe must link against our Options, not the reference one");
            String result = runProbe(loader);
            System.out.println("Probe compiled against 0.12, run on ours: " + result);
            assertTrue(result.matches("passed \\d+ checks"), result);
        }
    }

    @Test
    void theProbeBehavesTheSameOnTheReferenceClasses() throws Exception {
        Path classes = compileProbe(ReferenceApi.jar());
        String onReference;
        try (URLClassLoader loader = new URLClassLoader(
                new URL[] {ReferenceApi.toUrl(classes), ReferenceApi.toUrl(ReferenceApi.jar())},
                ClassLoader.getPlatformClassLoader())) {
            onReference = runProbe(loader);
        }
        try (URLClassLoader loader = loaderOnOurClasses(classes)) {
            assertEquals(onReference, runProbe(loader));
        }
    }

    @Test
    void theSameSourceCompilesAgainstOurClasses() throws Exception {
        Path classes = compileProbe(ourClasses());
        try (URLClassLoader loader = loaderOnOurClasses(classes)) {
            assertTrue(runProbe(loader).startsWith("passed "));
        }
    }

    @Test
    void aBatchImplementedAgainstTheReferenceGetsTheDefaultSizeMethods() throws Exception {
        Path classes = compileProbe(ReferenceApi.jar());
        try (URLClassLoader loader = loaderOnOurClasses(classes)) {
            Object made = loader.loadClass(PROBE_CLASS).getMethod("newBatch").invoke(null);
            WriteBatch batch = (WriteBatch) made;
            assertSame(batch, batch.put(new byte[] {1}, new byte[] {2}));
            UnsupportedOperationException e =
                    assertThrows(UnsupportedOperationException.class, batch::size);
            assertTrue(e.getMessage().contains(made.getClass().getName()), e.getMessage());
            assertThrows(UnsupportedOperationException.class, batch::approximateSize);
        }
    }

    /** Compiles the probe at the Java 8 language level against exactly one class path entry. */
    private Path compileProbe(Path classPath) throws IOException {
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        assertNotNull(compiler, "no system Java compiler; run the tests on a JDK, not a JRE");
        Path source = dir.resolve("src/probe/LinkProbe.java");
        Files.createDirectories(source.getParent());
        try (InputStream in = getClass().getResourceAsStream(PROBE_RESOURCE)) {
            assertNotNull(in, "missing test resource " + PROBE_RESOURCE);
            Files.copy(in, source);
        }
        Path out = Files.createDirectories(dir.resolve("classes"));
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        StringWriter output = new StringWriter();
        boolean ok;
        try (StandardJavaFileManager files =
                compiler.getStandardFileManager(diagnostics, Locale.ROOT, null)) {
            List<String> options = List.of("--release", "8", "-Xlint:all,-options", "-Werror",
                    "-implicit:none", "-classpath", classPath.toString(), "-d", out.toString());
            ok = compiler.getTask(output, files, diagnostics, options, null,
                    files.getJavaFileObjects(source.toFile())).call();
        }
        StringBuilder report = new StringBuilder(output.toString());
        for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
            report.append('\n').append(d.getKind()).append(" line ").append(d.getLineNumber())
                    .append(": ").append(d.getMessage(Locale.ROOT));
        }
        assertTrue(ok, "compiling the probe against " + classPath + " failed:" + report);
        Files.delete(source);
        return out;
    }

    /** A loader for the probe whose org.iq80.leveldb classes are ours (parent first). */
    private URLClassLoader loaderOnOurClasses(Path probeClasses) {
        return new URLClassLoader(new URL[] {ReferenceApi.toUrl(probeClasses)},
                getClass().getClassLoader());
    }

    private static String runProbe(ClassLoader loader) throws ReflectiveOperationException {
        Class<?> probe = loader.loadClass(PROBE_CLASS);
        assertSame(loader, probe.getClassLoader(), "the probe must come from the compiled classes");
        Supplier<?> supplier = (Supplier<?>) probe.getConstructor().newInstance();
        return String.valueOf(supplier.get());
    }

    private static Path ourClasses() throws URISyntaxException {
        return Path.of(Options.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    }
}
