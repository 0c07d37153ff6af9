package org.leveldbj.kafka.streams.compat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.InvocationInterceptor;
import org.junit.jupiter.api.extension.ReflectiveInvocationContext;

/**
 * The failures this module expects of Kafka's suites, enforced: a test listed in the table of
 * this module's README.md (between the markers {@value #BEGIN} and {@value #END}) must fail,
 * with the listed exception type, and then counts as passed; if it passes, or fails with another
 * exception, it fails with a message naming the row. A test not listed runs as usual. So any new
 * failure and any unexpected pass breaks the build, and nothing is skipped.
 *
 * <p>A row is {@code | suite | test | failure | reason |}: the suite's simple class name, the test
 * method's name, optionally followed by {@code [text]} to match only the invocations of a
 * parameterized test whose display name, without quotes, contains {@code text}, the simple name of the exception
 * the test fails with, and why. Only the test method itself is checked, not its
 * {@code @BeforeEach}/{@code @AfterEach} methods. Registered by the service loader (the build
 * turns JUnit's extension autodetection on); the README's path is the system property
 * {@value #README_PROPERTY}.
 *
 * <p>Thread safety: the table is read once and never changed.
 */
public final class ExpectedFailures implements InvocationInterceptor {
    /** The system property naming the README that holds the table. */
    public static final String README_PROPERTY = "compat.readme";
    /** The line before the table. */
    public static final String BEGIN = "<!-- expected-failures:begin -->";
    /** The line after the table. */
    public static final String END = "<!-- expected-failures:end -->";

    /** One row of the table. */
    record Row(String suite, String method, String invocation, String failure, String reason) {
        /** JUnit quotes text arguments in display names: the text is matched without quotes. */
        boolean matches(String suiteName, String methodName, String displayName) {
            return suite.equals(suiteName) && method.equals(methodName)
                    && (invocation.isEmpty() || displayName.replace("\"", "").contains(invocation));
        }

        @Override
        public String toString() {
            return suite + "#" + method + (invocation.isEmpty() ? "" : "[" + invocation + "]");
        }
    }

    private static volatile List<Row> rows;

    /** The rows of the README's table, read on first use. */
    static List<Row> rows() {
        List<Row> r = rows;
        if (r == null) {
            String readme = System.getProperty(README_PROPERTY);
            if (readme == null) {
                throw new IllegalStateException("system property " + README_PROPERTY + " (the module's README.md) is not set");
            }
            r = parse(Path.of(readme));
            rows = r;
        }
        return r;
    }

    /**
     * Reads the table between the markers.
     *
     * @param readme the file
     * @return its rows
     * @throws IllegalStateException if the markers are missing or a row is malformed
     */
    static List<Row> parse(Path readme) {
        List<String> lines;
        try {
            lines = Files.readAllLines(readme, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + readme, e);
        }
        int begin = lines.indexOf(BEGIN);
        int end = lines.indexOf(END);
        if (begin < 0 || end < begin) {
            throw new IllegalStateException(readme + ": no table between " + BEGIN + " and " + END);
        }
        List<Row> result = new ArrayList<>();
        for (int i = begin + 1; i < end; i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty()) {
                continue;
            }
            String[] cells = line.split("\\|", -1);
            if (cells.length != 6 || !cells[0].isEmpty() || !cells[5].isEmpty()) {
                throw new IllegalStateException(readme + " line " + (i + 1) + ": not a row of four cells: " + line);
            }
            String suite = cell(cells[1]);
            if (suite.equals("suite") || suite.startsWith("---")) {
                continue; // header and separator
            }
            String test = cell(cells[2]);
            String invocation = "";
            int bracket = test.indexOf('[');
            if (bracket >= 0) {
                if (!test.endsWith("]")) {
                    throw new IllegalStateException(readme + " line " + (i + 1) + ": unclosed [ in " + test);
                }
                invocation = test.substring(bracket + 1, test.length() - 1);
                test = test.substring(0, bracket);
            }
            String failure = cell(cells[3]);
            String reason = cell(cells[4]);
            if (suite.isEmpty() || test.isEmpty() || failure.isEmpty() || reason.isEmpty()) {
                throw new IllegalStateException(readme + " line " + (i + 1) + ": empty cell: " + line);
            }
            result.add(new Row(suite, test, invocation, failure, reason));
        }
        return List.copyOf(result);
    }

    private static String cell(String raw) {
        return raw.strip().replace("`", "");
    }

    /** The rows this interceptor enforces; null: the README's, read on first use. */
    private final List<Row> table;

    /**
     * The interceptor of the README's table (the service loader's constructor); under
     * {@code -Dcompat.stores=rocksdb} (the control: Kafka's stores, see {@link CompatStores}) no
     * failure is expected.
     */
    public ExpectedFailures() {
        this("rocksdb".equals(System.getProperty(CompatStores.PROPERTY)) ? List.of() : null);
    }

    /**
     * @param table the rows to enforce, or null for the README's
     */
    ExpectedFailures(List<Row> table) {
        this.table = table;
    }

    Optional<Row> find(String suiteName, String methodName, String displayName) {
        List<Row> r = table == null ? rows() : table;
        return r.stream().filter(row -> row.matches(suiteName, methodName, displayName)).findFirst();
    }

    @Override
    public void interceptTestMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> invocationContext,
                                    ExtensionContext extensionContext) throws Throwable {
        check(invocation, extensionContext);
    }

    @Override
    public void interceptTestTemplateMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> invocationContext,
                                            ExtensionContext extensionContext) throws Throwable {
        check(invocation, extensionContext);
    }

    void check(Invocation<Void> invocation, ExtensionContext context) throws Throwable {
        Optional<Row> row = find(context.getRequiredTestClass().getSimpleName(), context.getRequiredTestMethod().getName(),
                context.getDisplayName());
        if (row.isEmpty()) {
            invocation.proceed();
            return;
        }
        Row expected = row.get();
        try {
            invocation.proceed();
        } catch (Throwable failure) {
            if (failure.getClass().getSimpleName().equals(expected.failure())) {
                System.out.println("expected failure of " + expected + " (" + expected.reason() + "): " + failure);
                return;
            }
            throw new AssertionError("listed in README.md as failing with " + expected.failure() + " (" + expected.reason()
                    + ") but failed with " + failure.getClass().getName(), failure);
        }
        throw new AssertionError(expected + " passed but README.md lists it as failing with " + expected.failure() + " ("
                + expected.reason() + "): remove the row");
    }
}
