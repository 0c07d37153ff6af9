package org.leveldbj.env;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Caps how many files one {@link FileSystemEnv} keeps memory-mapped at a time. Each mapping
 * holds a permit from {@link #tryAcquire()} until its file is closed; when none is left, files
 * are read with positional reads instead. This bounds the address space and the number of kernel
 * mappings a database can use (Linux refuses mappings past {@code vm.max_map_count}).
 *
 * <p>Thread safety: lock-free and safe for concurrent use. Invariant:
 * {@code 0 <= available() <= max()}, provided every {@link #release()} matches a successful
 * {@link #tryAcquire()}.
 */
final class MappingLimiter {
    private final int max;
    /** Permits not handed out; changed only by compare-and-set, so it never goes negative. */
    private final AtomicInteger available;

    /**
     * Creates a limiter.
     *
     * @param max how many permits exist, at least {@code 0}; {@code 0} disables mapping
     */
    MappingLimiter(int max) {
        if (max < 0) {
            throw new IllegalArgumentException("the mapping limit must not be negative: max=" + max);
        }
        this.max = max;
        this.available = new AtomicInteger(max);
    }

    /**
     * Takes a permit if one is left; never waits.
     *
     * @return {@code true} when the caller now holds a permit and must {@link #release()} it
     */
    boolean tryAcquire() {
        while (true) {
            int current = available.get();
            if (current <= 0) {
                return false;
            }
            if (available.compareAndSet(current, current - 1)) {
                return true;
            }
        }
    }

    /** Returns a permit taken by {@link #tryAcquire()}. */
    void release() {
        int after = available.incrementAndGet();
        assert after <= max : "more permits released than acquired: available=" + after + " max=" + max;
    }

    /**
     * Returns how many permits are left.
     *
     * @return a snapshot; it may be stale by the time it is read
     */
    int available() {
        return available.get();
    }

    /**
     * Returns how many permits exist.
     *
     * @return the cap given at construction
     */
    int max() {
        return max;
    }
}
