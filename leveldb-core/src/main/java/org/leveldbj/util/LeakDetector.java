package org.leveldbj.util;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.ref.Cleaner;
import java.util.ArrayList;
import java.util.List;

/**
 * Reports objects that must be closed (iterators, snapshots) but were reclaimed by the garbage
 * collector while still open, with the stack of the code that created them. An open iterator
 * pins a version and its table files, an open snapshot keeps compactions from dropping old
 * entries; forgetting to close either is a slow leak that is otherwise hard to find.
 *
 * <p>Opt-in: on when the system property {@value #PROPERTY} is {@code true} (read once, when
 * this class is loaded); off, {@link #track} returns {@code null} and costs one branch. On, each
 * tracked object records its creation stack (a {@link Throwable}, so a few microseconds per
 * creation), and a leak is logged at error level through {@code System.Logger} and kept for
 * {@link #takeReports()}.
 *
 * <p>The detector only reports: it does not release what the leaked object held, since that
 * would mean closing database resources from the garbage collector's thread.
 *
 * <p>Thread safety: safe for concurrent use.
 */
public final class LeakDetector {
    /** Guards the reports (doc/impl.md, Locks). */
    private static final OrderedLock REPORT_LOCK = new OrderedLock(LockRank.LEAK_REPORTS);
    /** The system property that turns detection on. */
    public static final String PROPERTY = "leveldbj.leakDetection";

    private static final boolean ENABLED = Boolean.getBoolean(PROPERTY);
    private static final System.Logger LOG = System.getLogger(LeakDetector.class.getName());
    private static final Cleaner CLEANER = ENABLED ? Cleaner.create() : null;
    /** Guarded by itself. */
    private static final List<String> REPORTS = new ArrayList<>();

    private LeakDetector() {
    }

    /** @return whether leak detection is on */
    public static boolean enabled() {
        return ENABLED;
    }

    /**
     * Starts tracking an object that must be closed.
     *
     * @param resource the object; it is not referenced by the tracking state
     * @param what names the object in a report, e.g. {@code "iterator of /data/db"}
     * @return the tracking state, to be {@link Tracked#closed() told} when the object is
     *     closed, or {@code null} when detection is off
     */
    public static Tracked track(Object resource, String what) {
        if (!ENABLED) {
            return null;
        }
        Tracked tracked = new Tracked(what, new Throwable("created here"));
        tracked.cleanable = CLEANER.register(resource, tracked);
        return tracked;
    }

    /**
     * Returns the leaks reported since the last call and forgets them.
     *
     * @return one message per leak, each with the creation stack
     */
    public static List<String> takeReports() {
        REPORT_LOCK.lock();
        try {
            List<String> out = new ArrayList<>(REPORTS);
            REPORTS.clear();
            return out;
        } finally {
            REPORT_LOCK.unlock();
        }
    }

    /** The state of one tracked object; runs as its cleaning action. */
    public static final class Tracked implements Runnable {
        private final String what;
        private final Throwable createdAt;
        private volatile boolean closed;
        private Cleaner.Cleanable cleanable;

        private Tracked(String what, Throwable createdAt) {
            this.what = what;
            this.createdAt = createdAt;
        }

        /** Records that the object was closed, and stops tracking it. */
        public void closed() {
            closed = true;
            cleanable.clean();
        }

        @Override
        public void run() {
            if (closed) {
                return;
            }
            StringWriter stack = new StringWriter();
            createdAt.printStackTrace(new PrintWriter(stack));
            String report = "leak: " + what + " was reclaimed by the garbage collector without close(); " + stack;
            REPORT_LOCK.lock();
            try {
                REPORTS.add(report);
            } finally {
                REPORT_LOCK.unlock();
            }
            LOG.log(System.Logger.Level.ERROR, () -> report);
        }
    }
}
