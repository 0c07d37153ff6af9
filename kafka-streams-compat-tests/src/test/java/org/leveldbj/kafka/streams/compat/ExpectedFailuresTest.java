package org.leveldbj.kafka.streams.compat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.InvocationInterceptor.Invocation;
import org.junit.jupiter.api.io.TempDir;
import org.leveldbj.kafka.streams.compat.ExpectedFailures.Row;

/** The expected-failures table: its parsing, its enforcement, and that each row names a real test. */
class ExpectedFailuresTest {
    /** The packages the suites run here live in. */
    private static final List<String> SUITE_PACKAGES = List.of(
            "org.leveldbj.kafka.streams.compat",
            "org.apache.kafka.streams.state.internals",
            "org.apache.kafka.streams.integration");

    @TempDir
    Path dir;

    @Test
    void parsesTheRowsBetweenTheMarkers() throws IOException {
        Path readme = readme(
                "| suite | test | failure | reason |",
                "|---|---|---|---|",
                "| `SomeTest` | `plain` | `AssertionError` | a reason |",
                "| `SomeTest` | `parameterized[ROCKS_KV, DSL]` | `IllegalStateException` | another |");
        List<Row> rows = ExpectedFailures.parse(readme);
        assertEquals(List.of(
                new Row("SomeTest", "plain", "", "AssertionError", "a reason"),
                new Row("SomeTest", "parameterized", "ROCKS_KV, DSL", "IllegalStateException", "another")), rows);
        assertTrue(rows.get(1).matches("SomeTest", "parameterized", "[3] true, false, ROCKS_KV, DSL, classic"));
        assertTrue(rows.get(1).matches("SomeTest", "parameterized", "[3] true, false, \"ROCKS_KV\", \"DSL\", \"classic\""));
        assertTrue(!rows.get(1).matches("SomeTest", "parameterized", "[4] true, false, ROCKS_KV, PAPI, classic"));
        assertTrue(!rows.get(1).matches("OtherTest", "parameterized", "[3] true, false, ROCKS_KV, DSL, classic"));
    }

    @Test
    void rejectsAMalformedTable() throws IOException {
        assertThrows(IllegalStateException.class, () -> ExpectedFailures.parse(readme("| `SomeTest` | `plain` | reason |")));
        assertThrows(IllegalStateException.class, () -> ExpectedFailures.parse(readme("| `SomeTest` | `x[y` | `E` | r |")));
        assertThrows(IllegalStateException.class, () -> ExpectedFailures.parse(readme("| `SomeTest` | `plain` | | r |")));
        Path noMarkers = dir.resolve("plain.md");
        Files.writeString(noMarkers, "no table\n");
        assertThrows(IllegalStateException.class, () -> ExpectedFailures.parse(noMarkers));
    }

    @Test
    void aListedTestMustFailWithTheListedException() throws Throwable {
        ExpectedFailures interceptor = new ExpectedFailures(List.of(
                new Row("ExpectedFailuresTest", "aListedTestMustFailWithTheListedException", "", "AssertionError", "why")));
        ExtensionContext context = context("aListedTestMustFailWithTheListedException");

        interceptor.check(failing(new AssertionError("as expected")), context); // passes

        AtomicInteger ran = new AtomicInteger();
        AssertionError passed = assertThrows(AssertionError.class, () -> interceptor.check(() -> {
            ran.incrementAndGet();
            return null;
        }, context));
        assertEquals(1, ran.get());
        assertTrue(passed.getMessage().contains("passed but README.md lists it"), passed.getMessage());

        AssertionError other = assertThrows(AssertionError.class,
                () -> interceptor.check(failing(new IllegalStateException("other")), context));
        assertTrue(other.getMessage().contains("but failed with java.lang.IllegalStateException"), other.getMessage());
    }

    @Test
    void anUnlistedTestRunsAsUsual() throws Throwable {
        ExpectedFailures interceptor = new ExpectedFailures(List.of());
        ExtensionContext context = context("anUnlistedTestRunsAsUsual");
        IllegalStateException failure = new IllegalStateException("real failure");
        assertEquals(failure, assertThrows(IllegalStateException.class, () -> interceptor.check(failing(failure), context)));
        interceptor.check(() -> null, context);
    }

    /**
     * Listed in README.md's table as failing with this exception: passes only while the extension
     * enforces the table in this build (registered by the service loader, with JUnit's
     * autodetection on), and so fails the build if it does not.
     */
    @Test
    void theTableIsEnforced() {
        throw new IllegalStateException("fails by design: README.md lists this test as an expected failure");
    }

    @Test
    void everyRowOfTheReadmeNamesATestMethodOfASuiteRunHere() throws ClassNotFoundException {
        for (Row row : ExpectedFailures.rows()) {
            Class<?> suite = suiteClass(row.suite());
            List<String> methods = new ArrayList<>();
            for (Class<?> c = suite; c != null; c = c.getSuperclass()) {
                Arrays.stream(c.getDeclaredMethods()).map(Method::getName).forEach(methods::add);
            }
            assertTrue(methods.contains(row.method()), row + ": no method " + row.method() + " in " + suite.getName());
        }
    }

    private static Class<?> suiteClass(String simpleName) throws ClassNotFoundException {
        for (String p : SUITE_PACKAGES) {
            try {
                return Class.forName(p + "." + simpleName);
            } catch (ClassNotFoundException e) {
                // try the next package
            }
        }
        throw new ClassNotFoundException(simpleName + " in none of " + SUITE_PACKAGES);
    }

    private static Invocation<Void> failing(Throwable t) {
        return () -> {
            throw t;
        };
    }

    private ExtensionContext context(String methodName) throws NoSuchMethodException {
        ExtensionContext context = mock(ExtensionContext.class);
        Class<?> self = getClass();
        when(context.getRequiredTestClass()).thenAnswer(i -> self);
        when(context.getRequiredTestMethod()).thenReturn(self.getDeclaredMethod(methodName));
        when(context.getDisplayName()).thenReturn(methodName + "()");
        return context;
    }

    private Path readme(String... tableLines) throws IOException {
        List<String> lines = new ArrayList<>();
        lines.add("# title");
        lines.add(ExpectedFailures.BEGIN);
        lines.addAll(List.of(tableLines));
        lines.add(ExpectedFailures.END);
        Path readme = dir.resolve("README.md");
        Files.write(readme, lines, StandardCharsets.UTF_8);
        return readme;
    }
}
