package org.leveldbj.benchmark;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Locale;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;

/**
 * The lines printed before the results, all on standard output, laid out as db_bench lays them
 * out: the environment (implementation, date, CPU), the JVM, the sizes of keys and values, the
 * estimated sizes, the options, any warnings, and a legend of the result lines. (db_bench
 * writes its first four lines, the environment, to standard error and the rest to standard
 * output; here the header stays together.)
 */
final class Header {
    static final String RULE = "------------------------------------------------";

    private Header() {
    }

    /** The LevelDB, Date, CPU and CPUCache lines. */
    static void printEnvironment(PrintStream out, Impl impl) {
        out.printf(Locale.ROOT, "LevelDB:    %s%n", impl);
        out.printf(Locale.ROOT, "Date:       %s%n", ZonedDateTime.now().format(
                DateTimeFormatter.ofPattern("EEE MMM d HH:mm:ss yyyy", Locale.ROOT)));
        Path cpuinfo = Paths.get("/proc/cpuinfo");
        if (Files.isReadable(cpuinfo)) {
            int cpus = 0;
            String cpuType = "";
            String cacheSize = "";
            try {
                for (String line : Files.readAllLines(cpuinfo, StandardCharsets.UTF_8)) {
                    int sep = line.indexOf(':');
                    if (sep < 0) {
                        continue;
                    }
                    String key = line.substring(0, sep).trim();
                    String value = line.substring(sep + 1).trim();
                    if (key.equals("model name")) {
                        cpus++;
                        cpuType = value;
                    } else if (key.equals("cache size")) {
                        cacheSize = value;
                    }
                }
                out.printf(Locale.ROOT, "CPU:        %d * %s%n", cpus, cpuType);
                out.printf(Locale.ROOT, "CPUCache:   %s%n", cacheSize);
            } catch (IOException e) {
                // The CPU lines are informative only.
            }
        }
    }

    /** Whether the JVM touched its heap's pages at start-up ({@code -XX:+AlwaysPreTouch}). */
    private static boolean heapPreTouched() {
        try {
            HotSpotDiagnosticMXBean hotspot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
            return hotspot != null && Boolean.parseBoolean(hotspot.getVMOption("AlwaysPreTouch").getValue());
        } catch (IllegalArgumentException e) {
            return false; // not a HotSpot JVM
        }
    }

    /** The whole header, ending with the rule above the result lines. */
    static void print(PrintStream out, Flags flags, Impl impl, List<String> warnings) {
        printEnvironment(out, impl);
        out.printf(Locale.ROOT, "JVM:        %s %s (%s %s)%n",
                System.getProperty("java.vendor"), System.getProperty("java.version"),
                System.getProperty("java.vm.name"), System.getProperty("java.vm.version"));
        out.printf(Locale.ROOT, "Heap:       %d MiB at most%s%n", Runtime.getRuntime().maxMemory() >> 20,
                heapPreTouched() ? ", pages touched at start-up (-XX:+AlwaysPreTouch)" : "");
        out.print(sizes(flags));
        out.printf(Locale.ROOT, "Options:    %s%n", options(flags));
        int warmup = flags.effectiveWarmup();
        out.printf(Locale.ROOT, "Warm-up:    %s%n", warmup == 0 ? "none (cold JVM)"
                : warmup + " entries per workload on a scratch database first (--warmup=0: none)");
        for (String warning : warnings) {
            out.printf(Locale.ROOT, "WARNING: %s%n", warning);
        }
        out.print(LEGEND);
        out.println(RULE);
    }

    /**
     * What the result lines say. The found counts: a read workload draws its keys at random from
     * the {@code --num} keys of the key space, while a random fill makes {@code --num} writes of
     * keys drawn at random too, with repeats, so that it writes about 1 - 1/e of the keys; the
     * reads of the others find nothing. fillrandom followed by overwrite (as in the default
     * workloads) writes about 1 - 1/e^2 of them.
     */
    static final String LEGEND = String.join(System.lineSeparator(),
            "Legend:     micros/op: the time of one operation, averaged over every thread's operations",
            "            MB/s: the bytes of keys and values written or read per second of the workload",
            "            (F of N found): F of a thread's random reads found their key, drawn from the",
            "            N keys of --num; after fillseq all N exist, but fillrandom's N writes draw",
            "            their keys at random too, with repeats, and write about 63% of them (1 - 1/e),",
            "            fillrandom and overwrite together about 86% (1 - 1/e^2)",
            "");

    /** The Keys, Values, Entries, RawSize and FileSize lines. */
    static String sizes(Flags flags) {
        int keySize = flags.keySize;
        StringBuilder s = new StringBuilder();
        s.append(String.format(Locale.ROOT, "Keys:       %d bytes each%n", keySize));
        s.append(String.format(Locale.ROOT,
                "Values:     %d bytes each (%d bytes after compression)%n", flags.valueSize,
                (int) (flags.valueSize * flags.compressionRatio + 0.5)));
        s.append(String.format(Locale.ROOT, "Entries:    %d%n", flags.num));
        s.append(String.format(Locale.ROOT, "RawSize:    %.1f MB (estimated)%n",
                (long) (keySize + flags.valueSize) * flags.num / 1048576.0));
        s.append(String.format(Locale.ROOT, "FileSize:   %.1f MB (estimated)%n",
                (keySize + flags.valueSize * flags.compressionRatio) * flags.num / 1048576.0));
        return s.toString();
    }

    static String options(Flags flags) {
        return String.format(Locale.ROOT,
                "compression=%s write_buffer_size=%d max_file_size=%d block_size=%d"
                        + " cache_size=%s bloom_bits=%s open_files=%d threads=%d verify_checksums=%d"
                        + " key_size=%d readwritepercent=%d%s",
                Flags.compressionName(flags.compression), flags.writeBufferSize,
                flags.maxFileSize, flags.blockSize,
                flags.cacheSize < 0 ? "default" : Long.toString(flags.cacheSize),
                flags.bloomBits < 0 ? "none" : Integer.toString(flags.bloomBits),
                flags.openFiles, flags.threads, flags.verifyChecksums ? 1 : 0,
                flags.keySize, flags.readWritePercent,
                (flags.valueThreshold > 0 ? " value_threshold=" + flags.valueThreshold : "")
                        + (flags.scanIntoBuffers ? " scan=buffers" : ""));
    }
}
