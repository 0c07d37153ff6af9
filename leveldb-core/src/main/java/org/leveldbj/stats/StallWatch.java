package org.leveldbj.stats;

/**
 * Times the stalls of the write being made room for: one stall per cause per write, however
 * many times the write wakes up and waits again for the same cause. {@link #waiting} is called
 * before each wait, {@link #end} once the write may go on (or fails).
 *
 * <p>Thread safety: used by the write leader only, with the database lock held at
 * {@link #waiting} and {@link #end} (so the counters are bumped under it).
 */
public final class StallWatch {
    private final Counters counters;
    private final String directory;
    private StallCause cause;
    private long start;
    private WriteStallEvent event;

    /**
     * Creates the watch of a database's write queue.
     *
     * @param counters the database's counters
     * @param directory the database directory, for events
     */
    public StallWatch(Counters counters, String directory) {
        this.counters = counters;
        this.directory = directory;
    }

    /**
     * Notes that the write is about to wait; a stall starts unless one of the same cause is
     * under way.
     *
     * @param why what the write waits for
     */
    public void waiting(StallCause why) {
        if (why == cause) {
            return;
        }
        end();
        cause = why;
        start = System.nanoTime();
        event = WriteStallEvent.start();
    }

    /** Ends the stall under way, if any: counts it and records its event. */
    public void end() {
        if (cause == null) {
            return;
        }
        counters.stalled(cause, System.nanoTime() - start);
        event.finish(directory, cause);
        cause = null;
        event = null;
    }
}
