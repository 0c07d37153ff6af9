package org.leveldbj.benchmark.jmh;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.iq80.leveldb.DB;
import org.iq80.leveldb.DBFactory;
import org.iq80.leveldb.Options;
import org.leveldbj.benchmark.Implementations;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Opening and closing small databases, as applications that keep many (Hadoop's state stores,
 * Spark's) do: {@code createPutsClose} creates a database in a new directory, writes
 * {@code puts} small entries and closes it; {@code reopenGetClose} opens such a database (its
 * writes still in the log, as a close leaves them), reads one key and closes it. The same
 * calls through each implementation's {@code DBFactory}: {@code impl} is a name the db_bench
 * runner's {@code --impl} takes, and peers load from {@code target/peers} as they do there.
 *
 * <p>Sample time (each call timed, so the report has the median and percentiles), in
 * milliseconds; the directories are in {@code java.io.tmpdir} and removed after each
 * iteration. The database a reopen opens is made before the call, outside the time measured.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class OpenCloseBenchmark {
    /** The implementation: {@code leveldbj}, {@code leveldbjni}, {@code iq80}, ... */
    @Param({"leveldbj", "leveldbjni"})
    public String impl;

    /** How many entries each new database gets before it is closed. */
    @Param("20")
    public int puts;

    private DBFactory factory;
    private Path root;
    private int next;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        factory = Implementations.factory(impl);
        root = Files.createTempDirectory("leveldbj-jmh-openclose-");
    }

    /** A new directory under the trial's root. */
    File newDirectory() {
        return root.resolve("db" + next++).toFile();
    }

    /** Creates a database in a new directory, writes the entries and closes it. */
    File createPutsCloseOnce() throws IOException {
        File dir = newDirectory();
        try (DB db = factory.open(dir, new Options().createIfMissing(true))) {
            for (int i = 0; i < puts; i++) {
                db.put(key(i), value(i));
            }
        }
        return dir;
    }

    private static byte[] key(int i) {
        return ("key" + i).getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] value(int i) {
        return ("value of key " + i).getBytes(StandardCharsets.UTF_8);
    }

    /** A closed database made before each call of {@link #reopenGetClose}. */
    @State(Scope.Thread)
    public static class Closed {
        File dir;

        @Setup(Level.Invocation)
        public void make(OpenCloseBenchmark b) throws IOException {
            dir = b.createPutsCloseOnce();
        }
    }

    @Benchmark
    public File createPutsClose() throws IOException {
        return createPutsCloseOnce();
    }

    @Benchmark
    public byte[] reopenGetClose(Closed closed) throws IOException {
        try (DB db = factory.open(closed.dir, new Options())) {
            byte[] value = db.get(key(puts / 2));
            if (value == null) {
                throw new IllegalStateException("key " + puts / 2 + " missing from " + closed.dir);
            }
            return value;
        }
    }

    @TearDown(Level.Iteration)
    public void removeDatabases() {
        try (Stream<Path> dirs = Files.list(root)) {
            for (Path dir : dirs.toList()) {
                delete(dir);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        delete(root);
    }

    private static void delete(Path path) {
        try (Stream<Path> files = Files.walk(path)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
