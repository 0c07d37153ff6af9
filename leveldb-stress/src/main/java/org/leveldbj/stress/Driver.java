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
 * The crash-test loop: draw the round's options ({@link OptionSpace}), start a stress process on
 * the database with them, let it run, kill it (SIGKILL after a random time, or a halt at an armed
 * {@link KillPoint}), for a repair round also kill a repair midway and finish it, then reopen the
 * database with paranoid checks, verify it with {@link Verifier}, make what was recovered the
 * expected state of the next round, and go on until the duration is used up or a check fails.
 *
 * <p>Hangs fail a round too. The stress process's {@link Watchdog} reports a deadlock or a stall
 * itself and exits with its own status; and before each kill the driver reads the process's
 * {@link Heartbeat}: while nothing has completed for {@value #QUIET_SECONDS} s the kill waits,
 * and once nothing has completed for the stall timeout and a little more (half of it, within
 * {@value #MIN_REPORT_GRACE_SECONDS} to {@value #MAX_REPORT_GRACE_SECONDS} s: the process's
 * watchdog did not report) the driver takes a thread dump with {@code jcmd} and
 * fails the round. So a stuck process is never killed away as if it were busy. The driver's own
 * verifications and repairs are watched by a watchdog of its own.
 *
 * <p>Any output of a stress or repair process that reports a lock-order violation fails the
 * round, whatever its exit status.
 *
 * <p>The first rounds take each enabled kind of kill in turn; later rounds pick at random. Every
 * random choice of the driver derives from the seed; the stress threads' interleaving does not.
 * The options are drawn from a generator of their own, so a run with the options of a round
 * pinned by flags makes the same kill choices as the run it repeats.
 *
 * <p>Thread safety: one run at a time, on the calling thread. Lifetime: {@link #run} once.
 */
final class Driver {
    private static final long REPAIR_TIMEOUT_SECONDS = 300;
    private static final double ARMED_TIMEOUT_FACTOR = 3;
    private static final long POLL_MILLIS = 100;
    /** A kill waits while the stress process has completed nothing for this long. */
    private static final double QUIET_SECONDS = 1;
    /**
     * How long past the stall timeout the stress process's watchdog has to report a stall: half
     * the timeout, within these bounds.
     */
    private static final double MIN_REPORT_GRACE_SECONDS = 2;
    private static final double MAX_REPORT_GRACE_SECONDS = 5;
    /** The longest a verification or repair in the driver may go on. */
    private static final double DRIVER_STEP_SECONDS = 300;
    private static final String LOCK_ORDER = "lock order violation";
    private static final int EXCERPT_LINES = 80;

    private final Config config;
    private final PrintStream out;
    private final SplittableRandom random;
    private final SplittableRandom roundSeeds;
    private final Summary summary = new Summary();
    private Path work;
    private Path dbDir;
    private long repairEstimate = 60;
    /** The options of the round under way; null before the first. Read by the watchdog's thread. */
    private volatile Config round;
    /** What the driver itself is doing, for the report of its watchdog. */
    private volatile String step = "starting";

    Driver(Config config, PrintStream out) {
        this.config = config;
        this.out = out;
        this.random = new SplittableRandom(config.seed);
        this.roundSeeds = new SplittableRandom(config.seed ^ 0x6F7074696F6E73L);
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
        try (Watchdog watchdog = new Watchdog(null, this::driverHung)) {
            watchdog.start();
            if (hasLogs()) {
                verify("resumed", config, watchdog);
            }
            while (summary.ok() && System.nanoTime() < deadline) {
                summary.rounds++;
                KillPoint kind = summary.rounds <= points.size()
                        ? points.get(summary.rounds - 1)
                        : points.get(random.nextInt(points.size()));
                round(kind, (deadline - System.nanoTime()) / 1e9, watchdog);
            }
        }
        summary.seconds = (System.nanoTime() - start) / 1e9;
        if (summary.ok() && temporary) {
            deleteRecursively(work);
        } else if (!summary.ok()) {
            summary.failure += where();
        }
        return summary;
    }

    private void round(KillPoint kind, double remaining, Watchdog watchdog) throws IOException, InterruptedException {
        Config r = OptionSpace.draw(config, roundSeeds.nextLong());
        round = r;
        out.println("round " + summary.rounds + " options: " + String.join(" ", r.roundFlags()));
        long childSeed = random.nextLong();
        double runFor = Math.min(config.killMin + random.nextDouble() * (config.killMax - config.killMin),
                Math.max(remaining, config.killMin));
        KillPoint arm = kind == KillPoint.RANDOM || kind == KillPoint.REPAIR ? null : kind;
        long armAfter = arm == null ? 0 : 1 + random.nextLong(arm == KillPoint.MANIFEST ? 24 : 400);
        double timeout = arm == null ? runFor : ARMED_TIMEOUT_FACTOR * config.killMax;
        Path output = work.resolve("stress.out");
        double armDelay = random.nextDouble() * config.killMax / 2;
        Files.deleteIfExists(work.resolve(Heartbeat.FILE));
        Process p = start(StressMain.class, r.childArgs(work, childSeed), arm, armAfter, armDelay, output);
        long started = System.nanoTime();
        String name = "round " + summary.rounds + " (" + name(kind) + ")";
        String how;
        switch (await(p, timeout)) {
            case EXITED: {
                int status = p.exitValue();
                Watchdog.Hang hang = Watchdog.Hang.ofStatus(status);
                if (hang != null) {
                    fail(name + ": the stress process's watchdog found a " + hang.name().toLowerCase(Locale.ROOT)
                            + " (exit status " + status + "):\n" + excerpt(output));
                    return;
                }
                if (status != KillPointEnv.HALT_STATUS) {
                    fail(name + ": the stress process exited with status " + status + "\n" + excerpt(output));
                    return;
                }
                summary.kills.merge(kind, 1, Integer::sum);
                how = haltLine(output);
                break;
            }
            case HUNG: {
                String dump = threadDump(p);
                p.destroyForcibly();
                p.waitFor();
                fail(name + String.format(Locale.ROOT, ": the stress process completed no operation for %.1f s and its"
                        + " watchdog did not report it; thread dump (jcmd Thread.print -l):%n", hungAfter()) + dump
                        + "\n  its output:\n" + excerpt(output));
                return;
            }
            default: {
                p.destroyForcibly();
                p.waitFor();
                double ran = (System.nanoTime() - started) / 1e9;
                summary.kills.merge(KillPoint.RANDOM, 1, Integer::sum);
                how = arm == null ? String.format(Locale.ROOT, "killed after %.1f s", ran)
                        : "killed: " + name(arm) + " point not reached in " + (long) ran + " s";
                if (ran > timeout + 2 * QUIET_SECONDS) {
                    how += String.format(Locale.ROOT, " (held back %.1f s for want of progress)", ran - timeout);
                }
                break;
            }
        }
        p.getOutputStream().close();
        if (reportsLockOrderViolation(output)) {
            fail(name + ": the stress process reported a " + LOCK_ORDER + ":\n" + excerpt(output));
            return;
        }
        if (kind == KillPoint.REPAIR) {
            how += "; " + repair(childSeed, r, watchdog);
            if (!summary.ok()) {
                return;
            }
        }
        verify(how, r, watchdog);
    }

    /** How waiting for a stress process ended. */
    private enum Ending {
        /** It exited by itself (a halt at a kill point, a failure, its watchdog). */
        EXITED,
        /** Its time is up and it is making progress: kill it. */
        KILL,
        /** It completed nothing for the stall timeout and more, and did not report it. */
        HUNG
    }

    /**
     * Waits until the process exits or its time is up; a kill that is due waits while the
     * heartbeat shows no progress, until progress resumes or the process counts as hung.
     */
    private Ending await(Process p, double seconds) throws IOException, InterruptedException {
        Path heartbeat = work.resolve(Heartbeat.FILE);
        double quiet = Math.min(QUIET_SECONDS, config.stallTimeout / 2);
        double hung = hungAfter();
        long start = System.nanoTime();
        long count = Long.MIN_VALUE;
        long changed = start;
        while (!p.waitFor(POLL_MILLIS, TimeUnit.MILLISECONDS)) {
            long now = System.nanoTime();
            long c = Heartbeat.read(heartbeat);
            if (c != count) {
                count = c;
                changed = now;
            }
            double still = (now - changed) / 1e9;
            if (still >= hung) {
                return Ending.HUNG;
            }
            if ((now - start) / 1e9 >= seconds && still < quiet) {
                return Ending.KILL;
            }
        }
        return Ending.EXITED;
    }

    /** How long without progress makes a stress process hung in the driver's eyes. */
    private double hungAfter() {
        double grace = Math.max(MIN_REPORT_GRACE_SECONDS, Math.min(MAX_REPORT_GRACE_SECONDS, config.stallTimeout / 2));
        return config.stallTimeout + grace;
    }

    /** Runs a repair that halts at a random file change, then finishes it in this process. */
    private String repair(long childSeed, Config r, Watchdog watchdog) throws IOException, InterruptedException {
        long after = 1 + random.nextLong(repairEstimate);
        Path output = work.resolve("repair.out");
        Process p = start(RepairMain.class, r.childArgs(work, childSeed), KillPoint.REPAIR, after, 0, output);
        String name = "round " + summary.rounds + " (repair)";
        if (!p.waitFor(REPAIR_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            String dump = threadDump(p);
            p.destroyForcibly();
            p.waitFor();
            fail(name + ": the repair did not finish in " + REPAIR_TIMEOUT_SECONDS + " s; thread dump (jcmd"
                    + " Thread.print -l):\n" + dump);
            return "";
        }
        p.getOutputStream().close();
        if (reportsLockOrderViolation(output)) {
            fail(name + ": the repair process reported a " + LOCK_ORDER + ":\n" + excerpt(output));
            return "";
        }
        String how;
        if (p.exitValue() == KillPointEnv.HALT_STATUS) {
            summary.kills.merge(KillPoint.REPAIR, 1, Integer::sum);
            how = haltLine(output);
        } else if (p.exitValue() == 0) {
            String text = read(output);
            int at = text.lastIndexOf("repair file changes: ");
            long seen = at < 0 ? repairEstimate : Long.parseLong(text.substring(at + 21).trim().split("\\s")[0]);
            repairEstimate = Math.max(2, seen);
            how = "repair ran to its end (" + seen + " file change events) before event " + after;
        } else {
            fail(name + ": the repair process exited with status " + p.exitValue() + "\n" + excerpt(output));
            return "";
        }
        step = "repairing again after the kill in round " + summary.rounds;
        watchdog.expectProgressWithin(DRIVER_STEP_SECONDS);
        try {
            LevelDbFactory.factory.repair(dbDir.toFile(), r.options(null));
        } catch (Throwable e) {
            fail(name + ": repairing again after the kill failed: " + e);
            return "";
        } finally {
            watchdog.expectProgressWithin(0);
        }
        return how + ", repaired again";
    }

    /** Reopens the database, verifies it and carries what was recovered into the next round. */
    private void verify(String how, Config r, Watchdog watchdog) throws IOException {
        ExpectedState base = ExpectedState.load(work, config.threads, config.keysPerThread);
        List<List<Op>> logs = new ArrayList<>();
        for (int t = 0; t < config.threads; t++) {
            logs.add(OpLog.read(OpLog.file(work, t)));
        }
        Verification v;
        step = "verifying round " + summary.rounds;
        watchdog.expectProgressWithin(DRIVER_STEP_SECONDS);
        try (DB db = LevelDbFactory.factory.open(dbDir.toFile(), r.options(null).paranoidChecks(true))) {
            v = Verifier.verify(db, base, logs, config.requireUnsynced);
        } catch (Throwable e) {
            fail("round " + summary.rounds + " (" + how + "): reopening with paranoid checks failed: " + e);
            return;
        } finally {
            watchdog.expectProgressWithin(0);
        }
        summary.add(v);
        Checkpoints.Result checkpoints = Checkpoints.verifyAll(work, r.options(null));
        Checkpoints.Result backups = Backups.verifyAll(work, r.options(null));
        v.failures().addAll(checkpoints.failures());
        v.failures().addAll(backups.failures());
        boolean copiesOk = checkpoints.failures().isEmpty() && backups.failures().isEmpty();
        out.printf(Locale.ROOT, "round %d: %s; %,d ops acknowledged (%,d synced, %,d without the log)%s%s: %s%n",
                summary.rounds, how, v.acknowledged, v.acknowledgedSynced, v.acknowledgedUnlogged,
                checkpoints.checked() > 0 ? ", " + checkpoints.checked() + " checkpoint(s) left by the kill" : "",
                backups.checked() > 0 ? ", " + backups.checked() + " backup(s) restored" : "",
                v.ok() && copiesOk ? "verified" : "FAILED");
        if (!v.ok() || !copiesOk) {
            fail("round " + summary.rounds + " (" + how + "):\n  " + String.join("\n  ", v.failures()));
            return;
        }
        v.recovered().save(work);
        for (int t = 0; t < config.threads; t++) {
            Files.deleteIfExists(OpLog.file(work, t));
        }
    }

    /** The driver's own watchdog found its verification or repair stuck: report, and end the run. */
    private void driverHung(Watchdog.Hang hang, String report) {
        out.println("crashtest: FAILED in round " + summary.rounds + ": the driver found a "
                + hang.name().toLowerCase(Locale.ROOT) + " while " + step + ":\n" + report + where());
        out.flush();
        Runtime.getRuntime().halt(1);
    }

    /** The seed, the kept directory and how to run the failing round's options again. */
    private String where() {
        String s = "\n  seed " + config.seed + ", directory " + work + " (kept)";
        Config r = round;
        if (r != null) {
            s += "\n  to run with the options of this round in every round:\n  " + r.commandLine();
        }
        return s;
    }

    private Process start(Class<?> main, List<String> args, KillPoint arm, long armAfter, double armDelay,
                          Path output) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx256m");
        // Snappy's and Zstd's native libraries are unpacked into the temporary directory and
        // removed at a normal exit only; a killed child leaves them, so they go into the work
        // directory, which the driver removes.
        Path tmp = Files.createDirectories(work.resolve("tmp"));
        command.add("-Djava.io.tmpdir=" + tmp);
        if (Runtime.version().feature() >= 22) {
            command.add("--enable-native-access=ALL-UNNAMED");
        }
        // The engine's lock-order checker; a leveldbj.* property of the driver's JVM overrides it.
        command.add("-Dleveldbj.lockOrderCheck=true");
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

    /** The threads of a process as {@code jcmd PID Thread.print -l} shows them (JDKs have jcmd). */
    private String threadDump(Process p) throws IOException, InterruptedException {
        Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        if (!Files.isExecutable(jcmd)) {
            return "  (no thread dump: " + jcmd + " is missing)";
        }
        Path dump = work.resolve("jcmd.out");
        Process d = new ProcessBuilder(jcmd.toString(), Long.toString(p.pid()), "Thread.print", "-l")
                .redirectErrorStream(true).redirectOutput(dump.toFile()).start();
        if (!d.waitFor(30, TimeUnit.SECONDS)) {
            d.destroyForcibly();
            d.waitFor();
            return "  (no thread dump: jcmd did not answer in 30 s)";
        }
        return "  " + read(dump).strip().replace("\n", "\n  ");
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

    private static boolean reportsLockOrderViolation(Path output) throws IOException {
        return read(output).toLowerCase(Locale.ROOT).contains(LOCK_ORDER);
    }

    private static String haltLine(Path output) throws IOException {
        String text = read(output);
        int at = text.lastIndexOf("crashtest: halting in ");
        return at < 0 ? "halted" : "halted " + text.substring(at + 22).split("\n")[0].trim();
    }

    /**
     * What a failed process printed that tells why: its watchdog's report whole; else from the
     * first line that reports a failure or a lock-order violation on; else its last lines.
     */
    static String excerpt(Path output) throws IOException {
        List<String> lines = read(output).lines().toList();
        int from = -1;
        int to = lines.size();
        for (int i = 0; i < lines.size() && from < 0; i++) {
            if (lines.get(i).startsWith(Watchdog.REPORT_START)) {
                from = i;
                for (int j = i; j < lines.size(); j++) {
                    if (lines.get(j).equals(Watchdog.REPORT_END)) {
                        to = j + 1;
                        break;
                    }
                }
            }
        }
        for (int i = 0; i < lines.size() && from < 0; i++) {
            String line = lines.get(i);
            if (line.contains(" FAILED") || line.toLowerCase(Locale.ROOT).contains(LOCK_ORDER)) {
                from = i;
                to = Math.min(lines.size(), i + EXCERPT_LINES);
            }
        }
        if (from < 0) {
            from = Math.max(0, lines.size() - 30);
        }
        return "  " + String.join("\n  ", lines.subList(from, to));
    }

    private static String read(Path output) throws IOException {
        return new String(Files.readAllBytes(output), StandardCharsets.UTF_8);
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
