package org.leveldbj.engine;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Locale;
import java.util.Map;
import org.iq80.leveldb.DBException;
import org.iq80.leveldb.IOErrorException;
import org.leveldbj.cache.ClockBlockCache;
import org.leveldbj.filename.FileNames;
import org.leveldbj.memtable.MemTable;
import org.leveldbj.version.Version;
import org.leveldbj.version.VersionSet;
import org.leveldbj.vlog.ValueFileWriter;

/**
 * The values of {@code DB.getProperty}, named and formatted as C++ LevelDB's:
 * {@code leveldb.num-files-at-level<N>}, {@code leveldb.stats} (files, size and compaction work
 * per level), {@code leveldb.sstables} (every file with its key range) and
 * {@code leveldb.approximate-memory-usage} (memtables plus block cache, in bytes); the
 * estimate of the entries the database holds, {@code leveldb.approximate-num-entries}
 * ({@link EntryCountEstimate}: a decimal number, computed without the database lock); and this
 * library's, under its own prefix: {@code leveldbj.num-snapshots} and
 * {@code leveldbj.num-iterators}, the snapshots and iterators handed out and not closed yet
 * (what a leak check reads before closing a database); {@code leveldbj.memtable-bytes}, the
 * memtables' approximate memory; {@code leveldbj.num-files}, the table files of the current
 * version; {@code leveldbj.num-compactions} and {@code leveldbj.compaction-bytes-written}, the
 * compaction steps (memtable flushes included) since the database opened and the bytes they
 * wrote; {@code leveldbj.num-separated-values} and {@code leveldbj.value-bytes-written}, the
 * values written to value files since the database opened and the bytes of their records;
 * {@code leveldbj.value-file-bytes}, the size of every value file in the directory (also the
 * last line of {@code leveldb.stats} when there is one); {@code leveldbj.value-files}, a line
 * per value file: its number, size, the bytes the tables refer to, and the garbage;
 * {@code leveldbj.block-cache}, one line on the block cache (capacity, usage, blocks, hits,
 * misses, and the share of candidates it admits while full; shared by every database using the
 * same cache). Unknown names give {@code null}.
 *
 * <p>Thread safety: takes the database lock (except for the entry estimate).
 */
final class DbProperties {
    private static final String PREFIX = "leveldb.";
    private static final String OWN_PREFIX = "leveldbj.";

    private DbProperties() {
    }

    static String get(DbState s, ClockBlockCache blockCache, int openIterators, String name) {
        if (name == null) {
            return null;
        }
        if (name.startsWith(OWN_PREFIX)) {
            return own(s, blockCache, openIterators, name.substring(OWN_PREFIX.length()));
        }
        if (!name.startsWith(PREFIX)) {
            return null;
        }
        String rest = name.substring(PREFIX.length());
        switch (rest) {
            case "approximate-num-entries":
                // Without the database lock: it reads a pinned view, and may read tables.
                return Long.toString(EntryCountEstimate.of(s));
            default:
                break;
        }
        // The directory is listed before the lock is taken: no I/O under the database lock.
        String valueFilesLine = rest.equals("stats") ? valueFilesLine(s) : "";
        s.mutex.lock();
        try {
            if (s.shuttingDown) {
                // Closed (or closing) concurrently: the memtables may already be released.
                throw new DBException("database is closed");
            }
            Version v = s.versions.current();
            if (rest.startsWith("num-files-at-level")) {
                String digits = rest.substring("num-files-at-level".length());
                int level;
                try {
                    level = Integer.parseInt(digits);
                } catch (NumberFormatException e) {
                    return null;
                }
                return level < 0 || level >= VersionSet.NUM_LEVELS ? null : Integer.toString(v.numFiles(level));
            }
            switch (rest) {
                case "stats":
                    long[][] work = new long[VersionSet.NUM_LEVELS][];
                    for (int level = 0; level < work.length; level++) {
                        work[level] = s.stats(level);
                    }
                    return stats(work, v) + valueFilesLine;
                case "sstables":
                    return v.debugString();
                case "approximate-memory-usage":
                    long total = blockCache.usage();
                    MemTable imm = s.imm();
                    total += s.mem().approximateMemoryUsage();
                    if (imm != null) {
                        total += imm.approximateMemoryUsage();
                    }
                    return Long.toString(total);
                default:
                    return null;
            }
        } finally {
            s.mutex.unlock();
        }
    }

    private static String own(DbState s, ClockBlockCache blockCache, int openIterators, String name) {
        switch (name) {
            case "num-snapshots":
                return Integer.toString(s.snapshots.size());
            case "num-iterators":
                return Integer.toString(openIterators);
            case "num-separated-values":
                return Long.toString(s.valueLog.valuesWritten());
            case "value-bytes-written":
                return Long.toString(s.valueLog.bytesWritten());
            case "value-file-bytes":
                return Long.toString(valueFiles(s).values().stream().mapToLong(Long::longValue).sum());
            case "value-files":
                return valueFileTable(s);
            case "block-cache":
                return blockCache.stats();
            default:
                break;
        }
        s.mutex.lock();
        try {
            if (s.shuttingDown) {
                throw new DBException("database is closed");
            }
            switch (name) {
                case "memtable-bytes":
                    MemTable imm = s.imm();
                    return Long.toString(s.mem().approximateMemoryUsage() + (imm == null ? 0 : imm.approximateMemoryUsage()));
                case "num-files":
                    Version v = s.versions.current();
                    int files = 0;
                    for (int level = 0; level < VersionSet.NUM_LEVELS; level++) {
                        files += v.numFiles(level);
                    }
                    return Integer.toString(files);
                case "num-compactions":
                case "compaction-bytes-written":
                    int column = name.equals("num-compactions") ? 3 : 2;
                    long total = 0;
                    for (int level = 0; level < VersionSet.NUM_LEVELS; level++) {
                        total += s.stats(level)[column];
                    }
                    return Long.toString(total);
                default:
                    return null;
            }
        } finally {
            s.mutex.unlock();
        }
    }

    /** The value files in the directory and their sizes. */
    private static Map<Long, Long> valueFiles(DbState s) {
        try {
            return s.valueLog.fileSizes();
        } catch (IOException e) {
            throw new IOErrorException("IO error: " + s.dir + ": listing value files: " + e.getMessage(), e);
        }
    }

    /** One line per value file: name, size, referenced bytes, garbage. */
    private static String valueFileTable(DbState s) {
        Map<Long, Long> live;
        s.mutex.lock();
        try {
            live = s.versions.valueFileLiveBytes();
        } finally {
            s.mutex.unlock();
        }
        StringBuilder sb = new StringBuilder();
        valueFiles(s).forEach((number, size) -> {
            long referenced = live.getOrDefault(number, 0L);
            long records = Math.max(0, size - ValueFileWriter.HEADER_SIZE);
            sb.append(String.format(Locale.ROOT, "%s size=%d referenced=%d garbage=%d%n",
                    FileNames.valueFileName(number), size, referenced, Math.max(0, records - referenced)));
        });
        return sb.toString();
    }

    /** The last line of {@code leveldb.stats} when there are value files; read without the lock. */
    private static String valueFilesLine(DbState s) {
        Map<Long, Long> files = valueFiles(s);
        long bytes = files.values().stream().mapToLong(Long::longValue).sum();
        return files.isEmpty() ? ""
                : String.format(Locale.ROOT, "Value files: %d, %.0f MB%n", files.size(), bytes / 1048576.0);
    }

    /**
     * A non-negative number as C's {@code printf("%.0f")} prints it: the exact value of the
     * double rounded half to even (2.5 gives 2, where Java's {@code %.0f} gives 3).
     */
    static String rounded(double value) {
        return new BigDecimal(value).setScale(0, RoundingMode.HALF_EVEN).toPlainString();
    }

    /**
     * C++ LevelDB's table, byte for byte (db_impl.cc): a header, then a row per level that has
     * files or compaction work, formatted {@code "%3d %8d %8.0f %9.0f %8.0f %9.0f"} (level,
     * files, size, seconds, MB read, MB written) in the root locale, whatever the default one.
     */
    private static String stats(long[][] work, Version v) {
        StringBuilder sb = new StringBuilder();
        sb.append("                               Compactions\n");
        sb.append("Level  Files Size(MB) Time(sec) Read(MB) Write(MB)\n");
        sb.append("--------------------------------------------------\n");
        for (int level = 0; level < VersionSet.NUM_LEVELS; level++) {
            long[] st = work[level];
            if (v.numFiles(level) > 0 || st[0] > 0) {
                sb.append(String.format(Locale.ROOT, "%3d %8d %8s %9s %8s %9s\n", level, v.numFiles(level),
                        rounded(v.levelBytes(level) / 1048576.0), rounded(st[0] / 1e6), rounded(st[1] / 1048576.0),
                        rounded(st[2] / 1048576.0)));
            }
        }
        return sb.toString();
    }
}
