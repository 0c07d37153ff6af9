package org.leveldbj.cli;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.iq80.leveldb.CompressionType;
import org.iq80.leveldb.CorruptionException;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.Range;
import org.leveldbj.key.InternalKeys;
import org.leveldbj.version.FileMetaData;
import org.leveldbj.version.VersionEdit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code leveldb stats DB}: what the database holds and how: the MANIFEST's counters and
 * comparator, the files by kind, the tables and bytes per level, the approximate size of the
 * whole key range, the compression of the live tables' blocks, and every property the engine
 * supports. Read-only.
 */
@Command(name = "stats", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        header = "Print the database's files, levels and properties.",
        description = {
            "The MANIFEST's counters and comparator, the files by kind, the tables and",
            "bytes per level, the approximate size of all keys, the compression of the",
            "tables' blocks and every property. Opens the database read-only.",
        })
final class StatsCommand extends CommandBase {
    @Parameters(index = "0", paramLabel = "DB", description = "The database directory.")
    Path db;

    @Override
    int run() throws Exception {
        PrintStream out = out();
        try (DB database = Databases.openReadOnly(db)) {
            List<CorruptionException> problems = new ArrayList<>();
            Manifest m = Manifest.read(db, problems::add, null);
            if (m == null) {
                throw problems.get(0);
            }
            List<DbFile> files = DbFile.list(db);
            out.println("database: " + db);
            out.println("comparator: " + m.comparator);
            out.println("manifest: " + m.file.getFileName() + " (" + Plural.count(m.records, "record") + ")");
            out.println("last sequence in the MANIFEST: " + m.lastSequence);
            out.println("next file number: " + m.nextFileNumber);
            out.println("log number: " + m.logNumber + (m.prevLogNumber != null && m.prevLogNumber != 0
                    ? " (previous " + m.prevLogNumber + ")" : ""));
            out.println("live logs: " + m.liveLogs(DbFile.names(files)));
            printFiles(out, files);
            printLevels(out, m);
            out.println("approximate size of all keys: " + Plural.count(approximateSize(database, m), "byte"));
            printCompression(out, m);
            printProperties(out, database);
            for (CorruptionException e : problems) {
                out.println("problem: " + Errors.report(e).message());
            }
        }
        return ExitCode.OK;
    }

    private static void printFiles(PrintStream out, List<DbFile> files) {
        Map<String, long[]> byKind = new LinkedHashMap<>();
        for (String kind : new String[] {"table", "log", "value", "manifest", "current", "lock", "info log", "temp", "other"}) {
            byKind.put(kind, new long[2]);
        }
        for (DbFile f : files) {
            long[] c = byKind.get(DbFile.kind(f.type()));
            c[0]++;
            c[1] += f.size();
        }
        out.println("files by type:");
        byKind.forEach((kind, c) -> {
            if (c[0] > 0) {
                out.printf("  %-9s %6d %-5s %14d %s%n", kind, c[0], Plural.noun(c[0], "file"), c[1],
                        Plural.noun(c[1], "byte"));
            }
        });
    }

    private static void printLevels(PrintStream out, Manifest m) {
        out.println("levels:");
        for (int level = 0; level < VersionEdit.NUM_LEVELS; level++) {
            long bytes = 0;
            for (FileMetaData f : m.levels.get(level).values()) {
                bytes += f.fileSize();
            }
            int files = m.levels.get(level).size();
            out.printf("  level %d %6d %-5s %14d %s%n", level, files, Plural.noun(files, "file"), bytes,
                    Plural.noun(bytes, "byte"));
        }
    }

    /** From the smallest key of any table to just past the largest (the memtable is not counted). */
    private static long approximateSize(DB database, Manifest m) {
        byte[] smallest = null;
        byte[] largest = null;
        for (FileMetaData f : m.tables()) {
            byte[] s = InternalKeys.userKey(f.smallest());
            byte[] l = InternalKeys.userKey(f.largest());
            smallest = smallest == null || java.util.Arrays.compareUnsigned(s, smallest) < 0 ? s : smallest;
            largest = largest == null || java.util.Arrays.compareUnsigned(l, largest) > 0 ? l : largest;
        }
        if (smallest == null) {
            return 0;
        }
        byte[] past = java.util.Arrays.copyOf(largest, largest.length + 1);
        return database.getApproximateSizes(new Range(smallest, past))[0];
    }

    private void printCompression(PrintStream out, Manifest m) throws java.io.IOException {
        Map<String, Long> counts = new TreeMap<>();
        for (FileMetaData f : m.tables()) {
            TableWalker.walk(Manifest.tablePath(db, f.number()), new TableWalker.Visitor() {
                @Override
                public void block(TableWalker.BlockInfo block) {
                    counts.merge(codec(block.compression()), 1L, Long::sum);
                }

                @Override
                public void problem(CorruptionException e) {
                    out.println("problem: " + Errors.report(e).message());
                }
            }, false);
        }
        out.println("compression of the blocks of the live tables:");
        if (counts.isEmpty()) {
            out.println("  (no tables)");
        }
        counts.forEach((codec, n) -> out.printf("  %-8s %8d %s%n", codec, n, Plural.noun(n, "block")));
    }

    /** The name of a block compression type byte. */
    static String codec(int type) {
        try {
            return CompressionType.getCompressionTypeByPersistentId(type).name().toLowerCase(java.util.Locale.ROOT);
        } catch (IllegalArgumentException e) {
            return "unknown(" + type + ")";
        }
    }

    private static void printProperties(PrintStream out, DB database) {
        out.println("properties:");
        for (int level = 0; level < VersionEdit.NUM_LEVELS; level++) {
            String name = "leveldb.num-files-at-level" + level;
            out.println("  " + name + ": " + database.getProperty(name));
        }
        out.println("  leveldb.approximate-memory-usage: " + database.getProperty("leveldb.approximate-memory-usage"));
        for (String name : new String[] {"leveldb.stats", "leveldb.sstables"}) {
            out.println("  " + name + ":");
            for (String line : database.getProperty(name).split("\n")) {
                out.println("    " + line);
            }
        }
        String valueFiles = database.getProperty("leveldbj.value-files");
        if (valueFiles != null && !valueFiles.isEmpty()) {
            out.println("  leveldbj.value-files:");
            for (String line : valueFiles.split("\n")) {
                out.println("    " + line);
            }
        }
    }
}
