package org.leveldbj.kafka.streams.compat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Keeps {@code bin/kafka-dsl-timing}'s pieces working: compiles the stand-in
 * {@code BuiltInDslStoreSuppliers}, runs {@link DslTestTiming} on one small Kafka DSL test class in
 * a child JVM with the stand-in ahead of the kafka-streams jar (as the tool's "ours" runs), and
 * checks that the class's tests ran and passed, that its DSL stores were leveldbj's (the stand-in
 * was the class loaded and counted the stores it supplied), and that {@link DslTimingReport}
 * reads the output. (The tool's other side is the same command without the stand-in.)
 */
class DslTestTimingTest {
    /** A Kafka DSL test class with a global table and a stream-table join: two quick tests. */
    private static final String SMALL_CLASS = "GlobalKTableJoinsTest";
    private static final String QUALIFIED = DslTestTiming.DEFAULT_PACKAGE + "." + SMALL_CLASS;

    @TempDir
    Path dir;

    @Test
    void runsKafkasTestClassOnOurStores() throws Exception {
        String classpath = testClassPath();
        Path standin = dir.resolve("standin");
        Files.createDirectories(standin);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        int compiled = javac.run(null, null, null, "-nowarn", "-d", standin.toString(), "-cp", classpath,
                Path.of("src/dsl-standin/java/org/apache/kafka/streams/state/BuiltInDslStoreSuppliers.java").toString());
        assertEquals(0, compiled, "the stand-in compiles");

        Path ours = run("ours", standin + File.pathSeparator + classpath);

        DslTimingReport.Run o = DslTimingReport.Run.read(ours);
        assertEquals(List.of(QUALIFIED), List.copyOf(o.millis().keySet()), "only the selected class ran");
        assertEquals(2, o.tests().get(QUALIFIED), "its tests ran");
        assertTrue(o.failures().isEmpty(), () -> "no failure: " + o.failures());
        assertTrue(Long.parseLong(o.supplied()) > 0, "the stand-in supplied the DSL's stores: " + o.supplied());
        assertEquals(o.supplied(), o.stores().get(QUALIFIED), "all of them while the class ran");
        assertEquals(standin.toRealPath(), Path.of(o.storesLocation()).toRealPath(), "loaded from the stand-in's directory");
        assertEquals(List.of(), DslTimingReport.checkStores(List.of(o), List.of()));
        List<String> report = DslTimingReport.report(List.of(o), List.of(o));
        assertTrue(report.stream().anyMatch(l -> l.startsWith(SMALL_CLASS + " ")), () -> String.join("\n", report));
    }

    /** Runs DslTestTiming on the small class in a child JVM; returns its output file. */
    private Path run(String side, String classpath) throws IOException, InterruptedException {
        Path out = dir.resolve(side + ".tsv");
        Path log = dir.resolve(side + ".log");
        Path tmp = Files.createDirectories(dir.resolve("tmp-" + side));
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx512m");
        command.add("-XX:TieredStopAtLevel=1"); // a short run: quick compilation is enough
        command.add("-javaagent:" + mockitoJar(classpath));
        command.add("-Djava.io.tmpdir=" + tmp);
        command.add("-cp");
        command.add(classpath);
        command.add(DslTestTiming.class.getName());
        command.add("--classes=" + SMALL_CLASS);
        command.add("--out=" + out);
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError(side + " run did not finish in 120 s; log: " + Files.readString(log));
        }
        assertEquals(0, p.exitValue(), () -> side + " run failed: " + readQuietly(log));
        return out;
    }

    private static String readQuietly(Path log) {
        try {
            return Files.readString(log, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    /** The module's test class path (surefire passes it apart when the JVM's own is a manifest jar). */
    private static String testClassPath() {
        String cp = System.getProperty("surefire.test.class.path");
        if (cp == null || cp.isEmpty()) {
            cp = System.getProperty("java.class.path");
        }
        assertTrue(cp.contains("kafka-streams-4.3.1-test.jar"), () -> "Kafka's test jar is not on the class path");
        return cp;
    }

    private static String mockitoJar(String classpath) {
        for (String entry : classpath.split(File.pathSeparator)) {
            if (entry.contains("mockito-core-") && entry.endsWith(".jar")) {
                return entry;
            }
        }
        throw new AssertionError("mockito-core is not on the class path");
    }
}
