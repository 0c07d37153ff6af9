package org.leveldbj.interop;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Assertions;
import org.leveldbj.testing.PeerExtension;
import org.leveldbj.testing.PeerUnavailableException;

/**
 * The interoperability peers (interop/README.md): the C++ peer linked against the system's
 * LevelDB and the Go peer using goleveldb. They are built once per test run into
 * {@code leveldb-core/target/interop-peers} (so {@code mvn clean} removes them).
 *
 * <p>When g++, the LevelDB headers or Go are missing, the tests that need the peers are
 * skipped with a banner on stderr saying what is missing; under {@code CI=true} they fail
 * instead ({@link PeerExtension}).
 *
 * <p>Other modules' tests use the peers too: leveldb-core publishes its test classes as a
 * {@code test-jar}. Run from another module, the peers are built into that module's
 * {@code target/interop-peers}.
 */
public final class Peers {
    private static final long BUILD_TIMEOUT_SECONDS = 300;
    private static final long RUN_TIMEOUT_SECONDS = 120;

    /** The outcome of one peer command. */
    public record Result(List<String> command, int exit, String stdout, String stderr) {
        /** @return whether the command exited with 0 */
        public boolean ok() {
            return exit == 0;
        }

        /** @return standard output, then standard error */
        public String output() {
            return stdout + stderr;
        }

        /** @return the result, after asserting that the command succeeded */
        public Result expectOk() {
            if (exit != 0) {
                Assertions.fail("peer command failed (exit " + exit + "): " + String.join(" ", command) + "\n" + output());
            }
            return this;
        }

        /** The decimal number after {@code name=} (or {@code name }) in the output. */
        long number(String name) {
            String out = output();
            for (String sep : new String[] {"=", " "}) {
                int i = out.indexOf(name + sep);
                if (i >= 0) {
                    int start = i + name.length() + 1;
                    int end = start;
                    while (end < out.length() && (Character.isDigit(out.charAt(end)) || out.charAt(end) == '.')) {
                        end++;
                    }
                    String digits = out.substring(start, end);
                    if (!digits.isEmpty()) {
                        return digits.contains(".") ? (long) Double.parseDouble(digits) : Long.parseLong(digits);
                    }
                }
            }
            throw new AssertionError("no '" + name + "' in the output of " + String.join(" ", command) + ":\n" + out);
        }

        /** The decimal (possibly fractional) number after {@code name=}. */
        double decimal(String name) {
            String out = output();
            int i = out.indexOf(name + "=");
            if (i < 0) {
                throw new AssertionError("no '" + name + "' in the output of " + String.join(" ", command) + ":\n" + out);
            }
            int start = i + name.length() + 1;
            int end = start;
            while (end < out.length() && (Character.isDigit(out.charAt(end)) || out.charAt(end) == '.')) {
                end++;
            }
            return Double.parseDouble(out.substring(start, end));
        }
    }

    private static Peers instance;
    private static String unavailable;

    final Path repoRoot;
    final Path cpp;
    final Path go;
    private final Path scratch;
    private final AtomicInteger runs = new AtomicInteger();

    private Peers(Path repoRoot, Path cpp, Path go, Path scratch) {
        this.repoRoot = repoRoot;
        this.cpp = cpp;
        this.go = go;
        this.scratch = scratch;
    }

    /**
     * The peers, built on first use. Throws {@link PeerUnavailableException} when they cannot be
     * built: the tests' {@link PeerExtension} skips them, or fails them under CI.
     *
     * @return the peers
     */
    public static synchronized Peers get() {
        if (instance == null && unavailable == null) {
            try {
                instance = build();
            } catch (IOException | InterruptedException e) {
                unavailable = "building the peers failed: " + e;
            }
        }
        if (instance == null) {
            throw new PeerUnavailableException("C++ LevelDB and goleveldb (the interoperability peers)", unavailable,
                    "apt-get install -y g++ libleveldb-dev libsnappy-dev, and Go 1.18+ on PATH"
                            + " (with the Go module proxy reachable)", null);
        }
        return instance;
    }

    /** The repository root: the nearest ancestor of the working directory with interop/cpp/build.sh. */
    static Path repoRoot() {
        Path p = Path.of("").toAbsolutePath();
        for (; p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve("interop/cpp/build.sh"))) {
                return p;
            }
        }
        throw new IllegalStateException("no interop/cpp/build.sh above " + Path.of("").toAbsolutePath());
    }

    /**
     * The test module's build directory (target), where the peers and scratch files go: the
     * working directory's (a module's, as surefire runs its tests), else leveldb-core's.
     */
    static Path targetDir() {
        Path module = Path.of("").toAbsolutePath();
        if (!Files.isRegularFile(module.resolve("pom.xml")) || module.equals(repoRoot())) {
            module = repoRoot().resolve("leveldb-core");
        }
        return module.resolve("target");
    }

    private static Path findOnPath(String name) {
        String path = System.getenv("PATH");
        if (path != null) {
            for (String dir : path.split(File.pathSeparator)) {
                if (dir.isEmpty()) {
                    continue;
                }
                Path p = Path.of(dir, name);
                if (Files.isExecutable(p)) {
                    return p;
                }
            }
        }
        return null;
    }

    private static Path findGo() {
        Path go = findOnPath("go");
        if (go == null && System.getenv("GOROOT") != null) {
            Path p = Path.of(System.getenv("GOROOT"), "bin", "go");
            go = Files.isExecutable(p) ? p : null;
        }
        if (go == null && Files.isExecutable(Path.of("/usr/local/go/bin/go"))) {
            go = Path.of("/usr/local/go/bin/go");
        }
        return go;
    }

    private static Peers build() throws IOException, InterruptedException {
        Path root = repoRoot();
        Path out = targetDir().resolve("interop-peers");
        Files.createDirectories(out);
        Path scratch = targetDir().resolve("interop-scratch");
        Files.createDirectories(scratch);

        List<String> missing = new ArrayList<>();
        String cxx = System.getenv("CXX") != null ? System.getenv("CXX") : "g++";
        if (!cxx.contains("/") && findOnPath(cxx) == null) {
            missing.add(cxx + " (C++ compiler; Debian package g++)");
        }
        Path go = findGo();
        if (go == null) {
            missing.add("go (Go toolchain 1.18+, on PATH or at /usr/local/go/bin/go)");
        }
        if (!missing.isEmpty()) {
            unavailable = "missing: " + String.join("; ", missing);
            return null;
        }

        long start = System.nanoTime();
        Path cpp = out.resolve("leveldb_peer");
        Result r = exec(out, BUILD_TIMEOUT_SECONDS, Map.of(), "sh", root.resolve("interop/cpp/build.sh").toString(),
                cpp.toString());
        if (!r.ok()) {
            String hint = Files.isRegularFile(Path.of("/usr/include/leveldb/db.h")) ? ""
                    : "missing: the LevelDB headers /usr/include/leveldb/db.h (Debian package libleveldb-dev)\n";
            unavailable = hint + "interop/cpp/build.sh failed (are libleveldb-dev and libsnappy-dev installed?):\n"
                    + r.output();
            return null;
        }
        Path goPeer = out.resolve("go_peer");
        Map<String, String> goEnv = new HashMap<>();
        if (System.getenv("HOME") == null && System.getenv("XDG_CACHE_HOME") == null && System.getenv("GOCACHE") == null) {
            // Without HOME, go has no default build cache or module directory: use the build directory
            // (-modcacherw keeps the downloaded modules deletable by mvn clean).
            goEnv.put("GOCACHE", out.resolve("go-cache").toString());
            goEnv.put("GOPATH", out.resolve("go-path").toString());
        }
        r = exec(root.resolve("interop/go"), BUILD_TIMEOUT_SECONDS, goEnv, go.toString(), "build", "-buildvcs=false", "-modcacherw",
                "-o", goPeer.toString(), ".");
        if (!r.ok()) {
            unavailable = "go build of interop/go failed (is the Go module proxy reachable?):\n" + r.output();
            return null;
        }
        System.err.printf("interop: built %s and %s in %.1f s%n", cpp, goPeer, (System.nanoTime() - start) / 1e9);
        return new Peers(root, cpp, goPeer, scratch);
    }

    /** Runs a command with a time limit; output is captured through files (no pipe stalls). */
    private static Result exec(Path workDir, long timeoutSeconds, Map<String, String> env, String... command)
            throws IOException, InterruptedException {
        Path outFile = Files.createTempFile(targetDir(), "peer-out", ".txt");
        Path errFile = Files.createTempFile(targetDir(), "peer-err", ".txt");
        try {
            ProcessBuilder pb = new ProcessBuilder(command).directory(workDir.toFile())
                    .redirectOutput(outFile.toFile()).redirectError(errFile.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
            pb.environment().putAll(env);
            Process p = pb.start();
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                p.waitFor(10, TimeUnit.SECONDS);
                throw new IOException("timed out after " + timeoutSeconds + " s: " + String.join(" ", command));
            }
            return new Result(Arrays.asList(command), p.exitValue(),
                    Files.readString(outFile, StandardCharsets.ISO_8859_1), Files.readString(errFile, StandardCharsets.ISO_8859_1));
        } finally {
            Files.deleteIfExists(outFile);
            Files.deleteIfExists(errFile);
        }
    }

    private Result run(Path peer, String... args) {
        String[] command = new String[args.length + 1];
        command[0] = peer.toString();
        System.arraycopy(args, 0, command, 1, args.length);
        runs.incrementAndGet();
        try {
            return exec(scratch, RUN_TIMEOUT_SECONDS, Map.of(), command);
        } catch (IOException e) {
            throw new AssertionError("running " + String.join(" ", command) + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted: " + String.join(" ", command), e);
        }
    }

    /**
     * Runs the C++ peer.
     *
     * @param args its arguments (interop/README.md)
     * @return what it did
     */
    public Result cpp(String... args) {
        return run(cpp, args);
    }

    /**
     * Runs the Go peer.
     *
     * @param args its arguments (interop/README.md)
     * @return what it did
     */
    public Result go(String... args) {
        return run(go, args);
    }

    /**
     * A copy of a database directory beside it, {@code <dir>.<suffix>} (each reader changes the
     * directory it opens: a copy lets each see the database as written).
     *
     * @param db the database directory
     * @param suffix the copy's suffix
     * @return the copy
     * @throws IOException if copying fails
     */
    public static Path copy(Path db, String suffix) throws IOException {
        Path to = db.resolveSibling(db.getFileName() + "." + suffix);
        Files.createDirectories(to);
        List<Path> files;
        try (var s = Files.list(db)) {
            files = s.sorted().toList();
        }
        for (Path f : files) {
            Files.copy(f, to.resolve(f.getFileName()), StandardCopyOption.REPLACE_EXISTING);
        }
        return to;
    }

    /**
     * Asserts that both peers read exactly {@code expected} from the database: C++ LevelDB with
     * paranoid checks and checksums, goleveldb at {@code StrictAll}, each on a copy, through
     * their {@code verify} (gets, and forward and backward scans equal to the entries, no key
     * more or less). The recipe of the entries is written to {@code recipeFile}.
     *
     * @param dir the database directory (left as it is)
     * @param expected every entry the database holds, keys in unsigned byte order
     * @param recipeFile where to write the recipe
     * @return the peers' reports, one line each
     * @throws IOException if the recipe or the copies cannot be written
     */
    public String verifyExactly(Path dir, SortedMap<byte[], byte[]> expected, Path recipeFile) throws IOException {
        StringBuilder recipe = new StringBuilder();
        HexFormat hex = HexFormat.of();
        byte[] previous = null;
        for (Map.Entry<byte[], byte[]> e : expected.entrySet()) {
            if (previous != null && Arrays.compareUnsigned(previous, e.getKey()) >= 0) {
                throw new IllegalArgumentException("expected entries not in unsigned byte order");
            }
            previous = e.getKey();
            recipe.append("put ").append(e.getKey().length == 0 ? "-" : hex.formatHex(e.getKey())).append(' ')
                    .append(e.getValue().length == 0 ? "-" : hex.formatHex(e.getValue())).append('\n');
        }
        Files.writeString(recipeFile, recipe, StandardCharsets.ISO_8859_1);
        String name = dir.getFileName().toString();
        String cppReport = cpp("verify", copy(dir, "cpp-verify").toString(), recipeFile.toString()).expectOk()
                .stdout().trim();
        String goReport = go("verify", "--strict-all", copy(dir, "go-verify").toString(), recipeFile.toString())
                .expectOk().output().trim();
        return name + ": C++ " + cppReport + "\n" + name + ": Go " + goReport;
    }

    /** @return the path of a sample recipe, interop/recipes/NAME.recipe */
    Path recipe(String name) {
        return repoRoot.resolve("interop/recipes").resolve(name + ".recipe");
    }

    /** @return how many peer commands ran so far */
    int runs() {
        return runs.get();
    }
}
