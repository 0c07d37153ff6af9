package org.leveldbj.db;

import java.util.TreeMap;
import org.iq80.leveldb.Snapshot;
import org.leveldbj.util.LeakDetector;

/**
 * The open snapshots of a database: a multiset of sequence numbers. Compactions keep every entry
 * the oldest snapshot may read.
 *
 * <p>Thread safety: all methods are synchronized on this object. The database creates snapshots
 * only while holding its lock, the lock under which a compaction reads {@link #oldest}, so a
 * compaction never misses a snapshot taken before it chose what to drop.
 *
 * <p>Lifetime: a snapshot is released by its {@code close()}; closing twice is harmless. A read
 * through a closed snapshot fails with a {@code DBException} ("snapshot is closed"): the
 * entries it would read may already be compacted away. With {@link LeakDetector} on, a snapshot
 * reclaimed without {@code close()} is reported with the stack that created it.
 */
final class SnapshotList {
    private final TreeMap<Long, Integer> counts = new TreeMap<>();

    /** A snapshot: the sequence number it reads at. */
    final class SnapshotImpl implements Snapshot {
        private final long sequence;
        /** Written under the list's monitor; volatile so reads can check it without it. */
        private volatile boolean closed;

        private final LeakDetector.Tracked tracked;

        private SnapshotImpl(long sequence, String what) {
            this.sequence = sequence;
            this.tracked = LeakDetector.track(this, "snapshot " + sequence + " of " + what);
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
            synchronized (SnapshotList.this) {
                if (!closed) {
                    closed = true;
                    if (tracked != null) {
                        tracked.closed();
                    }
                    counts.computeIfPresent(sequence, (k, v) -> v == 1 ? null : v - 1);
                }
            }
        }

        @Override
        public String toString() {
            return "Snapshot[" + sequence + (closed ? ", closed]" : "]");
        }
    }

    /**
     * Opens a snapshot.
     *
     * @param sequence the sequence number it reads at
     * @param what names the database, for leak reports
     * @return the snapshot
     */
    synchronized SnapshotImpl create(long sequence, String what) {
        counts.merge(sequence, 1, Integer::sum);
        return new SnapshotImpl(sequence, what);
    }

    /**
     * The oldest sequence number a reader may need.
     *
     * @param lastSequence the current last sequence number, used when no snapshot is open
     * @return the smallest open snapshot's sequence, or {@code lastSequence}
     */
    synchronized long oldest(long lastSequence) {
        return counts.isEmpty() ? lastSequence : counts.firstKey();
    }

    /** @return the number of open snapshots */
    synchronized int size() {
        return counts.values().stream().mapToInt(Integer::intValue).sum();
    }
}
