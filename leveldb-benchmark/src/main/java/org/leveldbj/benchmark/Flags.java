package org.leveldbj.benchmark;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import org.iq80.leveldb.CompressionType;
import org.iq80.leveldb.Options;

/**
 * The runner's settings, spelled and defaulted as db_bench's flags ({@code --name=value}).
 * Integer flags take decimal values; boolean flags take 0 or 1.
 */
final class Flags implements Cloneable {
    /** db_bench's default list, without its codec micro-benchmarks (they measure no database). */
    static final List<String> DEFAULT_BENCHMARKS = List.of(
            "fillseq", "fillsync", "fillrandom", "overwrite", "readrandom", "readrandom",
            "readseq", "readreverse", "compact", "readrandom", "readseq", "readreverse",
            "fill100K");

    static final List<String> IMPLS = List.of("leveldbj", "iq80", "leveldbjni", "rocksdb", "h2");

    List<String> benchmarks = DEFAULT_BENCHMARKS;
    int num = 1_000_000;
    int reads = -1;
    int threads = 1;
    int valueSize = 100;
    double compressionRatio = 0.5;
    boolean histogram;
    boolean useExistingDb;
    int writeBufferSize = new Options().writeBufferSize();
    long maxFileSize = new Options().maxFileSize();
    int blockSize = new Options().blockSize();
    long cacheSize = -1;
    int openFiles = new Options().maxOpenFiles();
    int bloomBits = -1;
    boolean verifyChecksums;
    int valueThreshold;
    int largeValuePercent;
    int largeValueSize = 100_000;
    String db;
    CompressionType compression = CompressionType.SNAPPY;
    String impl = "leveldbj";
    int warmup = -1;
    int keySize = Keys.SIZE;
    int readWritePercent = 90;
    int durationSeconds;
    boolean memory;
    int memoryIntervalSeconds;
    boolean scanIntoBuffers;
    int slowOpMicros;

    /** The largest automatic warm-up. */
    static final int MAX_AUTO_WARMUP = 200_000;

    /** The number of reads a read workload performs: {@code --reads}, or {@code --num}. */
    int effectiveReads() {
        return reads < 0 ? num : reads;
    }

    /**
     * The entries of the JIT warm-up run: {@code --warmup}, or when it is -1, a fifth of
     * {@code --num} up to {@link #MAX_AUTO_WARMUP}.
     */
    int effectiveWarmup() {
        return warmup >= 0 ? warmup : Math.min(num / 5, MAX_AUTO_WARMUP);
    }

    /** The smallest write buffer the warm-up shrinks to ({@link #forWarmup}). */
    static final int MIN_WARMUP_WRITE_BUFFER = 64 << 10;

    /** The most times the warm-up repeats fill100K ({@link Workload#warmupRuns}). */
    static final int MAX_WARMUP_REPEATS = 10;

    /**
     * The settings of the warm-up run: the same workloads, preceded by a fillrandom so that
     * read workloads find data even when the measured run reuses a database, on
     * {@link #effectiveWarmup()} entries in a scratch database, without histograms, with the
     * write buffer shrunk as the entries are (at least {@value #MIN_WARMUP_WRITE_BUFFER} bytes),
     * so that the warm-up's data reaches tables as the measured run's does. fill100K,
     * whose thousand times fewer writes each move a 100 KB value, is repeated until the warm-up
     * has made as many of them as the measured run (at most {@value #MAX_WARMUP_REPEATS} times):
     * a fifth of its writes leave the per-block code of flushes and compactions uncompiled (alone,
     * it measured 1.4 times C++ LevelDB's time after such a warm-up and 1.0 after five). The
     * scans run {@value Workload#SCAN_WARMUP_RUNS} times (see {@link Workload#warmupRuns}).
     */
    Flags forWarmup(String scratchDb) {
        Flags w;
        try {
            w = (Flags) clone(); // every setting, so a new flag cannot be forgotten here
        } catch (CloneNotSupportedException e) {
            throw new AssertionError(e);
        }
        List<String> names = new ArrayList<>();
        names.add("fillrandom");
        int entries = effectiveWarmup();
        int repeats = entries <= 0 ? 1 : Math.min(MAX_WARMUP_REPEATS, Math.max(1, (num + entries - 1) / entries));
        for (String name : benchmarks) {
            int runs = Workload.isKnown(name) ? Workload.named(name).warmupRuns(repeats) : 1;
            for (int i = runs; i > 0; i--) {
                names.add(name);
            }
        }
        w.benchmarks = Collections.unmodifiableList(names);
        w.num = entries;
        if (entries > 0 && entries < num) {
            // A fifth of the entries in the whole write buffer would stay in the memtable, and
            // the warm-up would compile the reads for memtable entries only: the measured reads
            // of tables then deoptimized the scan's compiled code (class checks on the key's
            // buffer) and ran a scan of one value in ten separated at twice its time.
            w.writeBufferSize = (int) Math.max(MIN_WARMUP_WRITE_BUFFER, (long) writeBufferSize * entries / num);
        }
        w.reads = reads < 0 ? -1 : Math.min(reads, w.num);
        w.histogram = false;
        w.memory = false;
        w.slowOpMicros = 0;
        w.useExistingDb = false;
        w.db = scratchDb;
        w.warmup = 0;
        return w;
    }

    static Flags parse(String... args) throws FlagException {
        Flags flags = new Flags();
        for (String arg : args) {
            flags.apply(arg);
        }
        flags.validate();
        return flags;
    }

    private void apply(String arg) throws FlagException {
        int eq = arg.indexOf('=');
        if (!arg.startsWith("--") || eq < 0) {
            throw new FlagException("Invalid flag '" + arg + "' (flags are --name=value)");
        }
        String name = arg.substring(2, eq);
        String value = arg.substring(eq + 1);
        switch (name) {
            case "benchmarks":
                benchmarks = splitBenchmarks(value);
                break;
            case "num":
                num = intValue(arg, value, 0);
                break;
            case "reads":
                reads = intValue(arg, value, Integer.MIN_VALUE);
                break;
            case "threads":
                threads = intValue(arg, value, 1);
                break;
            case "value_size":
                valueSize = intValue(arg, value, 0);
                break;
            case "compression_ratio":
                compressionRatio = doubleValue(arg, value);
                break;
            case "histogram":
                histogram = boolValue(arg, value);
                break;
            case "use_existing_db":
                useExistingDb = boolValue(arg, value);
                break;
            case "write_buffer_size":
                writeBufferSize = intValue(arg, value, 1);
                break;
            case "max_file_size":
                maxFileSize = intValue(arg, value, 1);
                break;
            case "block_size":
                blockSize = intValue(arg, value, 1);
                break;
            case "cache_size":
                cacheSize = longValue(arg, value);
                break;
            case "open_files":
                openFiles = intValue(arg, value, 1);
                break;
            case "large_value_percent":
                largeValuePercent = intValue(arg, value, 0);
                if (largeValuePercent > 100) {
                    throw new FlagException("Invalid flag '" + arg + "' (a percentage, 0 to 100)");
                }
                break;
            case "large_value_size":
                largeValueSize = intValue(arg, value, 0);
                break;
            case "value_threshold":
                valueThreshold = intValue(arg, value, 0);
                break;
            case "verify_checksums":
                verifyChecksums = boolValue(arg, value);
                break;
            case "bloom_bits":
                bloomBits = intValue(arg, value, Integer.MIN_VALUE);
                break;
            case "db":
                if (value.isEmpty()) {
                    throw new FlagException("Invalid flag '" + arg + "' (empty path)");
                }
                db = value;
                break;
            case "compression":
                compression = compressionValue(arg, value);
                break;
            case "warmup":
                warmup = intValue(arg, value, -1);
                break;
            case "key_size":
                keySize = intValue(arg, value, 1);
                if (keySize > Keys.MAX_SIZE) {
                    throw new FlagException("Invalid flag '" + arg + "' (out of range)");
                }
                break;
            case "readwritepercent":
                readWritePercent = intValue(arg, value, 0);
                if (readWritePercent > 100) {
                    throw new FlagException("Invalid flag '" + arg + "' (a percentage, 0 to 100)");
                }
                break;
            case "duration":
                durationSeconds = intValue(arg, value, 0);
                break;
            case "memory":
                memory = boolValue(arg, value);
                break;
            case "slow_op_micros":
                slowOpMicros = intValue(arg, value, 0);
                break;
            case "scan":
                switch (value) {
                    case "entries" -> scanIntoBuffers = false;
                    case "buffers" -> scanIntoBuffers = true;
                    default -> throw new FlagException("Invalid flag '" + arg + "' (entries or buffers)");
                }
                break;
            case "memory_interval":
                memoryIntervalSeconds = intValue(arg, value, 0);
                break;
            case "impl":
                if (!IMPLS.contains(value)) {
                    throw new FlagException("Invalid flag '" + arg + "' (one of "
                            + String.join(", ", IMPLS) + ")");
                }
                impl = value;
                break;
            default:
                throw new FlagException("Invalid flag '" + arg + "'");
        }
    }

    private void validate() throws FlagException {
        if (bloomBits == 0 || bloomBits < -1) {
            throw new FlagException("Invalid flag '--bloom_bits=" + bloomBits
                    + "' (-1 for none, or at least 1)");
        }
        if (compressionRatio <= 0 || compressionRatio > 1) {
            throw new FlagException("Invalid flag '--compression_ratio=" + compressionRatio
                    + "' (above 0, at most 1)");
        }
        if (!new Keys(keySize).holds(num)) {
            throw new FlagException("Invalid flag '--key_size=" + keySize + "' (--num=" + num
                    + " needs more digits)");
        }
        for (String name : benchmarks) {
            if (!Workload.isKnown(name)) {
                throw new FlagException("unknown benchmark '" + name + "' (known: "
                        + String.join(",", Workload.names()) + ")");
            }
        }
    }

    private static List<String> splitBenchmarks(String value) {
        List<String> names = new ArrayList<>();
        for (String name : value.split(",", -1)) {
            if (!name.isEmpty()) {
                names.add(name);
            }
        }
        return Collections.unmodifiableList(names);
    }

    private static int intValue(String arg, String value, int min) throws FlagException {
        long parsed = longValue(arg, value);
        if (parsed < min || parsed > Integer.MAX_VALUE || parsed < Integer.MIN_VALUE) {
            throw new FlagException("Invalid flag '" + arg + "' (out of range)");
        }
        return (int) parsed;
    }

    private static long longValue(String arg, String value) throws FlagException {
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new FlagException("Invalid flag '" + arg + "' (not an integer)");
        }
    }

    private static double doubleValue(String arg, String value) throws FlagException {
        try {
            double parsed = Double.parseDouble(value);
            if (Double.isNaN(parsed) || Double.isInfinite(parsed)) {
                throw new NumberFormatException(value);
            }
            return parsed;
        } catch (NumberFormatException e) {
            throw new FlagException("Invalid flag '" + arg + "' (not a number)");
        }
    }

    private static boolean boolValue(String arg, String value) throws FlagException {
        switch (value) {
            case "0":
                return false;
            case "1":
                return true;
            default:
                throw new FlagException("Invalid flag '" + arg + "' (0 or 1)");
        }
    }

    private static CompressionType compressionValue(String arg, String value)
            throws FlagException {
        switch (value.toLowerCase(Locale.ROOT)) {
            case "none":
                return CompressionType.NONE;
            case "snappy":
                return CompressionType.SNAPPY;
            case "zstd":
                return CompressionType.ZSTD;
            default:
                throw new FlagException("Invalid flag '" + arg + "' (none, snappy or zstd)");
        }
    }

    /** The flag spelling of a compression type. */
    static String compressionName(CompressionType type) {
        return type.name().toLowerCase(Locale.ROOT);
    }

    @Override
    public String toString() {
        return "Flags" + Arrays.asList(benchmarks, num, reads, threads, valueSize,
                compressionRatio, impl);
    }
}
