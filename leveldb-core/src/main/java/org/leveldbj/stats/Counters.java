package org.leveldbj.stats;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.iq80.leveldb.Metric;
import org.iq80.leveldb.Statistics;

/**
 * The counters of one open database: the {@link Metric}s of kind counter that the engine counts
 * as it works (the table cache's hits and misses and the value log's bytes are counted where
 * those live).
 *
 * <p>Thread safety: the read-path counters ({@link #countGet}, {@link #countSeek},
 * {@link #countBlockLookup}) may be bumped by any thread without a lock (each thread bumps a
 * cell of its own, {@link ThreadCells}). The others ({@link #add(Metric, long)}, {@link #add(Metric, int, long)},
 * {@link #stalled}) are single-writer slots: Requires: their writers are serialized, which the
 * engine does by bumping them with the database lock held. Any thread may read every counter at
 * any time ({@link #addTo}): a slot is read with an opaque load, so it is never torn, and a
 * count is at least every increment that happened before the read.
 */
public final class Counters {
    private static final VarHandle SLOTS = MethodHandles.arrayElementVarHandle(long[].class);
    private static final int LEVELS = Statistics.LEVELS;

    /** The read path's counters, by slot. */
    private static final int GETS_FOUND = 0;
    private static final int GETS_MISSED = 1;
    private static final int SEEKS = 2;
    private static final int BLOCK_HITS = 3;
    private static final int BLOCK_MISSES = 4;
    private final ThreadCells reads = new ThreadCells(5);

    /** Single-writer slots: {@code LEVELS} per metric, by ordinal; a scalar metric uses its first. */
    private final long[] slots = new long[Metric.values().length * LEVELS];

    /**
     * Counts a point lookup.
     *
     * @param found whether it found a value
     */
    public void countGet(boolean found) {
        reads.increment(found ? GETS_FOUND : GETS_MISSED);
    }

    /** Counts an iterator positioning (seek, seek to first, seek to last). */
    public void countSeek() {
        reads.increment(SEEKS);
    }

    /**
     * Counts a lookup in the block cache.
     *
     * @param hit whether the cache held the block
     */
    public void countBlockLookup(boolean hit) {
        reads.increment(hit ? BLOCK_HITS : BLOCK_MISSES);
    }

    /**
     * Adds to a single-writer counter. Requires: writers serialized (the database lock).
     *
     * @param metric a counter that is not per level, nor one of the read path's
     * @param delta what to add
     */
    public void add(Metric metric, long delta) {
        assert !metric.perLevel() && isSlot(metric) : metric;
        bump(metric.ordinal() * LEVELS, delta);
    }

    /**
     * Adds to one level of a per-level single-writer counter. Requires: writers serialized (the
     * database lock).
     *
     * @param metric a per-level counter
     * @param level the level
     * @param delta what to add
     */
    public void add(Metric metric, int level, long delta) {
        assert metric.perLevel() && metric.kind() == Metric.Kind.COUNTER : metric;
        bump(metric.ordinal() * LEVELS + level, delta);
    }

    /**
     * Counts one write stall. Requires: writers serialized (the database lock).
     *
     * @param cause why the write was held back
     * @param nanos for how long
     */
    public void stalled(StallCause cause, long nanos) {
        add(cause.count(), 1);
        add(cause.time(), nanos);
    }

    private void bump(int slot, long delta) {
        SLOTS.setOpaque(slots, slot, (long) SLOTS.getOpaque(slots, slot) + delta);
    }

    private long slot(int slot) {
        return (long) SLOTS.getOpaque(slots, slot);
    }

    private static boolean isSlot(Metric m) {
        switch (m) {
            case GETS:
            case KEYS_READ:
            case ITERATOR_SEEKS:
            case BLOCK_CACHE_HITS:
            case BLOCK_CACHE_MISSES:
            case TABLE_CACHE_HITS:
            case TABLE_CACHE_MISSES:
            case VALUE_BYTES_WRITTEN:
                return false;
            default:
                return m.kind() == Metric.Kind.COUNTER;
        }
    }

    /**
     * Sets every counter this object keeps in a snapshot being built.
     *
     * @param stats the builder
     */
    public void addTo(Statistics.Builder stats) {
        long[] read = reads.sum();
        stats.set(Metric.GETS, read[GETS_FOUND] + read[GETS_MISSED]);
        stats.set(Metric.KEYS_READ, read[GETS_FOUND]);
        stats.set(Metric.ITERATOR_SEEKS, read[SEEKS]);
        stats.set(Metric.BLOCK_CACHE_HITS, read[BLOCK_HITS]);
        stats.set(Metric.BLOCK_CACHE_MISSES, read[BLOCK_MISSES]);
        for (Metric m : Metric.values()) {
            if (!isSlot(m)) {
                continue;
            }
            int base = m.ordinal() * LEVELS;
            if (m.perLevel()) {
                for (int level = 0; level < LEVELS; level++) {
                    stats.set(m, level, slot(base + level));
                }
            } else {
                stats.set(m, slot(base));
            }
        }
    }
}
