package org.iq80.leveldb;

import java.util.Locale;

/**
 * The figures a database reports about itself, read from a {@link Statistics} snapshot
 * ({@link ExtendedDB#statistics()}). This enum is the one list of them: the JMX bean of an open
 * database has one attribute per figure ({@link #attributeName()}), the {@code leveldb-micrometer}
 * binder one meter per figure ({@code "leveldb." + key()}), and the command-line tool's JSON one
 * key per figure ({@link #key()}).
 *
 * <p>A figure is a {@linkplain Kind#COUNTER counter}, which counts from 0 when the database opens
 * and only grows, or a {@linkplain Kind#GAUGE gauge}, the state at the moment the snapshot was
 * taken. Figures marked per level have a value for each of the {@link Statistics#LEVELS} levels
 * (for compactions, the level they wrote to); {@link Statistics#get(Metric)} gives their sum.
 *
 * <p>This is an extension of the 0.12 API. Names are stable: a figure may be added, never
 * renamed.
 */
public enum Metric {
    /** Counter, bytes: bytes appended to the write-ahead logs, record headers and block padding included. */
    LOG_BYTES_WRITTEN("log.bytes.written", Unit.BYTES, Kind.COUNTER, false,
            "bytes appended to the write-ahead logs"),
    /** Counter, count: memtables written to tables, the flushes of recovery included. */
    FLUSHES("flushes", Unit.COUNT, Kind.COUNTER, false, "memtables written to tables"),
    /** Counter, bytes: bytes of the tables memtable flushes wrote. */
    FLUSH_BYTES_WRITTEN("flush.bytes.written", Unit.BYTES, Kind.COUNTER, false,
            "bytes of the tables memtable flushes wrote"),
    /**
     * Counter, count, per level: compactions that wrote to the level (manual ones included,
     * trivial moves and flushes not).
     */
    COMPACTIONS("compactions", Unit.COUNT, Kind.COUNTER, true, "compactions into the level"),
    /** Counter, bytes, per level: bytes of the input tables of the compactions into the level. */
    COMPACTION_BYTES_READ("compaction.bytes.read", Unit.BYTES, Kind.COUNTER, true,
            "bytes of input tables of compactions into the level"),
    /** Counter, bytes, per level: bytes of the tables compactions wrote to the level. */
    COMPACTION_BYTES_WRITTEN("compaction.bytes.written", Unit.BYTES, Kind.COUNTER, true,
            "bytes of tables compactions wrote to the level"),
    /** Counter, count: tables moved to the next level without being rewritten. */
    TRIVIAL_MOVES("compaction.trivial.moves", Unit.COUNT, Kind.COUNTER, false,
            "tables moved to the next level without rewriting"),
    /**
     * Counter, bytes: bytes of the records appended to value files (separated values), values
     * moved out of reclaimed files included.
     */
    VALUE_BYTES_WRITTEN("value.bytes.written", Unit.BYTES, Kind.COUNTER, false,
            "bytes of records appended to value files"),
    /** Counter, count: keys put, one per put of a batch. */
    KEYS_WRITTEN("keys.written", Unit.COUNT, Kind.COUNTER, false, "keys put"),
    /** Counter, count: keys deleted, one per delete of a batch. */
    KEYS_DELETED("keys.deleted", Unit.COUNT, Kind.COUNTER, false, "keys deleted"),
    /** Counter, count: point lookups ({@code get}), found or not. */
    GETS("gets", Unit.COUNT, Kind.COUNTER, false, "point lookups"),
    /** Counter, count: point lookups that found a value. */
    KEYS_READ("keys.read", Unit.COUNT, Kind.COUNTER, false, "point lookups that found a value"),
    /**
     * Counter, count: iterator positionings: {@code seek}, {@code seekToFirst},
     * {@code seekToLast}, and the first positioning of a new iterator.
     */
    ITERATOR_SEEKS("iterator.seeks", Unit.COUNT, Kind.COUNTER, false, "iterator seeks"),
    /**
     * Counter, count: lookups of a table block that the block cache held, counted for this
     * database even when the cache is shared; compactions' lookups included.
     */
    BLOCK_CACHE_HITS("block.cache.hits", Unit.COUNT, Kind.COUNTER, false, "block cache lookups that hit"),
    /** Counter, count: lookups of a table block that the block cache did not hold. */
    BLOCK_CACHE_MISSES("block.cache.misses", Unit.COUNT, Kind.COUNTER, false, "block cache lookups that missed"),
    /** Counter, count: uses of a table file that found it in the table cache of open tables. */
    TABLE_CACHE_HITS("table.cache.hits", Unit.COUNT, Kind.COUNTER, false, "table cache lookups that hit"),
    /** Counter, count: uses of a table file that had to open it. */
    TABLE_CACHE_MISSES("table.cache.misses", Unit.COUNT, Kind.COUNTER, false, "table cache lookups that missed"),
    /** Counter, count: writes delayed by 1 ms because level 0 holds 8 tables or more. */
    STALL_LEVEL0_SLOWDOWN_COUNT("stall.level0.slowdown.count", Unit.COUNT, Kind.COUNTER, false,
            "writes delayed because level 0 is filling"),
    /** Counter, nanoseconds: time writes spent in those delays. */
    STALL_LEVEL0_SLOWDOWN_TIME("stall.level0.slowdown.time", Unit.NANOSECONDS, Kind.COUNTER, false,
            "time writes were delayed because level 0 is filling"),
    /** Counter, count: writes that waited because level 0 holds 12 tables or more. */
    STALL_LEVEL0_STOP_COUNT("stall.level0.stop.count", Unit.COUNT, Kind.COUNTER, false,
            "writes stopped because level 0 is full"),
    /** Counter, nanoseconds: time writes waited for level 0 to shrink below 12 tables. */
    STALL_LEVEL0_STOP_TIME("stall.level0.stop.time", Unit.NANOSECONDS, Kind.COUNTER, false,
            "time writes were stopped because level 0 is full"),
    /** Counter, count: writes that waited for the flush of the previous memtable (the memtable is full). */
    STALL_MEMTABLE_COUNT("stall.memtable.count", Unit.COUNT, Kind.COUNTER, false,
            "writes that waited for a memtable flush"),
    /** Counter, nanoseconds: time writes waited for the flush of the previous memtable. */
    STALL_MEMTABLE_TIME("stall.memtable.time", Unit.NANOSECONDS, Kind.COUNTER, false,
            "time writes waited for a memtable flush"),
    /** Gauge, count, per level: table files in the level. */
    LEVEL_FILES("level.files", Unit.COUNT, Kind.GAUGE, true, "table files in the level"),
    /** Gauge, bytes, per level: bytes of the table files in the level. */
    LEVEL_BYTES("level.bytes", Unit.BYTES, Kind.GAUGE, true, "bytes of the table files in the level"),
    /**
     * Gauge, bytes: an estimate of the bytes compactions must rewrite to bring every level back
     * within its target: level 0's bytes once it holds 4 tables (its compaction trigger), and for
     * levels 1 to 5 the bytes above the level's target size (10 MiB for level 1, ten times more
     * per level), counting the excess pushed down from the level above (RocksDB's
     * estimate-pending-compaction-bytes, without its fan-out factor).
     */
    PENDING_COMPACTION_BYTES("pending.compaction.bytes", Unit.BYTES, Kind.GAUGE, false,
            "estimated bytes compactions must rewrite to bring the levels within their targets"),
    /** Gauge, bytes: memory of the memtable and of the memtable being flushed. */
    MEMTABLE_BYTES("memtable.bytes", Unit.BYTES, Kind.GAUGE, false, "memory of the memtables"),
    /** Gauge, count: iterators handed out and not closed. */
    OPEN_ITERATORS("open.iterators", Unit.COUNT, Kind.GAUGE, false, "iterators not closed"),
    /** Gauge, count: snapshots handed out and not closed. */
    OPEN_SNAPSHOTS("open.snapshots", Unit.COUNT, Kind.GAUGE, false, "snapshots not closed"),
    /** Gauge, count: table files open (in the table cache, or evicted and still read). */
    OPEN_TABLES("open.tables", Unit.COUNT, Kind.GAUGE, false, "table files open"),
    /** Gauge, count: value files in the directory (0 in a database without separated values). */
    VALUE_FILES("value.files", Unit.COUNT, Kind.GAUGE, false, "value files"),
    /** Gauge, bytes: size of the value files in the directory. */
    VALUE_FILE_BYTES("value.file.bytes", Unit.BYTES, Kind.GAUGE, false, "bytes of the value files");

    /** What a figure counts. */
    public enum Unit {
        /** A number of things (operations, keys, files). */
        COUNT,
        /** Bytes. */
        BYTES,
        /** Nanoseconds. */
        NANOSECONDS
    }

    /** How a figure behaves over time. */
    public enum Kind {
        /** Counts from 0 when the database opens and never decreases. */
        COUNTER,
        /** The state when the snapshot was taken. */
        GAUGE
    }

    private final String key;
    private final Unit unit;
    private final Kind kind;
    private final boolean perLevel;
    private final String description;

    Metric(String key, Unit unit, Kind kind, boolean perLevel, String description) {
        this.key = key;
        this.unit = unit;
        this.kind = kind;
        this.perLevel = perLevel;
        this.description = description;
    }

    /**
     * The stable name: lower-case words separated by dots, e.g. {@code "keys.written"}. The
     * Micrometer meter is named {@code "leveldb." + key()}, and the command-line tool's JSON
     * uses it as the key.
     *
     * @return the name
     */
    public String key() {
        return key;
    }

    /**
     * The JMX attribute name: {@link #key()} in upper camel case, e.g. {@code "KeysWritten"}
     * for {@code "keys.written"}.
     *
     * @return the attribute name
     */
    public String attributeName() {
        StringBuilder sb = new StringBuilder(key.length());
        for (String word : key.split("\\.")) {
            sb.append(word.substring(0, 1).toUpperCase(Locale.ROOT)).append(word.substring(1));
        }
        return sb.toString();
    }

    /**
     * What the figure counts.
     *
     * @return the unit
     */
    public Unit unit() {
        return unit;
    }

    /**
     * Whether the figure is a counter or a gauge.
     *
     * @return the kind
     */
    public Kind kind() {
        return kind;
    }

    /**
     * Whether the figure has a value per level.
     *
     * @return {@code true} for a per-level figure
     */
    public boolean perLevel() {
        return perLevel;
    }

    /**
     * One line saying what the figure is, for descriptions of JMX attributes and meters.
     *
     * @return the description
     */
    public String description() {
        return description;
    }

    /**
     * The figure of a stable name.
     *
     * @param key a name as {@link #key()} returns it
     * @return the figure
     * @throws IllegalArgumentException if no figure has that name
     */
    public static Metric forKey(String key) {
        for (Metric m : values()) {
            if (m.key.equals(key)) {
                return m;
            }
        }
        throw new IllegalArgumentException("no such metric: " + key);
    }
}
