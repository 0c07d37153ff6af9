package org.leveldbj.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.iq80.leveldb.CompressionType;
import org.iq80.leveldb.CorruptionException;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.ExtendedDB;
import org.iq80.leveldb.Metric;
import org.iq80.leveldb.Range;
import org.iq80.leveldb.Statistics;
import org.leveldbj.key.InternalKeys;
import org.leveldbj.version.FileMetaData;
import org.leveldbj.version.VersionEdit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/**
 * {@code leveldb stats DB}: what the database holds and how: the MANIFEST's counters and
 * comparator, the files by kind, the tables and bytes per level, the approximate size of the
 * whole key range, the compression of the live tables' blocks, and every property the engine
 * supports. Read-only. In JSON, one object per line, each with a {@code "kind"}: {@code database},
 * {@code files}, {@code level}, {@code approximate_size}, {@code statistics} (the gauges of
 * {@link ExtendedDB#statistics()} that describe the database rather than the process reading it,
 * keyed by {@link Metric#key()}), {@code compression}, {@code property}, {@code problem}.
 */
@Command(name = "stats", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        header = "Print the database's files, levels and properties.",
        description = {
            "The MANIFEST's counters and comparator, the files by kind, the tables and",
            "bytes per level, the approximate size of all keys, the compression of the",
            "tables' blocks, the statistics' gauges and every property. Opens the",
            "database read-only. In JSON, one object per line whose \"kind\" says what it",
            "holds: database, files (per type), level, approximate_size, statistics,",
            "compression, property, problem.",
        })
final class StatsCommand extends CommandBase {
    @Parameters(index = "0", paramLabel = "DB", description = "The database directory.")
    Path db;

    @Mixin
    FormatOption format;

    @Override
    int run() throws Exception {
        DumpSink out = new DumpSink(out(), format.json());
        try (DB database = Databases.openReadOnly(db)) {
            List<CorruptionException> problems = new ArrayList<>();
            Manifest m = Manifest.read(db, problems::add, null);
            if (m == null) {
                throw problems.get(0);
            }
            List<DbFile> files = DbFile.list(db);
            List<Long> liveLogs = m.liveLogs(DbFile.names(files));
            out.text("database: " + db);
            out.text("comparator: " + m.comparator);
            out.text("manifest: " + m.file.getFileName() + " (" + Plural.count(m.records, "record") + ")");
            out.text("last sequence in the MANIFEST: " + m.lastSequence);
            out.text("next file number: " + m.nextFileNumber);
            out.text("log number: " + m.logNumber + (m.prevLogNumber != null && m.prevLogNumber != 0
                    ? " (previous " + m.prevLogNumber + ")" : ""));
            out.text("live logs: " + liveLogs);
            Json.JsonObject summary = Json.object().add("kind", "database").add("database", db.toString())
                    .add("comparator", m.comparator).add("manifest", m.file.getFileName().toString())
                    .add("manifest_records", m.records);
            number(summary, "last_sequence", m.lastSequence);
            number(summary, "next_file_number", m.nextFileNumber);
            number(summary, "log_number", m.logNumber);
            number(summary, "prev_log_number", m.prevLogNumber);
            out.json(summary.array("live_logs", liveLogs));
            printFiles(out, files);
            printLevels(out, m);
            long size = approximateSize(database, m);
            out.text("approximate size of all keys: " + Plural.count(size, "byte"));
            out.json(Json.object().add("kind", "approximate_size").add("bytes", size));
            printStatistics(out, ((ExtendedDB) database).statistics());
            printCompression(out, m);
            printProperties(out, database);
            for (CorruptionException e : problems) {
                out.text("problem: " + Errors.report(e).message());
                out.json(DumpSink.problemObject(e));
            }
        }
        return ExitCode.OK;
    }

    private static void number(Json.JsonObject o, String name, Long value) {
        if (value != null) {
            o.add(name, value);
        }
    }

    private static void printFiles(DumpSink out, List<DbFile> files) {
        Map<String, long[]> byKind = new LinkedHashMap<>();
        for (String kind : new String[] {"table", "log", "value", "manifest", "current", "lock", "info log", "temp", "other"}) {
            byKind.put(kind, new long[2]);
        }
        for (DbFile f : files) {
            long[] c = byKind.get(DbFile.kind(f.type()));
            c[0]++;
            c[1] += f.size();
        }
        out.text("files by type:");
        byKind.forEach((kind, c) -> {
            if (c[0] > 0) {
                out.text(String.format("  %-9s %6d %-5s %14d %s", kind, c[0], Plural.noun(c[0], "file"), c[1],
                        Plural.noun(c[1], "byte")));
                out.json(Json.object().add("kind", "files").add("type", kind).add("files", c[0]).add("bytes", c[1]));
            }
        });
    }

    private static void printLevels(DumpSink out, Manifest m) {
        out.text("levels:");
        for (int level = 0; level < VersionEdit.NUM_LEVELS; level++) {
            long bytes = 0;
            for (FileMetaData f : m.levels.get(level).values()) {
                bytes += f.fileSize();
            }
            int files = m.levels.get(level).size();
            out.text(String.format("  level %d %6d %-5s %14d %s", level, files, Plural.noun(files, "file"), bytes,
                    Plural.noun(bytes, "byte")));
            out.json(Json.object().add("kind", "level").add("level", level).add("files", files).add("bytes", bytes));
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

    /**
     * The gauges of the statistics, but those about the process reading the database (its open
     * iterators, snapshots and tables), which a tool that only opened it has none of.
     */
    static void printStatistics(DumpSink out, Statistics stats) {
        out.text("statistics:");
        Json.JsonObject json = Json.object().add("kind", "statistics");
        for (Metric m : Metric.values()) {
            if (m.kind() != Metric.Kind.GAUGE || m == Metric.OPEN_ITERATORS || m == Metric.OPEN_SNAPSHOTS
                    || m == Metric.OPEN_TABLES) {
                continue;
            }
            if (m.perLevel()) {
                List<Long> values = new ArrayList<>();
                for (long v : stats.perLevel(m)) {
                    values.add(v);
                }
                out.text(String.format("  %-26s %s (%d in all)", m.key(), values, stats.get(m)));
                json.array(m.key(), values);
            } else {
                out.text(String.format("  %-26s %d", m.key(), stats.get(m)));
                json.add(m.key(), stats.get(m));
            }
        }
        out.json(json);
    }

    private void printCompression(DumpSink out, Manifest m) throws java.io.IOException {
        Map<String, Long> counts = new TreeMap<>();
        for (FileMetaData f : m.tables()) {
            TableWalker.walk(Manifest.tablePath(db, f.number()), new TableWalker.Visitor() {
                @Override
                public void block(TableWalker.BlockInfo block) {
                    counts.merge(codec(block.compression()), 1L, Long::sum);
                }

                @Override
                public void problem(CorruptionException e) {
                    out.text("problem: " + Errors.report(e).message());
                    out.json(DumpSink.problemObject(e));
                }
            }, false);
        }
        out.text("compression of the blocks of the live tables:");
        if (counts.isEmpty()) {
            out.text("  (no tables)");
        }
        counts.forEach((codec, n) -> {
            out.text(String.format("  %-8s %8d %s", codec, n, Plural.noun(n, "block")));
            out.json(Json.object().add("kind", "compression").add("compression", codec).add("blocks", n));
        });
    }

    /** The name of a block compression type byte. */
    static String codec(int type) {
        try {
            return CompressionType.getCompressionTypeByPersistentId(type).name().toLowerCase(java.util.Locale.ROOT);
        } catch (IllegalArgumentException e) {
            return "unknown(" + type + ")";
        }
    }

    private static void printProperties(DumpSink out, DB database) {
        out.text("properties:");
        for (int level = 0; level < VersionEdit.NUM_LEVELS; level++) {
            String name = "leveldb.num-files-at-level" + level;
            property(out, name, database.getProperty(name), false);
        }
        property(out, "leveldb.approximate-memory-usage", database.getProperty("leveldb.approximate-memory-usage"),
                false);
        for (String name : new String[] {"leveldb.stats", "leveldb.sstables"}) {
            property(out, name, database.getProperty(name), true);
        }
        String valueFiles = database.getProperty("leveldbj.value-files");
        if (valueFiles != null && !valueFiles.isEmpty()) {
            property(out, "leveldbj.value-files", valueFiles, true);
        }
    }

    /** {@code  name: value}, or the name and the value's lines below it, indented. */
    private static void property(DumpSink out, String name, String value, boolean multiline) {
        if (multiline) {
            out.text("  " + name + ":");
            for (String line : value.split("\n")) {
                out.text("    " + line);
            }
        } else {
            out.text("  " + name + ": " + value);
        }
        out.json(Json.object().add("kind", "property").add("name", name).add("value", value));
    }
}
