package org.leveldbj.engine;

import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.iq80.leveldb.Metric;
import org.leveldbj.compaction.Compaction;
import org.leveldbj.compaction.CompactionStats;
import org.leveldbj.stats.CompactionEvent;
import org.leveldbj.stats.CompactionReason;
import org.leveldbj.version.FileMetaData;

/**
 * Counts a finished compaction step or trivial move in the database's counters and records its
 * {@code org.leveldbj.Compaction} event.
 *
 * <p>Thread safety: called by the background thread with the database lock held (the counters
 * it bumps are the single-writer ones).
 */
final class CompactionRecord {
    private CompactionRecord() {
    }

    /**
     * Records a compaction whose edit was applied.
     *
     * @param s the database's state
     * @param c the compaction, its edit holding the outputs
     * @param stats what it read and wrote
     * @param reason why it ran
     * @param event its event, begun when it started
     */
    static void compacted(DbState s, Compaction c, CompactionStats stats, CompactionReason reason,
                          CompactionEvent event) {
        assert s.mutex.isHeldByCurrentThread();
        int output = c.level() + 1;
        s.counters.add(Metric.COMPACTIONS, output, 1);
        s.counters.add(Metric.COMPACTION_BYTES_READ, output, stats.bytesRead());
        s.counters.add(Metric.COMPACTION_BYTES_WRITTEN, output, stats.bytesWritten());
        event.finish(s.dir.toString(), c.level(), c.inputs(0).size(), c.inputs(1).size(), () -> numbers(c),
                c.edit().newFiles().size(), stats.bytesRead(), stats.bytesWritten(), reason);
    }

    /**
     * Records a table moved to the next level.
     *
     * @param s the database's state
     * @param level the level it left
     * @param moved the table
     * @param event its event, begun when the move started
     */
    static void moved(DbState s, int level, FileMetaData moved, CompactionEvent event) {
        assert s.mutex.isHeldByCurrentThread();
        s.counters.add(Metric.TRIVIAL_MOVES, 1);
        event.finish(s.dir.toString(), level, 1, 0, () -> Long.toString(moved.number()), 0, 0, 0,
                CompactionReason.TRIVIAL_MOVE);
    }

    private static String numbers(Compaction c) {
        List<FileMetaData> both = Stream.concat(c.inputs(0).stream(), c.inputs(1).stream()).collect(Collectors.toList());
        return both.stream().map(f -> Long.toString(f.number())).collect(Collectors.joining(" "));
    }
}
