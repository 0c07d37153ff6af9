package org.leveldbj.stress;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.iq80.leveldb.CompressionType;
import org.iq80.leveldb.FilterPolicy;
import org.iq80.leveldb.Options;

/**
 * The flags of {@code bin/crashtest}, shared by the driver and the stress process it starts
 * (which gets the same workload and options flags plus a few of its own). Flags are
 * {@code --name=value}; {@link #USAGE} lists them.
 *
 * <p>Three kinds: <b>run</b> flags hold for the whole run (duration, threads, keys, kills);
 * <b>round</b> flags are the database options and the workload mix, which {@link OptionSpace}
 * draws anew for every round unless the flag was given (a given flag pins its dimension);
 * <b>child</b> flags are what the driver adds for one stress or repair process.
 *
 * <p>Thread safety: not thread-safe; filled once by {@link #parse} (or {@link #copy} and
 * {@link OptionSpace}), then only read.
 */
final class Config implements Cloneable {
    static final String USAGE = String.join("\n",
            "usage: bin/crashtest [--flag=value ...]",
            "Run flags:",
            "  --duration=SECONDS        total running time (300)",
            "  --threads=N               stress threads, each owning its own keys (4)",
            "  --keys-per-thread=N       keys each thread writes (1000)",
            "  --kill-interval=MIN-MAX   seconds a stress process runs before a random kill (1-6)",
            "  --kill-points=LIST        kinds of kill, any of random,flush,compaction,manifest,repair (all)",
            "  --require-unsynced=BOOL   acknowledged unsynced writes must survive, as they do when only",
            "                            the process dies (true); false checks only synced ones",
            "  --stall-timeout=SECONDS   a round fails, with a thread dump, when no operation of its",
            "                            stress process completes for this long (10)",
            "  --db=DIR                  working directory (database in DIR/db); default a temporary",
            "                            directory, deleted on success and kept on failure",
            "  --seed=N                  seed of every random choice (default: from the clock)",
            "Round flags: each round draws these (doc/crashtest.md lists the choices); a flag given",
            "pins its dimension for every round:",
            "  --value-threshold=BYTES   Options.valueThreshold, 0 for no value files (0, 1024, 65536)",
            "  --max-file-size=BYTES     Options.maxFileSize; value files are 32 times as large (128 to 2 MiB)",
            "  --write-buffer-size=BYTES Options.writeBufferSize (64 KiB to 4 MiB)",
            "  --block-size=BYTES        Options.blockSize (256 to 64 KiB)",
            "  --block-restart-interval=N Options.blockRestartInterval (1 to 64)",
            "  --compression=NAME        none, snappy or zstd",
            "  --bloom-bits=N            bloom filter bits per key, 0 for none (0, 10, 16)",
            "  --value-garbage-ratio=R   Options.valueGarbageRatio (0.1 to 1)",
            "  --paranoid-checks=BOOL    Options.paranoidChecks of the stress process; verification",
            "                            always opens with paranoid checks",
            "  --value-size=MIN-MAX      value sizes in bytes, at least 20",
            "  --large-value-size=BYTES  size of the other values",
            "  --large-value-percent=P   percentage of values of the large size",
            "  --sync-percent=P          percentage of writes made with sync (0 to 20)",
            "  --disable-wal-percent=P   percentage of the writes without sync made with",
            "                            WriteOptions.disableWal (0, 5, 50, 100)",
            "  --compaction-filter=BOOL  compactions run the crash test's filter, which removes or",
            "                            shortens the values of some operations (false, true)",
            "  --prefix-extractor=NAME   Options.prefixExtractor: none, delimiter (a key up to its",
            "                            '/': a thread's range) or fixed (a key but its last digit:",
            "                            ten keys); prefix scans run in every round either way");

    /** What a flag is: see the class description. */
    enum Kind {
        RUN, ROUND, CHILD
    }

    /** One flag: its name, kind, how it is read and how it is written back. */
    private record Flag(String name, Kind kind, BiConsumer<Config, String> parse, Function<Config, String> format) {
    }

    private static final List<Flag> FLAGS = List.of(
            new Flag("duration", Kind.RUN, (c, v) -> c.duration = Double.parseDouble(v), c -> number(c.duration)),
            new Flag("threads", Kind.RUN, (c, v) -> c.threads = Integer.parseInt(v), c -> "" + c.threads),
            new Flag("keys-per-thread", Kind.RUN, (c, v) -> c.keysPerThread = Integer.parseInt(v),
                    c -> "" + c.keysPerThread),
            new Flag("kill-interval", Kind.RUN, (c, v) -> {
                double[] r = range(v);
                c.killMin = r[0];
                c.killMax = r[1];
            }, c -> number(c.killMin) + "-" + number(c.killMax)),
            new Flag("kill-points", Kind.RUN, (c, v) -> {
                c.killPoints = EnumSet.noneOf(KillPoint.class);
                for (String name : v.split(",")) {
                    c.killPoints.add(KillPoint.valueOf(name.trim().toUpperCase(Locale.ROOT)));
                }
            }, c -> c.killPoints.stream().map(p -> p.name().toLowerCase(Locale.ROOT)).collect(Collectors.joining(","))),
            new Flag("require-unsynced", Kind.RUN, (c, v) -> c.requireUnsynced = bool(v), c -> "" + c.requireUnsynced),
            new Flag("stall-timeout", Kind.RUN, (c, v) -> c.stallTimeout = Double.parseDouble(v),
                    c -> number(c.stallTimeout)),
            new Flag("db", Kind.RUN, (c, v) -> c.db = Path.of(v), c -> String.valueOf(c.db)),
            new Flag("seed", Kind.RUN, (c, v) -> c.seed = Long.parseLong(v), c -> "" + c.seed),

            new Flag("value-threshold", Kind.ROUND, (c, v) -> c.valueThreshold = Integer.parseInt(v),
                    c -> "" + c.valueThreshold),
            new Flag("max-file-size", Kind.ROUND, (c, v) -> c.maxFileSize = Long.parseLong(v), c -> "" + c.maxFileSize),
            new Flag("write-buffer-size", Kind.ROUND, (c, v) -> c.writeBufferSize = Integer.parseInt(v),
                    c -> "" + c.writeBufferSize),
            new Flag("block-size", Kind.ROUND, (c, v) -> c.blockSize = Integer.parseInt(v), c -> "" + c.blockSize),
            new Flag("block-restart-interval", Kind.ROUND, (c, v) -> c.blockRestartInterval = Integer.parseInt(v),
                    c -> "" + c.blockRestartInterval),
            new Flag("compression", Kind.ROUND,
                    (c, v) -> c.compression = CompressionType.valueOf(v.toUpperCase(Locale.ROOT)),
                    c -> c.compression.name().toLowerCase(Locale.ROOT)),
            new Flag("bloom-bits", Kind.ROUND, (c, v) -> c.bloomBits = Integer.parseInt(v), c -> "" + c.bloomBits),
            new Flag("value-garbage-ratio", Kind.ROUND, (c, v) -> c.valueGarbageRatio = Double.parseDouble(v),
                    c -> number(c.valueGarbageRatio)),
            new Flag("paranoid-checks", Kind.ROUND, (c, v) -> c.paranoidChecks = bool(v), c -> "" + c.paranoidChecks),
            new Flag("value-size", Kind.ROUND, (c, v) -> {
                double[] r = range(v);
                c.valueMin = (int) r[0];
                c.valueMax = (int) r[1];
            }, c -> c.valueMin + "-" + c.valueMax),
            new Flag("large-value-size", Kind.ROUND, (c, v) -> c.largeValueSize = Integer.parseInt(v),
                    c -> "" + c.largeValueSize),
            new Flag("large-value-percent", Kind.ROUND, (c, v) -> c.largeValuePercent = Double.parseDouble(v),
                    c -> number(c.largeValuePercent)),
            new Flag("sync-percent", Kind.ROUND, (c, v) -> c.syncPercent = Double.parseDouble(v),
                    c -> number(c.syncPercent)),
            new Flag("disable-wal-percent", Kind.ROUND, (c, v) -> c.disableWalPercent = Double.parseDouble(v),
                    c -> number(c.disableWalPercent)),

            new Flag("compaction-filter", Kind.ROUND, (c, v) -> c.compactionFilter = bool(v),
                    c -> "" + c.compactionFilter),
            new Flag("prefix-extractor", Kind.ROUND, (c, v) -> c.prefixExtractor = PrefixChoice.parse(v),
                    c -> c.prefixExtractor.flag()),

            new Flag("arm", Kind.CHILD, (c, v) -> c.arm = KillPoint.valueOf(v.toUpperCase(Locale.ROOT)),
                    c -> c.arm == null ? "" : c.arm.name().toLowerCase(Locale.ROOT)),
            new Flag("arm-after", Kind.CHILD, (c, v) -> c.armAfter = Long.parseLong(v), c -> "" + c.armAfter),
            new Flag("arm-delay", Kind.CHILD, (c, v) -> c.armDelay = Double.parseDouble(v), c -> number(c.armDelay)),
            new Flag("inject", Kind.CHILD, (c, v) -> c.inject = Injection.valueOf(v.toUpperCase(Locale.ROOT)),
                    c -> c.inject.name().toLowerCase(Locale.ROOT)));

    // Run flags.
    double duration = 300;
    int threads = 4;
    int keysPerThread = 1000;
    double killMin = 1;
    double killMax = 6;
    Set<KillPoint> killPoints = EnumSet.allOf(KillPoint.class);
    boolean requireUnsynced = true;
    double stallTimeout = 10;
    Path db;
    long seed = System.nanoTime() ^ System.currentTimeMillis() * 0x9E3779B97F4A7C15L;

    // Round flags: these defaults hold only where nothing draws them (a resumed run's first
    // verification, and tests that build a Config by hand).
    int valueThreshold = 4096;
    long maxFileSize = 256 * 1024;
    int writeBufferSize = 64 * 1024;
    int blockSize = 4096;
    int blockRestartInterval = 16;
    CompressionType compression = CompressionType.SNAPPY;
    int bloomBits = 10;
    double valueGarbageRatio = 0.25;
    boolean paranoidChecks;
    int valueMin = 20;
    int valueMax = 1000;
    int largeValueSize = 100 * 1024;
    double largeValuePercent = 1;
    double syncPercent = 5;
    double disableWalPercent;
    boolean compactionFilter;
    PrefixChoice prefixExtractor = PrefixChoice.NONE;

    // Given by the driver to one stress or repair process only.
    KillPoint arm;
    long armAfter;
    double armDelay;
    /** A fault a stress process injects into itself, for the tests of the watchdog and the driver. */
    Injection inject = Injection.NONE;

    /** The flags given on the command line, by name. */
    private Set<String> given = new HashSet<>();

    /** Faults a stress process can inject into itself (tests of the crash test's own checks). */
    enum Injection {
        NONE,
        /** Two threads take two locks in opposite orders and wait for each other. */
        DEADLOCK,
        /** Every stress thread stops; the watchdog reports that nothing completes. */
        STALL,
        /** Every stress thread stops and the process's watchdog stays silent: the driver must notice. */
        SILENT_STALL,
        /** A stress thread throws an {@link Error}, as a lock-order checker does. */
        ERROR,
        /** The process prints a lock-order violation on standard error and carries on. */
        LOCK_ORDER_MESSAGE
    }

    /**
     * Parses flags.
     *
     * @throws IllegalArgumentException naming the flag when one is unknown or malformed
     */
    static Config parse(String... args) {
        Config c = new Config();
        for (String arg : args) {
            int eq = arg.indexOf('=');
            Flag flag = arg.startsWith("--") && eq > 2 ? find(arg.substring(2, eq)) : null;
            if (flag == null) {
                throw new IllegalArgumentException("unknown flag " + arg + "\n" + USAGE);
            }
            try {
                flag.parse().accept(c, arg.substring(eq + 1));
            } catch (RuntimeException e) {
                throw new IllegalArgumentException("bad value in " + arg + ": " + e.getMessage(), e);
            }
            c.given.add(flag.name());
        }
        c.check();
        return c;
    }

    private static Flag find(String name) {
        for (Flag f : FLAGS) {
            if (f.name().equals(name)) {
                return f;
            }
        }
        return null;
    }

    /** Whether the flag of this name was given on the command line. */
    boolean given(String name) {
        assert find(name) != null : name;
        return given.contains(name);
    }

    /** The names of the round flags, in the order they are printed. */
    static List<String> roundFlagNames() {
        return FLAGS.stream().filter(f -> f.kind() == Kind.ROUND).map(Flag::name).toList();
    }

    /** A copy to change (the set of given flags is copied too). */
    Config copy() {
        try {
            Config c = (Config) super.clone();
            c.killPoints = EnumSet.copyOf(killPoints);
            c.given = new HashSet<>(given);
            return c;
        } catch (CloneNotSupportedException e) {
            throw new AssertionError(e);
        }
    }

    private void check() {
        if (threads < 1 || threads > 999 || keysPerThread < 1 || keysPerThread > 99_999_999) {
            throw new IllegalArgumentException("need 1 to 999 threads and 1 to 99999999 keys per thread");
        }
        if (valueMin < Values.HEADER || valueMax < valueMin || largeValueSize < Values.HEADER) {
            throw new IllegalArgumentException("value sizes must be at least " + Values.HEADER + " and MIN <= MAX");
        }
        if (killMin <= 0 || killMax < killMin || duration <= 0 || killPoints.isEmpty()) {
            throw new IllegalArgumentException("need a positive duration, 0 < MIN <= MAX kill interval and a kill point");
        }
        if (stallTimeout <= 0) {
            throw new IllegalArgumentException("the stall timeout must be positive");
        }
        for (double percent : new double[] {largeValuePercent, syncPercent, disableWalPercent}) {
            if (!(percent >= 0 && percent <= 100)) {
                throw new IllegalArgumentException("percentages must be within 0 to 100");
            }
        }
        // The engine's own checks of the options, so that a bad pinned value fails here and not
        // in a child.
        options(null);
    }

    /** The round flags, {@code --name=value} each: the options line of a round. */
    List<String> roundFlags() {
        return format(Kind.ROUND);
    }

    /**
     * The flags that give a stress or repair process the same workload and options (the driver
     * adds the arming flags).
     */
    List<String> childArgs(Path dir, long childSeed) {
        List<String> a = new ArrayList<>(List.of("--db=" + dir, "--seed=" + childSeed, "--threads=" + threads,
                "--keys-per-thread=" + keysPerThread, "--stall-timeout=" + number(stallTimeout)));
        a.addAll(roundFlags());
        if (inject != Injection.NONE) {
            a.add("--inject=" + inject.name().toLowerCase(Locale.ROOT));
        }
        return a;
    }

    /**
     * A command that runs the crash test again with these round options pinned for every round:
     * the run flags (without {@code --db}), the seed, and every round flag.
     */
    String commandLine() {
        List<String> a = new ArrayList<>(List.of("bin/crashtest"));
        for (Flag f : FLAGS) {
            if (f.kind() == Kind.RUN && !f.name().equals("db")) {
                a.add("--" + f.name() + "=" + f.format().apply(this));
            }
        }
        a.addAll(roundFlags());
        return String.join(" ", a);
    }

    private List<String> format(Kind kind) {
        List<String> a = new ArrayList<>();
        for (Flag f : FLAGS) {
            if (f.kind() == kind) {
                a.add("--" + f.name() + "=" + f.format().apply(this));
            }
        }
        return a;
    }

    /** The database options these flags give, on the given environment. */
    Options options(org.iq80.leveldb.Env env) {
        Options o = new Options().createIfMissing(true).writeBufferSize(writeBufferSize).maxFileSize(maxFileSize)
                .blockSize(blockSize).blockRestartInterval(blockRestartInterval).compressionType(compression)
                .paranoidChecks(paranoidChecks).valueThreshold(valueThreshold).valueGarbageRatio(valueGarbageRatio);
        if (bloomBits > 0) {
            o.filterPolicy(FilterPolicy.bloom(bloomBits));
        }
        if (compactionFilter) {
            o.compactionFilter(new StressCompactionFilter());
        }
        o.prefixExtractor(prefixExtractor.extractor());
        if (env != null) {
            o.env(env);
        }
        return o;
    }

    /** A number as a flag value: without a fraction when it has none. */
    private static String number(double x) {
        return x == Math.rint(x) && Math.abs(x) < 1e15 ? Long.toString((long) x) : Double.toString(x);
    }

    private static double[] range(String v) {
        int dash = v.indexOf('-', 1);
        if (dash < 0) {
            double x = Double.parseDouble(v);
            return new double[] {x, x};
        }
        return new double[] {Double.parseDouble(v.substring(0, dash)), Double.parseDouble(v.substring(dash + 1))};
    }

    private static boolean bool(String v) {
        if (!v.equals("true") && !v.equals("false")) {
            throw new IllegalArgumentException("expected true or false");
        }
        return Boolean.parseBoolean(v);
    }
}
