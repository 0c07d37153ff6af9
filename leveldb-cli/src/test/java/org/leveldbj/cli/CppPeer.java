package org.leveldbj.cli;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assertions;
import org.leveldbj.testing.PeerExtension;
import org.leveldbj.testing.PeerUnavailableException;

/**
 * C++ LevelDB 1.23 as a writer of test databases: interop/cpp/leveldb_peer, built once per test
 * run into {@code leveldb-cli/target/interop-peers} with interop/cpp/build.sh (see
 * interop/README.md). Without g++ or the LevelDB headers the tests that need it are skipped
 * with a banner on standard error; under {@code CI=true} they fail instead
 * ({@link PeerExtension}).
 */
final class CppPeer {
    private static final long TIMEOUT_SECONDS = 300;
    private static Path peer;
    private static String unavailable;

    private CppPeer() {
    }

    /** The repository root: the nearest ancestor with interop/cpp/build.sh. */
    static Path repoRoot() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve("interop/cpp/build.sh"))) {
                return p;
            }
        }
        throw new IllegalStateException("no interop/cpp/build.sh above " + Path.of("").toAbsolutePath());
    }

    private static Path targetDir() {
        return repoRoot().resolve("leveldb-cli/target");
    }

    /**
     * The peer executable, built on first use.
     *
     * @throws PeerUnavailableException when it cannot be built (the tests' {@link PeerExtension}
     *     skips them, or fails them under CI)
     */
    static synchronized Path get() {
        if (peer == null && unavailable == null) {
            try {
                build();
            } catch (IOException | InterruptedException e) {
                unavailable = "building the C++ peer failed: " + e;
            }
        }
        if (peer == null) {
            throw new PeerUnavailableException("C++ LevelDB (to write the database the CLI reads)", unavailable,
                    "apt-get install -y g++ libleveldb-dev libsnappy-dev", null);
        }
        return peer;
    }

    private static void build() throws IOException, InterruptedException {
        String cxx = System.getenv("CXX") != null ? System.getenv("CXX") : "g++";
        if (!cxx.contains("/") && !onPath(cxx)) {
            unavailable = "missing: " + cxx + " (C++ compiler; Debian package g++)";
            return;
        }
        Path out = targetDir().resolve("interop-peers/leveldb_peer");
        Files.createDirectories(out.getParent());
        Result r = exec(targetDir(), "sh", repoRoot().resolve("interop/cpp/build.sh").toString(), out.toString());
        if (r.exit != 0) {
            String hint = Files.isRegularFile(Path.of("/usr/include/leveldb/db.h")) ? ""
                    : "missing: the LevelDB headers /usr/include/leveldb/db.h (Debian package libleveldb-dev)\n";
            unavailable = hint + "interop/cpp/build.sh failed:\n" + r.output;
            return;
        }
        peer = out;
    }

    private static boolean onPath(String name) {
        String path = System.getenv("PATH");
        if (path != null) {
            for (String dir : path.split(File.pathSeparator)) {
                if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, name))) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Writes a database with the C++ peer: the steps of a recipe, ending with writes left in
     * the log.
     *
     * @param dir the directory, which must not exist yet
     * @param recipe the recipe file
     * @return the peer's report ({@code write ok: N ops, N live keys; ...})
     */
    static String write(Path dir, Path recipe) throws IOException, InterruptedException {
        Result r = exec(targetDir(), get().toString(), "write", dir.toString(), recipe.toString());
        if (r.exit != 0) {
            Assertions.fail("leveldb_peer write failed (exit " + r.exit + "):\n" + r.output);
        }
        return r.output;
    }

    /**
     * Opens a database with C++ LevelDB and checks that it holds exactly what a recipe writes.
     *
     * @param dir the database
     * @param recipe the recipe file
     * @return the peer's report
     */
    static String verify(Path dir, Path recipe) throws IOException, InterruptedException {
        Result r = exec(targetDir(), get().toString(), "verify", dir.toString(), recipe.toString());
        if (r.exit != 0) {
            Assertions.fail("leveldb_peer verify failed (exit " + r.exit + "):\n" + r.output);
        }
        return r.output;
    }

    /** A recipe of interop/recipes. */
    static Path recipe(String name) {
        return repoRoot().resolve("interop/recipes").resolve(name + ".recipe");
    }

    private record Result(int exit, String output) {
    }

    private static Result exec(Path workDir, String... command) throws IOException, InterruptedException {
        Path log = Files.createTempFile(targetDir(), "peer", ".txt");
        try {
            Process p = new ProcessBuilder(List.of(command)).directory(workDir.toFile()).redirectErrorStream(true)
                    .redirectOutput(log.toFile()).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
            if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException("timed out after " + TIMEOUT_SECONDS + " s: " + String.join(" ", command));
            }
            return new Result(p.exitValue(), Files.readString(log, StandardCharsets.ISO_8859_1));
        } finally {
            Files.deleteIfExists(log);
        }
    }
}
