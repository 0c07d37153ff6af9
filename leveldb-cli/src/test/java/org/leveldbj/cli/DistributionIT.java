package org.leveldbj.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The self-contained distribution, {@code target/leveldb-cli-<version>-all.jar}, as a user runs
 * it: {@code java -jar} from a directory of its own (no {@code lib/} beside it), and what it
 * holds. Runs in the integration-test phase (failsafe, {@code mvn verify}), after the jar is
 * packaged; failsafe names the jar in {@code leveldbj.cli.distribution}.
 */
class DistributionIT {
    private static Path packaged;

    @TempDir
    Path tmp;

    @BeforeAll
    static void packaged() {
        String jar = System.getProperty("leveldbj.cli.distribution");
        assumeTrue(jar != null, "runs in the integration-test phase (mvn verify), after the -all jar is packaged");
        packaged = Path.of(jar);
        assertTrue(Files.isRegularFile(packaged), packaged + " was not built");
    }

    @Test
    void holdsTheToolAndItsDependenciesButNoBenchmarkOrProfiler() throws IOException {
        List<String> names = new ArrayList<>();
        try (JarFile jar = new JarFile(packaged.toFile())) {
            for (Enumeration<JarEntry> e = jar.entries(); e.hasMoreElements(); ) {
                names.add(e.nextElement().getName());
            }
            for (String required : List.of("org/leveldbj/cli/Main.class", "org/leveldbj/db/LevelDbFactory.class",
                    "org/iq80/leveldb/DB.class", "picocli/CommandLine.class", "org/slf4j/LoggerFactory.class",
                    "org/xerial/snappy/Snappy.class", "com/github/luben/zstd/Zstd.class")) {
                assertTrue(names.contains(required), required);
            }
            for (String name : names) {
                for (String left : List.of("org/openjdk/jmh/", "org/knowm/xchart/", "one/profiler/",
                        "org/leveldbj/benchmark/", "META-INF/BenchmarkList")) {
                    assertTrue(!name.startsWith(left), name);
                }
                assertTrue(!name.endsWith("libasyncProfiler.so"), name);
                assertTrue(!name.endsWith("module-info.class"), name);
                assertTrue(!name.matches("META-INF/[^/]+\\.(SF|RSA|DSA|EC)"), name);
            }

            Attributes manifest = jar.getManifest().getMainAttributes();
            assertEquals("org.leveldbj.cli.Main", manifest.getValue("Main-Class"));
            assertNull(manifest.getValue("Class-Path"), "the thin jar's lib/ class path");
            assertEquals("ALL-UNNAMED", manifest.getValue("Enable-Native-Access"));

            // Service files of several jars are merged, not overwritten.
            assertEquals("org.slf4j.simple.SimpleServiceProvider",
                    text(jar, "META-INF/services/org.slf4j.spi.SLF4JServiceProvider").strip());
            assertTrue(text(jar, "META-INF/services/org.iq80.leveldb.DBFactory").contains("org.leveldbj."),
                    "the DBFactory service of leveldb-core");
        }
    }

    @Test
    void runsVersionHelpAndCommands() throws Exception {
        Path jar = Files.copy(packaged, tmp.resolve(packaged.getFileName()));

        Run version = run(jar, "--version");
        assertEquals(0, version.exit, version.toString());
        assertTrue(version.out.startsWith("leveldb (leveldbj) " + System.getProperty("leveldbj.cli.version") + "\n"),
                version.toString());

        Run help = run(jar, "--help");
        assertEquals(0, help.exit, help.toString());
        assertTrue(help.out.startsWith("Usage: leveldb "), help.toString());
        assertTrue(help.out.contains("\nExit codes:\n  0  ok\n"), help.toString());
        assertTrue(help.out.contains("\n  bench  ") && help.out.contains("not in this build"), help.toString());

        Path db = tmp.resolve("db");
        String value = "compressible ".repeat(1000);
        assertEquals("", run(jar, "put", "--create", db, "k", value).checked());
        assertEquals("", run(jar, "compact", db, "--quiet").err);
        assertEquals(value + "\n", run(jar, "get", db, "k").checked());
        String verified = run(jar, "verify", db, "--format", "json").checked();
        assertTrue(verified.contains("\"ok\":true"), verified);

        Run bench = run(jar, "bench", "--num=10");
        assertEquals(ExitCode.OTHER, bench.exit, bench.toString());
        assertEquals("leveldb: " + BenchCommand.UNAVAILABLE + "\n", bench.err);
    }

    /** Runs {@code java -jar JAR args} in the jar's directory, with the JVM running the tests. */
    private Run run(Path jar, Object... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar", jar.toString()));
        for (Object a : args) {
            command.add(a.toString());
        }
        Path out = tmp.resolve("out.txt");
        Path err = tmp.resolve("err.txt");
        Process p = new ProcessBuilder(command).directory(jar.getParent().toFile())
                .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor();
            throw new AssertionError(command + " did not finish within 60 s");
        }
        return new Run(p.exitValue(), Files.readString(out), Files.readString(err));
    }

    private static String text(JarFile jar, String name) throws IOException {
        JarEntry entry = jar.getJarEntry(name);
        assertTrue(entry != null, name);
        return new String(jar.getInputStream(entry).readAllBytes(), StandardCharsets.UTF_8);
    }

    private record Run(int exit, String out, String err) {
        /** Standard output of a run that succeeded and wrote nothing on standard error. */
        String checked() {
            assertEquals(0, exit, toString());
            assertEquals("", err, toString());
            return out;
        }

        @Override
        public String toString() {
            return "exit " + exit + "\n--- out:\n" + out + "--- err:\n" + err;
        }
    }
}
