package org.leveldbj.stress;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.iq80.leveldb.DB;
import org.leveldbj.db.LevelDbFactory;

/**
 * The crash-test loop: start a stress process on the database, let it run, kill it (SIGKILL
 * after a random time, or a halt at an armed {@link KillPoint}), for a repair round also kill a
 * repair midway and finish it, then reopen the database with paranoid checks, verify it with
 * {@link Verifier}, make what was recovered the expected state of the next round, and go on
 * until the duration is used up or a check fails.
 *
 * <p>The first rounds take each enabled kind of kill in turn; later rounds pick at random. Every
 * random choice of the driver derives from the seed; the stress threads' interleaving does not.
 *
 * <p>Thread safety: one run at a time, on the calling thread. Lifetime: {@link #run} once.
 */
final class Driver {
    private static final long REPAIR_TIMEOUT_SECONDS = 300;
    private static final double ARMED_TIMEOUT_FACTOR = 3;

    private final Config config;
    private final PrintStream out;
    private final SplittableRandom random;
    private final Summary summary = new Summary();
    private Path work;
    private Path dbDir;
    private long repairEstimate = 60;

    Driver(Config config, PrintStream out) {
        this.config = config;
        this.out = out;
        this.random = new SplittableRandom(config.seed);
    }

    /**
     * Runs the crash test.
     *
     * @return the totals; {@link Summary#failure} names the first failure
     * @throws IOException if the working directory cannot be used
     * @throws InterruptedException if interrupted while waiting for a child
     */
    Summary run() throws IOException, InterruptedException {
        boolean temporary = config.db == null;
        work = temporary ? Files.createTempDirectory("crashtest-") : config.db;
        Files.createDirectories(work);
        dbDir = work.resolve("db");
        out.println("crashtest: seed " + config.seed + ", directory " + work);
        long start = System.nanoTime();
        long deadline = start + (long) (config.duration * 1e9);
        List<KillPoint> points = new ArrayList<>(config.killPoints);
        if (hasLogs()) {
            verify("resumed");
        }
        while (summary.ok() && System.nanoTime() < deadline) {
            summary.rounds++;
            KillPoint kind = summary.rounds <= points.size()
                    ? points.get(summary.rounds - 1)
                    : points.get(random.nextInt(points.size()));
            round(kind, (deadline - System.nanoTime()) / 1e9);
        }
        summary.seconds = (System.nanoTime() - start) / 1e9;
        if (summary.ok() && temporary) {
            deleteRecursively(work);
        } else if (!summary.ok()) {
            summary.failure += "\n  seed " + config.seed + ", directory " + work + " (kept)";
        }
        return summary;
    }

    private void round(KillPoint kind, double remaining) throws IOException, InterruptedException {
        long childSeed = random.nextLong();
        double runFor = Math.min(config.killMin + random.nextDouble() * (config.killMax - config.killMin),
                Math.max(remaining, config.killMin));
        KillPoint arm = kind == KillPoint.RANDOM || kind == KillPoint.REPAIR ? null : kind;
        long armAfter = arm == null ? 0 : 1 + random.nextLong(arm == KillPoint.MANIFEST ? 24 : 400);
        double timeout = arm == null ? runFor : ARMED_TIMEOUT_FACTOR * config.killMax;
        Path output = work.resolve("stress.out");
        double armDelay = random.nextDouble() * config.killMax / 2;
        Process p = start(StressMain.class, config.childArgs(work, childSeed), arm, armAfter, armDelay, output);
        String how;
        if (p.waitFor((long) (timeout * 1000), TimeUnit.MILLISECONDS)) {
            int status = p.exitValue();
            if (status != KillPointEnv.HALT_STATUS) {
                fail("round " + summary.rounds + " (" + name(kind) + "): the stress process exited with status "
                        + status + "\n" + tail(output));
                return;
            }
            summary.kills.merge(kind, 1, Integer::sum);
            how = haltLine(output);
        } else {
            p.destroyForcibly();
            p.waitFor();
            summary.kills.merge(KillPoint.RANDOM, 1, Integer::sum);
            how = arm == null ? String.format(Locale.ROOT, "killed after %.1f s", timeout)
                    : "killed: " + name(arm) + " point not reached in " + (long) timeout + " s";
        }
        p.getOutputStream().close();
        if (kind == KillPoint.REPAIR) {
            how += "; " + repair(childSeed);
            if (!summary.ok()) {
                return;
            }
        }
        verify(how);
    }

    /** Runs a repair that halts at a random file change, then finishes it in this process. */
    private String repair(long childSeed) throws IOException, InterruptedException {
        long after = 1 + random.nextLong(repairEstimate);
        Path output = work.resolve("repair.out");
        Process p = start(RepairMain.class, config.childArgs(work, childSeed), KillPoint.REPAIR, after, 0, output);
        if (!p.waitFor(REPAIR_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            p.waitFor();
            fail("round " + summary.rounds + ": the repair did not finish in " + REPAIR_TIMEOUT_SECONDS + " s");
            return "";
        }
        p.getOutputStream().close();
        String how;
        if (p.exitValue() == KillPointEnv.HALT_STATUS) {
            summary.kills.merge(KillPoint.REPAIR, 1, Integer::sum);
            how = haltLine(output);
        } else if (p.exitValue() == 0) {
            String text = Files.readString(output, StandardCharsets.UTF_8);
            int at = text.lastIndexOf("repair file changes: ");
            long seen = at < 0 ? repairEstimate : Long.parseLong(text.substring(at + 21).trim().split("\\s")[0]);
            repairEstimate = Math.max(2, seen);
            how = "repair ran to its end (" + seen + " file change events) before event " + after;
        } else {
            fail("round " + summary.rounds + " (repair): the repair process exited with status " + p.exitValue()
                    + "\n" + tail(output));
            return "";
        }
        try {
            LevelDbFactory.factory.repair(dbDir.toFile(), config.options(null));
        } catch (IOException | RuntimeException e) {
            fail("round " + summary.rounds + " (repair): repairing again after the kill failed: " + e);
            return "";
        }
        return how + ", repaired again";
    }

    /** Reopens the database, verifies it and carries what was recovered into the next round. */
    private void verify(String how) throws IOException {
        ExpectedState base = ExpectedState.load(work, config.threads, config.keysPerThread);
        List<List<Op>> logs = new ArrayList<>();
        for (int t = 0; t < config.threads; t++) {
            logs.add(OpLog.read(OpLog.file(work, t)));
        }
        Verification v;
        try (DB db = LevelDbFactory.factory.open(dbDir.toFile(), config.options(null).paranoidChecks(true))) {
            v = Verifier.verify(db, base, logs, config.requireUnsynced);
        } catch (IOException | RuntimeException e) {
            fail("round " + summary.rounds + " (" + how + "): reopening with paranoid checks failed: " + e);
            return;
        }
        summary.add(v);
        out.printf(Locale.ROOT, "round %d: %s; %,d ops acknowledged (%,d synced): %s%n", summary.rounds, how,
                v.acknowledged, v.acknowledgedSynced, v.ok() ? "verified" : "FAILED");
        if (!v.ok()) {
            fail("round " + summary.rounds + " (" + how + "):\n  " + String.join("\n  ", v.failures()));
            return;
        }
        v.recovered().save(work);
        for (int t = 0; t < config.threads; t++) {
            Files.deleteIfExists(OpLog.file(work, t));
        }
    }

    private Process start(Class<?> main, List<String> args, KillPoint arm, long armAfter, double armDelay,
                          Path output) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx256m");
        if (Runtime.version().feature() >= 22) {
            command.add("--enable-native-access=ALL-UNNAMED");
        }
        for (String name : System.getProperties().stringPropertyNames()) {
            if (name.startsWith("leveldbj.")) {
                command.add("-D" + name + "=" + System.getProperty(name));
            }
        }
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(main.getName());
        command.addAll(args);
        if (arm != null) {
            command.add("--arm=" + arm.name().toLowerCase(Locale.ROOT));
            command.add("--arm-after=" + armAfter);
            command.add("--arm-delay=" + armDelay);
        }
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
    }

    private void fail(String failure) {
        if (summary.failure == null) {
            summary.failure = failure;
        }
    }

    private boolean hasLogs() {
        for (int t = 0; t < config.threads; t++) {
            if (Files.exists(OpLog.file(work, t))) {
                return true;
            }
        }
        return false;
    }

    private static String haltLine(Path output) throws IOException {
        String text = Files.readString(output, StandardCharsets.UTF_8);
        int at = text.lastIndexOf("crashtest: halting in ");
        return at < 0 ? "halted" : "halted " + text.substring(at + 22).split("\n")[0].trim();
    }

    private static String tail(Path output) throws IOException {
        List<String> lines = Files.readAllLines(output, StandardCharsets.UTF_8);
        return "  " + String.join("\n  ", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
    }

    private static String name(KillPoint p) {
        return p.name().toLowerCase(Locale.ROOT);
    }

    private static void deleteRecursively(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path f : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(f);
            }
        }
    }
}
