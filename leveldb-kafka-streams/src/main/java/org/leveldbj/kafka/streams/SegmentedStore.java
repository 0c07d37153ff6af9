package org.leveldbj.kafka.streams;

import java.util.function.Consumer;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.iq80.leveldb.Options;

/**
 * A store whose data is kept in time segments of one database ({@link SegmentedData}): the window
 * and session stores. The segments are made for each {@link #init}, attached to the database when
 * it opens (their expiry runs through the database's compaction filter), and closed before it.
 *
 * <p>Thread safety: as {@link DatabaseStore}.
 */
abstract class SegmentedStore extends DatabaseStore {
    private final long retentionPeriod;
    private final long segmentInterval;
    /**
     * The segments of the store while open: its subclasses' methods read them directly, after
     * their own {@link #openDatabase()} check, rather than checking again at every use.
     */
    SegmentedData segments;

    /**
     * @param retentionPeriod how long data is kept, milliseconds
     * @param segmentInterval the segments' length, milliseconds, positive
     */
    SegmentedStore(String name, long retentionPeriod, long segmentInterval) {
        super(name);
        this.retentionPeriod = retentionPeriod;
        this.segmentInterval = segmentInterval;
    }

    @Override
    final Consumer<Options> engineOptions() {
        segments = new SegmentedData(name(), retentionPeriod, segmentInterval);
        return segments.options();
    }

    @Override
    void opened(StoreDatabase d, StateStoreContext context) {
        segments.attach(d, context);
    }

    @Override
    final void closing() {
        segments.close();
    }

    /**
     * @return the store's segments
     * @throws org.apache.kafka.streams.errors.InvalidStateStoreException when the store is not open
     */
    final SegmentedData segments() {
        openDatabase();
        return segments;
    }
}
