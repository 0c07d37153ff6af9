package org.leveldbj.db;

import java.util.TreeMap;
import org.iq80.leveldb.Snapshot;

/**
 * The open snapshots of a database: a multiset of sequence numbers. Compactions keep every entry
 * the oldest snapshot may read.
 *
 * <p>Thread safety: all methods are synchronized on this object.
 *
 * <p>Lifetime: a snapshot is released by its {@code close()}; closing twice is harmless.
 */
final class SnapshotList {
    private final TreeMap<Long, Integer> counts = new TreeMap<>();

    /** A snapshot: the sequence number it reads at. */
    final class SnapshotImpl implements Snapshot {
        private final long sequence;
        private boolean closed;

        private SnapshotImpl(long sequence) {
            this.sequence = sequence;
        }

        long sequence() {
            return sequence;
        }

        boolean belongsTo(SnapshotList list) {
            return list == SnapshotList.this;
        }

        @Override
        public void close() {
            synchronized (SnapshotList.this) {
                if (!closed) {
                    closed = true;
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
     * @return the snapshot
     */
    synchronized SnapshotImpl create(long sequence) {
        counts.merge(sequence, 1, Integer::sum);
        return new SnapshotImpl(sequence);
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
