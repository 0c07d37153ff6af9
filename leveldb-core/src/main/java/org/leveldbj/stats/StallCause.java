package org.leveldbj.stats;

import org.iq80.leveldb.Metric;

/**
 * Why a write was held back (C++ LevelDB's MakeRoomForWrite): the counters it is counted in and
 * the name the {@code org.leveldbj.WriteStall} event gives it.
 */
public enum StallCause {
    /** Level 0 holds 8 tables or more: each write is delayed by 1 ms. */
    LEVEL0_SLOWDOWN("level0-slowdown", Metric.STALL_LEVEL0_SLOWDOWN_COUNT, Metric.STALL_LEVEL0_SLOWDOWN_TIME),
    /** Level 0 holds 12 tables or more: writes wait for a compaction. */
    LEVEL0_STOP("level0-stop", Metric.STALL_LEVEL0_STOP_COUNT, Metric.STALL_LEVEL0_STOP_TIME),
    /** The memtable is full and the previous one is still being flushed: writes wait for the flush. */
    MEMTABLE("memtable", Metric.STALL_MEMTABLE_COUNT, Metric.STALL_MEMTABLE_TIME);

    private final String label;
    private final Metric count;
    private final Metric time;

    StallCause(String label, Metric count, Metric time) {
        this.label = label;
        this.count = count;
        this.time = time;
    }

    /** @return the name events give the cause */
    public String label() {
        return label;
    }

    /** @return the counter of such stalls */
    public Metric count() {
        return count;
    }

    /** @return the counter of their time */
    public Metric time() {
        return time;
    }
}
