package org.leveldbj.stats;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.LongAdder;
import org.iq80.leveldb.Metric;
import org.iq80.leveldb.Statistics;

/**
 * The counters of one open database: the {@link Metric}s of kind counter that the engine counts
 * as it works (the table cache's hits and misses and the value log's bytes are counted where
 * those live).
 *
 * <p>Thread safety: the read-path counters ({@link #countGet}, {@link #countSeek},
 * {@link #countBlockLookup}) may be bumped by any thread without a lock (they are
 * {@link LongAdder}s). The others ({@link #add(Metric, long)}, {@link #add(Metric, int, long)},
 * {@link #stalled}) are single-writer slots: Requires: their writers are serialized, which the
 * engine does by bumping them with the database lock held. Any thread may read every counter at
 * any time ({@link #addTo}): a slot is read with an opaque load, so it is never torn, and a
 * count is at least every increment that happened before the read.
 */
public final class Counters {
    private static final VarHandle SLOTS = MethodHandles.arrayElementVarHandle(long[].class);
    private static final int LEVELS = Statistics.LEVELS;

    private final LongAdder getsFound = new LongAdder();
    private final LongAdder getsMissed = new LongAdder();
    private final LongAdder seeks = new LongAdder();
    private final LongAdder blockHits = new LongAdder();
    private final LongAdder blockMisses = new LongAdder();

    /** Single-writer slots: {@code LEVELS} per metric, by ordinal; a scalar metric uses its first. */
    private final long[] slots = new long[Metric.values().length * LEVELS];

    /**
     * Counts a point lookup.
     *
     * @param found whether it found a value
     */
    public void countGet(boolean found) {
        (found ? getsFound : getsMissed).increment();
    }

    /** Counts an iterator positioning (seek, seek to first, seek to last). */
    public void countSeek() {
        seeks.increment();
    }

    /**
     * Counts a lookup in the block cache.
     *
     * @param hit whether the cache held the block
     */
    public void countBlockLookup(boolean hit) {
        (hit ? blockHits : blockMisses).increment();
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
        long found = getsFound.sum();
        stats.set(Metric.GETS, found + getsMissed.sum());
        stats.set(Metric.KEYS_READ, found);
        stats.set(Metric.ITERATOR_SEEKS, seeks.sum());
        stats.set(Metric.BLOCK_CACHE_HITS, blockHits.sum());
        stats.set(Metric.BLOCK_CACHE_MISSES, blockMisses.sum());
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
