package org.leveldbj.benchmark;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.iq80.leveldb.DB;

/**
 * The memory line of {@code --memory=1} and {@code --memory_interval=S}: where the process's
 * memory is, in MiB, as one line of {@code name=value MB} fields:
 * <ul>
 *   <li>{@code rss}, {@code hwm}: the resident set now and at its peak (VmRSS, VmHWM of
 *       /proc/self/status), what a container's memory limit is held against;
 *   <li>{@code anon}, {@code file}, {@code shmem}: the resident set's anonymous pages (heap,
 *       off-heap buffers, the JVM's own), its file pages (mapped files, which the kernel can drop
 *       and read again) and its shared memory (where ZGC keeps the heap) (RssAnon, RssFile,
 *       RssShmem);
 *   <li>{@code heap}: the Java heap in use;
 *   <li>{@code direct}, {@code mapped}: the JDK's direct and mapped buffer pools in use (off-heap
 *       memtables and copies, mapped table files);
 *   <li>{@code db}: the database's own estimate, the {@code leveldb.approximate-memory-usage}
 *       property (memtables and block cache), when the implementation has it.
 * </ul>
 * The C++ runner prints the fields of /proc/self/status alike, so that the two compare. Fields
 * this system lacks (no /proc) are left out. Stateless; safe from any thread.
 */
final class MemoryReport {
    private static final double MIB = 1024.0 * 1024.0;

    private MemoryReport() {
    }

    /**
     * The memory line.
     *
     * @param prefix what starts it, e.g. {@code "memory: "}
     * @param db the database for the {@code db} field, or {@code null} for none
     * @return the line, without a line break
     */
    static String line(String prefix, DB db) {
        StringBuilder line = new StringBuilder(prefix);
        List<String> status = procStatus();
        field(line, "rss", kib(status, "VmRSS:"));
        field(line, "hwm", kib(status, "VmHWM:"));
        field(line, "anon", kib(status, "RssAnon:"));
        field(line, "file", kib(status, "RssFile:"));
        field(line, "shmem", kib(status, "RssShmem:"));
        field(line, "heap", ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed() / MIB);
        for (BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
            if (pool.getName().equals("direct") || pool.getName().equals("mapped")) {
                field(line, pool.getName(), pool.getMemoryUsed() / MIB);
            }
        }
        if (db != null) {
            String usage = db.getProperty("leveldb.approximate-memory-usage");
            if (usage != null && usage.trim().matches("[0-9]+")) {
                field(line, "db", Long.parseLong(usage.trim()) / MIB);
            }
        }
        return line.toString().stripTrailing();
    }

    /**
     * Starts a daemon thread that prints the memory line to {@code out} every
     * {@code intervalSeconds}, prefixed {@code memory at N s: } (seconds since the JVM started).
     *
     * @param intervalSeconds the interval, positive
     * @param out where the lines go
     */
    static void sampleEvery(int intervalSeconds, PrintStream out) {
        Thread sampler = new Thread(() -> {
            try {
                while (true) {
                    Thread.sleep(intervalSeconds * 1000L);
                    long seconds = ManagementFactory.getRuntimeMXBean().getUptime() / 1000;
                    out.println(line("memory at " + seconds + " s: ", null));
                    out.flush();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "db-bench-memory");
        sampler.setDaemon(true);
        sampler.start();
    }

    private static void field(StringBuilder line, String name, double mib) {
        if (mib >= 0) {
            line.append(String.format(Locale.ROOT, "%s=%.1f MB ", name, mib));
        }
    }

    private static List<String> procStatus() {
        try {
            return Files.readAllLines(Path.of("/proc/self/status"));
        } catch (IOException | UnsupportedOperationException e) {
            return List.of();
        }
    }

    /** A {@code Name:   123 kB} line's value in MiB, or -1 when absent. */
    private static double kib(List<String> status, String name) {
        for (String s : status) {
            if (s.startsWith(name)) {
                String[] parts = s.substring(name.length()).trim().split("\\s+");
                try {
                    return Long.parseLong(parts[0]) / 1024.0;
                } catch (NumberFormatException e) {
                    return -1;
                }
            }
        }
        return -1;
    }
}
