package org.leveldbj.stress;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.iq80.leveldb.CompressionType;
import org.iq80.leveldb.FilterPolicy;
import org.iq80.leveldb.Options;

/**
 * The flags of {@code bin/crashtest}, shared by the driver and the stress process it starts
 * (which gets the same workload and options flags plus a few of its own). Flags are
 * {@code --name=value}; {@link #USAGE} lists them with their defaults.
 *
 * <p>Thread safety: not thread-safe; filled once by {@link #parse}, then only read.
 */
final class Config {
    static final String USAGE = String.join("\n",
            "usage: bin/crashtest [--flag=value ...]",
            "  --duration=SECONDS        total running time (300)",
            "  --threads=N               stress threads, each owning its own keys (4)",
            "  --kill-interval=MIN-MAX   seconds a stress process runs before a random kill (1-6)",
            "  --kill-points=LIST        kinds of kill, any of random,flush,compaction,manifest,repair (all)",
            "  --keys-per-thread=N       keys each thread writes (1000)",
            "  --value-size=MIN-MAX      value sizes in bytes, at least 20 (20-1000)",
            "  --large-value-size=BYTES  size of the occasional large value (102400)",
            "  --large-value-percent=P   percentage of values that are large (1)",
            "  --sync-percent=P          percentage of writes made with sync (5)",
            "  --require-unsynced=BOOL   acknowledged unsynced writes must survive, as they do when only",
            "                            the process dies (true); false checks only synced ones",
            "  --write-buffer-size=BYTES Options.writeBufferSize (65536)",
            "  --max-file-size=BYTES     Options.maxFileSize (262144)",
            "  --block-size=BYTES        Options.blockSize (4096)",
            "  --compression=NAME        none, snappy or zstd (snappy)",
            "  --bloom-bits=N            bloom filter bits per key, 0 for none (10)",
            "  --value-threshold=BYTES   Options.valueThreshold: values this large go to value files,",
            "                            so the large values are separated; 0 for none (4096)",
            "  --paranoid-checks=BOOL    Options.paranoidChecks of the stress process (false);",
            "                            verification always opens with paranoid checks",
            "  --db=DIR                  working directory (database in DIR/db); default a temporary",
            "                            directory, deleted on success and kept on failure",
            "  --seed=N                  seed of every random choice (default: from the clock)");

    double duration = 300;
    int threads = 4;
    double killMin = 1;
    double killMax = 6;
    Set<KillPoint> killPoints = EnumSet.allOf(KillPoint.class);
    int keysPerThread = 1000;
    int valueMin = 20;
    int valueMax = 1000;
    int largeValueSize = 100 * 1024;
    double largeValuePercent = 1;
    double syncPercent = 5;
    boolean requireUnsynced = true;
    int writeBufferSize = 64 * 1024;
    int valueThreshold = 4096;
    long maxFileSize = 256 * 1024;
    int blockSize = 4096;
    CompressionType compression = CompressionType.SNAPPY;
    int bloomBits = 10;
    boolean paranoidChecks;
    Path db;
    long seed = System.nanoTime() ^ System.currentTimeMillis() * 0x9E3779B97F4A7C15L;
    boolean seedGiven;

    // Given by the driver to one stress or repair process only.
    KillPoint arm;
    long armAfter;
    double armDelay;

    /**
     * Parses flags.
     *
     * @throws IllegalArgumentException naming the flag when one is unknown or malformed
     */
    static Config parse(String... args) {
        Config c = new Config();
        Map<String, Consumer<String>> flags = c.flags();
        for (String arg : args) {
            int eq = arg.indexOf('=');
            Consumer<String> setter = arg.startsWith("--") && eq > 2 ? flags.get(arg.substring(2, eq)) : null;
            if (setter == null) {
                throw new IllegalArgumentException("unknown flag " + arg + "\n" + USAGE);
            }
            try {
                setter.accept(arg.substring(eq + 1));
            } catch (RuntimeException e) {
                throw new IllegalArgumentException("bad value in " + arg + ": " + e.getMessage(), e);
            }
        }
        c.check();
        return c;
    }

    private Map<String, Consumer<String>> flags() {
        Map<String, Consumer<String>> f = new LinkedHashMap<>();
        f.put("duration", v -> duration = Double.parseDouble(v));
        f.put("threads", v -> threads = Integer.parseInt(v));
        f.put("kill-interval", v -> {
            double[] r = range(v);
            killMin = r[0];
            killMax = r[1];
        });
        f.put("kill-points", v -> {
            killPoints = EnumSet.noneOf(KillPoint.class);
            for (String name : v.split(",")) {
                killPoints.add(KillPoint.valueOf(name.trim().toUpperCase(Locale.ROOT)));
            }
        });
        f.put("keys-per-thread", v -> keysPerThread = Integer.parseInt(v));
        f.put("value-size", v -> {
            double[] r = range(v);
            valueMin = (int) r[0];
            valueMax = (int) r[1];
        });
        f.put("large-value-size", v -> largeValueSize = Integer.parseInt(v));
        f.put("large-value-percent", v -> largeValuePercent = Double.parseDouble(v));
        f.put("sync-percent", v -> syncPercent = Double.parseDouble(v));
        f.put("require-unsynced", v -> requireUnsynced = bool(v));
        f.put("write-buffer-size", v -> writeBufferSize = Integer.parseInt(v));
        f.put("max-file-size", v -> maxFileSize = Long.parseLong(v));
        f.put("block-size", v -> blockSize = Integer.parseInt(v));
        f.put("compression", v -> compression = CompressionType.valueOf(v.toUpperCase(Locale.ROOT)));
        f.put("bloom-bits", v -> bloomBits = Integer.parseInt(v));
        f.put("value-threshold", v -> valueThreshold = Integer.parseInt(v));
        f.put("paranoid-checks", v -> paranoidChecks = bool(v));
        f.put("db", v -> db = Path.of(v));
        f.put("seed", v -> {
            seed = Long.parseLong(v);
            seedGiven = true;
        });
        f.put("arm", v -> arm = KillPoint.valueOf(v.toUpperCase(Locale.ROOT)));
        f.put("arm-after", v -> armAfter = Long.parseLong(v));
        f.put("arm-delay", v -> armDelay = Double.parseDouble(v));
        return f;
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
    }

    /**
     * The flags that give a stress or repair process the same workload and options (the driver
     * adds the arming flags).
     */
    List<String> childArgs(Path dir, long childSeed) {
        List<String> a = new ArrayList<>(List.of(
                "--db=" + dir, "--seed=" + childSeed, "--threads=" + threads, "--keys-per-thread=" + keysPerThread,
                "--value-size=" + valueMin + "-" + valueMax, "--large-value-size=" + largeValueSize,
                "--large-value-percent=" + largeValuePercent, "--sync-percent=" + syncPercent,
                "--write-buffer-size=" + writeBufferSize, "--max-file-size=" + maxFileSize,
                "--block-size=" + blockSize, "--compression=" + compression.name().toLowerCase(Locale.ROOT),
                "--bloom-bits=" + bloomBits, "--paranoid-checks=" + paranoidChecks,
                "--value-threshold=" + valueThreshold));
        return a;
    }

    /** The database options these flags give, on the given environment. */
    Options options(org.iq80.leveldb.Env env) {
        Options o = new Options().createIfMissing(true).writeBufferSize(writeBufferSize).maxFileSize(maxFileSize)
                .blockSize(blockSize).compressionType(compression).paranoidChecks(paranoidChecks)
                .valueThreshold(valueThreshold);
        if (bloomBits > 0) {
            o.filterPolicy(FilterPolicy.bloom(bloomBits));
        }
        if (env != null) {
            o.env(env);
        }
        return o;
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
