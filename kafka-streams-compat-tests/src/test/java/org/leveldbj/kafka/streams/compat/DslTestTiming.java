package org.leveldbj.kafka.streams.compat;

import static org.junit.platform.engine.discovery.ClassNameFilter.includeClassNamePatterns;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectPackage;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * Runs Kafka Streams' own DSL test classes (by default every class of the package
 * {@value #DEFAULT_PACKAGE} and its subpackages, found on the class path, i.e. in Kafka's test
 * jar) on the JUnit Platform launcher, one after the other in this JVM, and prints per class the
 * tests run, failed and skipped and its wall time, then the failures and the totals. Which stores
 * the DSL gets depends only on the class path: with the stand-in {@code BuiltInDslStoreSuppliers}
 * ahead of the kafka-streams jar the default DSL stores are leveldbj's, without it Kafka's RocksDB
 * stores ({@code bin/kafka-dsl-timing} runs both and {@link DslTimingReport} compares them).
 *
 * <pre>
 * DslTestTiming [--package=P]... [--classes=REGEX] [--out=FILE]
 * </pre>
 * {@code --classes} keeps the classes whose simple name matches the regular expression entirely
 * (e.g. {@code 'KStreamWindowAggregateTest|Suppress.*'}); {@code --out} also writes the output
 * to a file. The output is tab-separated lines, the first field naming the line's kind:
 * <pre>
 * class    NAME  TESTS  FAILED  SKIPPED  MILLIS  STORES   one per test class, NAME fully qualified;
 *                                                 STORES: how many DSL stores the stand-in supplied
 *                                                 while the class ran ("-": Kafka's class)
 * failure  NAME  TEST  REASON                     one per failed test (or failed class: TEST is "(class)")
 * total    CLASSES  TESTS  FAILED  SKIPPED  MILLIS
 * stores   LOCATION  SUPPLIED                     where BuiltInDslStoreSuppliers was loaded from, and
 *                                                 how many stores the stand-in supplied ("-": Kafka's class)
 * </pre>
 * TESTS counts the tests that ran (passed or failed), SKIPPED the disabled ones and those whose
 * assumptions were not met, FAILED the failed tests plus each failed container (a class's or a
 * parameterized test's set-up or tear-down); MILLIS is the wall time from the
 * class's start to its end, its set-up and tear-down included. JUnit's extension autodetection is
 * turned off, so this module's {@link ExpectedFailures} does not apply. Exits 0 when the run
 * completed, whatever the tests' results; 2 on a wrong argument.
 *
 * <p>Thread safety: a command-line program; the listener is called by the launcher's one thread.
 */
public final class DslTestTiming {
    /** The package run when none is given. */
    public static final String DEFAULT_PACKAGE = "org.apache.kafka.streams.kstream.internals";
    /** The class whose origin tells whose DSL stores ran. */
    static final String SUPPLIERS_CLASS = "org.apache.kafka.streams.state.BuiltInDslStoreSuppliers";

    private DslTestTiming() {
    }

    /** What one class did. */
    static final class ClassResult {
        final String name;
        int tests;
        int failed;
        int skipped;
        long startNanos;
        long millis;
        long suppliedAtStart;
        String stores = "-";

        ClassResult(String name) {
            this.name = name;
        }
    }

    /** Times the top-level test classes and counts their tests. */
    static final class Listener implements TestExecutionListener {
        final Map<String, ClassResult> classes = new LinkedHashMap<>();
        final List<String[]> failures = new ArrayList<>();
        private TestPlan plan;

        @Override
        public void testPlanExecutionStarted(TestPlan testPlan) {
            plan = testPlan;
        }

        /** The top-level class a node belongs to, if any. */
        private Optional<TestIdentifier> topClass(TestIdentifier id) {
            TestIdentifier found = null;
            for (TestIdentifier at = id; at != null; at = plan.getParent(at).orElse(null)) {
                if (at.getSource().filter(ClassSource.class::isInstance).isPresent()) {
                    found = at;
                }
            }
            return Optional.ofNullable(found);
        }

        private ClassResult result(TestIdentifier classId) {
            String name = ((ClassSource) classId.getSource().orElseThrow()).getClassName();
            return classes.computeIfAbsent(name, ClassResult::new);
        }

        /** The display names from below the class down to the node, e.g. "shouldJoin(boolean) > [1] true". */
        private String testName(TestIdentifier classId, TestIdentifier id) {
            List<String> names = new ArrayList<>();
            for (TestIdentifier at = id; at != null && !at.equals(classId); at = plan.getParent(at).orElse(null)) {
                names.add(0, at.getDisplayName());
            }
            return names.isEmpty() ? "(class)" : String.join(" > ", names);
        }

        @Override
        public void executionStarted(TestIdentifier id) {
            topClass(id).filter(id::equals).ifPresent(c -> {
                ClassResult r = result(c);
                String supplied = suppliedByStandIn();
                r.suppliedAtStart = supplied.equals("-") ? 0 : Long.parseLong(supplied);
                r.startNanos = System.nanoTime();
            });
        }

        @Override
        public void executionSkipped(TestIdentifier id, String reason) {
            topClass(id).ifPresent(c -> result(c).skipped += id.isTest() ? 1 : 0);
        }

        @Override
        public void executionFinished(TestIdentifier id, TestExecutionResult outcome) {
            Optional<TestIdentifier> top = topClass(id);
            if (top.isEmpty()) {
                return;
            }
            ClassResult r = result(top.get());
            if (id.equals(top.get())) {
                r.millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - r.startNanos);
                String supplied = suppliedByStandIn();
                r.stores = supplied.equals("-") ? "-" : Long.toString(Long.parseLong(supplied) - r.suppliedAtStart);
            }
            TestExecutionResult.Status status = outcome.getStatus();
            if (id.isTest() && status == TestExecutionResult.Status.ABORTED) {
                r.skipped++; // an assumption not met
                return;
            }
            if (id.isTest()) {
                r.tests++;
            }
            if (status != TestExecutionResult.Status.SUCCESSFUL) {
                // a failed test, or a failed container (its set-up or tear-down): one failure each
                r.failed++;
                failures.add(new String[] {r.name, testName(top.get(), id), reason(outcome)});
            }
        }
    }

    /** The exception's type and the first line of its message, on one line. */
    static String reason(TestExecutionResult outcome) {
        return outcome.getThrowable().map(t -> {
            String message = t.getMessage() == null ? "" : t.getMessage().strip();
            int eol = message.indexOf('\n');
            if (eol >= 0) {
                message = message.substring(0, eol).strip() + " ...";
            }
            if (message.length() > 300) {
                message = message.substring(0, 300) + "...";
            }
            return oneField(t.getClass().getName() + (message.isEmpty() ? "" : ": " + message));
        }).orElse(outcome.getStatus().toString());
    }

    private static String oneField(String s) {
        return s.replace('\t', ' ').replace('\r', ' ').replace('\n', ' ');
    }

    /**
     * Runs the tests and prints the lines described above.
     *
     * @param args the arguments described above
     * @throws IOException if {@code --out} cannot be written
     */
    public static void main(String[] args) throws IOException {
        List<String> packages = new ArrayList<>();
        String classes = null;
        Path out = null;
        for (String a : args) {
            if (a.startsWith("--package=") && a.length() > "--package=".length()) {
                packages.add(a.substring("--package=".length()));
            } else if (a.startsWith("--classes=")) {
                classes = a.substring("--classes=".length());
                try {
                    Pattern.compile(classes);
                } catch (PatternSyntaxException e) {
                    usage("--classes is not a regular expression: " + e.getDescription());
                }
            } else if (a.startsWith("--out=") && a.length() > "--out=".length()) {
                out = Path.of(a.substring("--out=".length()));
            } else {
                usage("unknown argument " + a);
            }
        }
        if (packages.isEmpty()) {
            packages.add(DEFAULT_PACKAGE);
        }
        List<String> lines = run(packages, classes);
        PrintStream stdout = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        lines.forEach(stdout::println);
        if (out != null) {
            Files.write(out, lines, StandardCharsets.UTF_8);
        }
        // Kafka's tests may leave non-daemon threads behind; the run is over.
        System.exit(0);
    }

    private static void usage(String problem) {
        System.err.println("DslTestTiming: " + problem);
        System.err.println("usage: DslTestTiming [--package=P]... [--classes=REGEX] [--out=FILE]");
        System.exit(2);
    }

    /**
     * Runs the selected classes.
     *
     * @param packages the packages to scan (subpackages included)
     * @param classes a regular expression the simple class name must match, or null for all
     * @return the output lines
     */
    static List<String> run(List<String> packages, String classes) {
        LauncherDiscoveryRequestBuilder request = LauncherDiscoveryRequestBuilder.request()
                .configurationParameter("junit.jupiter.extensions.autodetection.enabled", "false")
                .configurationParameter("junit.jupiter.execution.parallel.enabled", "false");
        packages.forEach(p -> request.selectors(selectPackage(p)));
        if (classes != null) {
            request.filters(includeClassNamePatterns("(?:.*\\.)?(?:" + classes + ")"));
        }
        LauncherDiscoveryRequest discovery = request.build();
        Launcher launcher = LauncherFactory.create();
        Listener listener = new Listener();
        long start = System.nanoTime();
        launcher.execute(discovery, listener);
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

        List<String> lines = new ArrayList<>();
        int tests = 0;
        int failed = 0;
        int skipped = 0;
        for (ClassResult r : listener.classes.values()) {
            lines.add(String.join("\t", "class", r.name, Integer.toString(r.tests), Integer.toString(r.failed),
                    Integer.toString(r.skipped), Long.toString(r.millis), r.stores));
            tests += r.tests;
            failed += r.failed;
            skipped += r.skipped;
        }
        for (String[] f : listener.failures) {
            lines.add(String.join("\t", "failure", f[0], oneField(f[1]), f[2]));
        }
        lines.add(String.join("\t", "total", Integer.toString(listener.classes.size()), Integer.toString(tests),
                Integer.toString(failed), Integer.toString(skipped), Long.toString(millis)));
        lines.add(String.join("\t", "stores", suppliersLocation(), suppliedByStandIn()));
        return lines;
    }

    /** Where the suppliers class was loaded from (a jar or the stand-in's directory). */
    static String suppliersLocation() {
        try {
            CodeSource source = Class.forName(SUPPLIERS_CLASS).getProtectionDomain().getCodeSource();
            return source == null || source.getLocation() == null ? "?" : source.getLocation().getPath();
        } catch (ClassNotFoundException e) {
            return "?";
        }
    }

    /** The stand-in's count of the stores it supplied, or "-" for Kafka's own class. */
    static String suppliedByStandIn() {
        try {
            return Long.toString((Long) Class.forName(SUPPLIERS_CLASS).getMethod("leveldbjStoresSupplied").invoke(null));
        } catch (ReflectiveOperationException e) {
            return "-";
        }
    }
}
