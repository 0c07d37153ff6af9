package org.leveldbj.background;

import java.util.function.BooleanSupplier;

/**
 * One database's place in a {@link Pool}: it asks for background steps through
 * {@link #schedule()}, and the pool runs them one at a time, each on whichever of its threads
 * takes it (see the package overview for the order).
 *
 * <p>Thread safety: safe for concurrent use; the fields below are guarded by the pool's lock
 * and touched only by the pool. Lifetime: made by {@link Pool#register}; {@link #close()} takes
 * it out of the pool, after which it runs nothing.
 */
public final class Lane {
    /** A database's background step. */
    @FunctionalInterface
    public interface Step {
        /**
         * Runs one step.
         *
         * @param urgentOnly {@code true} when the step runs on a thread that interrupted another
         *     database's compaction for it ({@link #help()}): it must then only flush (or sweep),
         *     never compact
         */
        void run(boolean urgentOnly);
    }

    /** Which queue of the pool the lane waits in. */
    enum Queue {
        NONE,
        FLUSHES,
        COMPACTIONS
    }

    final Pool pool;
    final String name;
    final Step step;
    /** Whether the next step is a flush (read without any lock of the database: volatile). */
    final BooleanSupplier urgent;

    // Guarded by pool.lock.
    /** The queue the lane waits in. */
    Queue queued = Queue.NONE;
    /** The thread running the lane's step, or null. */
    Thread runner;
    /** Asked for again while its step ran: queued again when the step ends. */
    boolean again;
    boolean closed;
    /** Steps run, and of them those run by a compacting thread of another lane ({@link #help}). */
    long steps;
    long helped;

    Lane(Pool pool, String name, Step step, BooleanSupplier urgent) {
        this.pool = pool;
        this.name = name;
        this.step = step;
        this.urgent = urgent;
    }

    /**
     * Asks for a step: queues the lane unless it waits already (a lane waiting for a compaction
     * moves to the flush queue when {@code urgent} now says so), or marks it to be queued again
     * when its running step ends. Does nothing once closed. May be called with the database's
     * locks held.
     */
    public void schedule() {
        pool.schedule(this);
    }

    /**
     * Runs a task on the pool, independently of the lane's steps (it may run while a step runs,
     * and {@link #close()} drops it if it has not started). For value-file syncs, which whoever
     * needs one first runs.
     *
     * @param task the task; it must not throw
     */
    public void execute(Runnable task) {
        pool.execute(this, task);
    }

    /**
     * Called by this lane's running compaction between entries: when other lanes wait for a
     * flush, runs their steps here, each with {@code urgentOnly}, then returns.
     *
     * @return the nanoseconds spent on other lanes' steps; 0 when none waited
     */
    public long help() {
        return pool.help(this);
    }

    /**
     * Takes the lane out of the pool: drops its waiting step and tasks and waits for its running
     * step, if any (unless the caller is running it). Idempotent.
     */
    public void close() {
        pool.close(this);
    }

    /** @return the pool */
    public Pool pool() {
        return pool;
    }

    @Override
    public String toString() {
        return "Lane[" + name + "]";
    }
}
