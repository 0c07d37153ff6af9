package org.leveldbj.engine;

import java.util.TreeMap;
import java.util.function.LongSupplier;
import org.iq80.leveldb.Snapshot;
import org.leveldbj.util.LeakDetector;
import org.leveldbj.util.LockRank;
import org.leveldbj.util.OrderedLock;

/**
 * The open snapshots of a database: a multiset of sequence numbers. Compactions keep every entry
 * the oldest snapshot may read.
 *
 * <p>Thread safety: all methods take this object's lock (rank {@link LockRank#SNAPSHOTS}), and the database's last
 * sequence number is read inside them: a new snapshot reads it and registers under this
 * object's lock, the lock under which a compaction reads the oldest snapshot (or, with none,
 * the last sequence number), so a compaction never misses a snapshot taken before it chose what
 * to drop, and a snapshot taken after sees a sequence number at or past the compaction's. Neither
 * takes the database's lock.
 *
 * <p>Lifetime: a snapshot is released by its {@code close()}; closing twice is harmless. A read
 * through a closed snapshot fails with a {@code DBException} ("snapshot is closed"): the
 * entries it would read may already be compacted away. With {@link LeakDetector} on, a snapshot
 * reclaimed without {@code close()} is reported with the stack that created it.
 *
 * <p>The gate: while an ingestion commits ({@link #closeGate()} to {@link #openGate()}, one
 * MANIFEST write), new snapshots wait.
 */
final class SnapshotList {
    /** This object's lock (doc/impl.md, Locks). */
    private final OrderedLock lock = new OrderedLock(LockRank.SNAPSHOTS);
    private final TreeMap<Long, Integer> counts = new TreeMap<>();
    /** Signalled when the gate opens. */
    private final java.util.concurrent.locks.Condition gateOpened = lock.newCondition();
    /** Whether new snapshots wait (see {@link #closeGate()}). Guarded by {@link #lock}. */
    private boolean gated;

    /** A snapshot: the sequence number it reads at. */
    final class SnapshotImpl implements Snapshot {
        private final long sequence;
        /** Written under the list's lock; volatile so reads can check it without it. */
        private volatile boolean closed;

        private final LeakDetector.Tracked tracked;

        private SnapshotImpl(long sequence, String what) {
            this.sequence = sequence;
            this.tracked = LeakDetector.enabled() ? LeakDetector.track(this, "snapshot " + sequence + " of " + what) : null;
        }

        long sequence() {
            return sequence;
        }

        boolean isClosed() {
            return closed;
        }

        boolean belongsTo(SnapshotList list) {
            return list == SnapshotList.this;
        }

        @Override
        public void close() {
            lock.lock();
            try {
                if (!closed) {
                    closed = true;
                    if (tracked != null) {
                        tracked.closed();
                    }
                    counts.computeIfPresent(sequence, (k, v) -> v == 1 ? null : v - 1);
                }
            } finally {
                lock.unlock();
            }
        }

        @Override
        public String toString() {
            return "Snapshot[" + sequence + (closed ? ", closed]" : "]");
        }
    }

    /**
     * Opens a snapshot at the database's last sequence number, read under this list's lock.
     *
     * @param lastSequence reads the database's last sequence number
     * @param what names the database, for leak reports
     * @param hookForTesting run between reading the sequence and registering it, or {@code null}
     * @return the snapshot
     */
    SnapshotImpl create(LongSupplier lastSequence, String what, Runnable hookForTesting) {
        lock.lock();
        try {
            while (gated) {
                gateOpened.awaitUninterruptibly();
            }
            long sequence = lastSequence.getAsLong();
            if (hookForTesting != null) {
                hookForTesting.run();
            }
            counts.merge(sequence, 1, Integer::sum);
            return new SnapshotImpl(sequence, what);
        } finally {
            lock.unlock();
        }
    }

    /**
     * The oldest sequence number a reader may need.
     *
     * @param lastSequence reads the current last sequence number, used when no snapshot is open
     * @return the smallest open snapshot's sequence, or {@code lastSequence}
     */
    long oldest(LongSupplier lastSequence) {
        lock.lock();
        try {
            return counts.isEmpty() ? lastSequence.getAsLong() : counts.firstKey();
        } finally {
            lock.unlock();
        }
    }

    /**
     * The newest open snapshot's sequence number: entries above it are read by no snapshot open
     * now (a compaction filter may decide about them).
     *
     * @return the largest open snapshot's sequence, or {@code -1} when none is open
     */
    long newest() {
        lock.lock();
        try {
            return counts.isEmpty() ? -1 : counts.lastKey();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Makes new snapshots wait until {@link #openGate()}, and tells whether none is open now:
     * an ingestion that stores sequence number 0 (visible to every snapshot) commits only while
     * no snapshot exists, and none may appear before its version is published. Requires: one
     * gate at a time (the database's background step).
     *
     * @return whether no snapshot is open
     */
    boolean closeGate() {
        lock.lock();
        try {
            assert !gated;
            gated = true;
            return counts.isEmpty();
        } finally {
            lock.unlock();
        }
    }

    /** Lets snapshots be taken again, waking those that wait. */
    void openGate() {
        lock.lock();
        try {
            gated = false;
            gateOpened.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** @return the number of open snapshots */
    int size() {
        lock.lock();
        try {
            return counts.values().stream().mapToInt(Integer::intValue).sum();
        } finally {
            lock.unlock();
        }
    }
}
