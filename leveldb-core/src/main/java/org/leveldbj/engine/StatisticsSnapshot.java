package org.leveldbj.engine;

import java.io.IOException;
import java.util.Map;
import org.iq80.leveldb.IOErrorException;
import org.iq80.leveldb.Metric;
import org.iq80.leveldb.Statistics;
import org.leveldbj.cache.TableCache;
import org.leveldbj.version.PendingCompaction;
import org.leveldbj.version.Version;
import org.leveldbj.version.VersionSet;

/**
 * Assembles an open database's {@link Statistics}: the counters it keeps ({@code DbState.counters},
 * the table cache's hits and misses, the value log's bytes) and the gauges, computed now from the
 * published {@link ReadView} (levels, memtables), the snapshot list, the iterators and the table
 * cache; the value files' sizes come from a listing of the directory, made only when the database
 * may hold value files.
 *
 * <p>Thread safety: takes no database lock (the view is pinned, as a read pins it), only the
 * table cache shards' and the snapshot list's own locks, briefly.
 */
final class StatisticsSnapshot {
    private StatisticsSnapshot() {
    }

    /**
     * Takes a snapshot.
     *
     * @param s the database's state
     * @param tableCache its table cache
     * @param openIterators its iterators not closed
     * @return the snapshot
     * @throws org.iq80.leveldb.DBException if the database is closed
     * @throws IOErrorException if the directory cannot be listed
     */
    static Statistics take(DbState s, TableCache tableCache, int openIterators) {
        Statistics.Builder b = Statistics.builder();
        s.counters.addTo(b);
        long[] tableUses = tableCache.hitsAndMisses();
        b.set(Metric.TABLE_CACHE_HITS, tableUses[0]);
        b.set(Metric.TABLE_CACHE_MISSES, tableUses[1]);
        b.set(Metric.VALUE_BYTES_WRITTEN, s.valueLog.bytesWritten());
        ReadView view = s.pinReadView();
        try {
            Version v = view.version;
            for (int level = 0; level < VersionSet.NUM_LEVELS; level++) {
                b.set(Metric.LEVEL_FILES, level, v.numFiles(level));
                b.set(Metric.LEVEL_BYTES, level, v.levelBytes(level));
            }
            b.set(Metric.PENDING_COMPACTION_BYTES, PendingCompaction.bytes(v));
            long memory = view.mem.approximateMemoryUsage();
            if (view.imm != null) {
                memory += view.imm.approximateMemoryUsage();
            }
            b.set(Metric.MEMTABLE_BYTES, memory);
        } finally {
            view.unpin();
        }
        b.set(Metric.OPEN_ITERATORS, openIterators);
        b.set(Metric.OPEN_SNAPSHOTS, s.snapshots.size());
        b.set(Metric.OPEN_TABLES, tableCache.openTables());
        if (s.valueLog.threshold() > 0 || s.versions.valueFileLiveTotal() > 0) {
            Map<Long, Long> files;
            try {
                files = s.valueLog.fileSizes();
            } catch (IOException e) {
                throw new IOErrorException("IO error: " + s.dir + ": listing value files: " + e.getMessage(), e);
            }
            b.set(Metric.VALUE_FILES, files.size());
            b.set(Metric.VALUE_FILE_BYTES, files.values().stream().mapToLong(Long::longValue).sum());
        }
        return b.build();
    }
}
