package org.leveldbj.benchmark;

import java.io.IOException;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.iq80.leveldb.BackgroundPool;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.ExtendedDB;
import org.iq80.leveldb.Options;
import org.iq80.leveldb.WriteBufferBudget;
import org.leveldbj.db.LevelDbFactory;

/**
 * Many databases in one process: opens {@code dbs} databases (on a pool of {@code pool}
 * threads, or the default pool when 0), writes {@code kb} KiB of 100-byte values to each from 4
 * threads, flushes every memtable, closes them all, and prints the threads (before, and the
 * most seen), the resident memory, heap and direct memory, and the time of each phase.
 *
 * <pre>bin/many-databases [dbs] [pool] [kb] [write-buffer-bytes] [budget-mib] [directory]</pre>
 * (defaults 200, 2, 512, 65536, 0 for no budget, the temporary directory). Exit code 0, or 2
 * for bad arguments.
 */
public final class ManyDatabasesRun {
    private static final int WRITERS = 4;
    private static final int VALUE_SIZE = 100;

    private ManyDatabasesRun() {
    }

    /**
     * Runs the measurement.
     *
     * @param args see the class comment
     * @throws Exception if a database fails
     */
    public static void main(String[] args) throws Exception {
        int dbs;
        int poolThreads;
        int kb;
        int writeBuffer;
        long budgetMib;
        Path parent;
        try {
            dbs = args.length > 0 ? Integer.parseInt(args[0]) : 200;
            poolThreads = args.length > 1 ? Integer.parseInt(args[1]) : 2;
            kb = args.length > 2 ? Integer.parseInt(args[2]) : 512;
            writeBuffer = args.length > 3 ? Integer.parseInt(args[3]) : 65536;
            budgetMib = args.length > 4 ? Long.parseLong(args[4]) : 0;
            parent = Path.of(args.length > 5 ? args[5] : System.getProperty("java.io.tmpdir"));
            if (args.length > 6 || dbs < 1 || poolThreads < 0 || kb < 1 || writeBuffer < 1 || budgetMib < 0) {
                throw new NumberFormatException("out of range");
            }
        } catch (NumberFormatException e) {
            System.err.println("usage: bin/many-databases [DBS >= 1] [POOL_THREADS >= 0, 0 = default pool] [KIB >= 1]"
                    + " [WRITE_BUFFER_BYTES >= 1] [BUDGET_MIB >= 0, 0 = none] [DIRECTORY] (" + e.getMessage() + ")");
            System.exit(2);
            return;
        }
        System.out.println(run(dbs, poolThreads, kb, writeBuffer, budgetMib, parent));
    }

    /**
     * One run, in a new directory under {@code parent}, deleted afterwards.
     *
     * @return the report line
     */
    static String run(int dbs, int poolThreads, int kb, int writeBuffer, long budgetMib, Path parent)
            throws Exception {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        Path root = Files.createTempDirectory(parent, "many-databases");
        BackgroundPool pool = poolThreads > 0 ? LevelDbFactory.newBackgroundPool(poolThreads) : null;
        WriteBufferBudget budget = budgetMib > 0 ? LevelDbFactory.newWriteBufferBudget(budgetMib << 20) : null;
        Options options = new Options().writeBufferSize(writeBuffer).backgroundPool(pool).writeBufferBudget(budget);
        int threadsBefore = threads.getThreadCount();
        AtomicInteger peak = new AtomicInteger(threadsBefore);
        List<DB> open = new ArrayList<>();
        ExecutorService writers = Executors.newFixedThreadPool(WRITERS);
        try {
            long t0 = System.nanoTime();
            for (int i = 0; i < dbs; i++) {
                open.add(LevelDbFactory.factory.open(root.resolve("db" + i).toFile(), options));
            }
            long t1 = System.nanoTime();
            int entries = kb * 1024 / (VALUE_SIZE + 16);
            byte[] value = new byte[VALUE_SIZE];
            new SplittableRandom(1).nextBytes(value);
            List<Future<?>> done = new ArrayList<>();
            for (int w = 0; w < WRITERS; w++) {
                int first = w;
                done.add(writers.submit(() -> {
                    SplittableRandom random = new SplittableRandom(first);
                    for (int e = 0; e < entries; e++) {
                        for (int i = first; i < dbs; i += WRITERS) {
                            open.get(i).put(Keys.DEFAULT.key(random.nextInt(entries * 4)), value);
                        }
                        if (e % 50 == 0) {
                            peak.accumulateAndGet(threads.getThreadCount(), Math::max);
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
            long t2 = System.nanoTime();
            long memtables = 0;
            for (DB db : open) {
                memtables += Long.parseLong(db.getProperty("leveldbj.memtable-bytes"));
            }
            for (DB db : open) {
                ((ExtendedDB) db).flushMemTable();
                peak.accumulateAndGet(threads.getThreadCount(), Math::max);
            }
            long t3 = System.nanoTime();
            System.gc();
            long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
            long direct = 0;
            for (BufferPoolMXBean b : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
                direct += b.getMemoryUsed();
            }
            long rss = residentKib();
            long level0 = 0;
            for (DB db : open) {
                level0 += Long.parseLong(db.getProperty("leveldb.num-files-at-level0"));
            }
            long t4 = System.nanoTime();
            for (DB db : open) {
                db.close();
            }
            open.clear();
            long t5 = System.nanoTime();
            return String.format(Locale.ROOT, "%d databases, %s, %d KiB each, write buffer %d, budget %s: threads %d before,"
                    + " %d at most; open %.0f ms, writes %.2f us/put, memtables after writes %d MiB, flushing all"
                    + " %.0f ms, closing %.0f ms; RSS %s, heap %d MiB, direct %d MiB; level-0 tables per database %.1f",
                    dbs, pool == null ? "the default pool" : "a pool of " + poolThreads, kb, writeBuffer,
                    budget == null ? "none" : budgetMib + " MiB", threadsBefore, peak.get(), (t1 - t0) / 1e6,
                    (t2 - t1) / 1e3 / ((long) entries * dbs), memtables >> 20, (t3 - t2) / 1e6, (t5 - t4) / 1e6,
                    rss < 0 ? "unknown" : (rss >> 10) + " MiB", heap >> 20, direct >> 20, (double) level0 / dbs);
        } finally {
            writers.shutdown();
            for (DB db : open) {
                db.close();
            }
            if (pool != null) {
                pool.close();
            }
            delete(root);
        }
    }

    /** The process's resident memory in KiB, from /proc (Linux), or -1. */
    private static long residentKib() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("\\D", ""));
                }
            }
        } catch (IOException | NumberFormatException e) {
            return -1;
        }
        return -1;
    }

    private static void delete(Path root) throws IOException {
        try (Stream<Path> files = Files.walk(root)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
