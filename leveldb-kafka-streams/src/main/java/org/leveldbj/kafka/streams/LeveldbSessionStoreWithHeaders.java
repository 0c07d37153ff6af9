package org.leveldbj.kafka.streams;

import org.apache.kafka.streams.state.HeadersBytesStore;

/**
 * The session store Kafka Streams uses under {@code dsl.store.format=headers}: the same store as
 * {@link LeveldbSessionStore}, holding aggregates in Kafka's headers format (the store keeps the
 * bytes it is given; the marker tells Kafka Streams that no format adapter is needed). A
 * directory written by a plain session store must not be reopened as this one.
 */
public class LeveldbSessionStoreWithHeaders extends LeveldbSessionStore implements HeadersBytesStore {
    /**
     * @param name the store's name
     * @param retentionPeriod how long sessions are kept after their end, milliseconds
     * @param segmentInterval the segments' length, milliseconds, positive
     */
    public LeveldbSessionStoreWithHeaders(String name, long retentionPeriod, long segmentInterval) {
        super(name, retentionPeriod, segmentInterval);
    }

    /** As {@link LeveldbSessionStore}'s constructor of the same arguments. */
    LeveldbSessionStoreWithHeaders(String name, long retentionPeriod, long segmentInterval, boolean emitOnWindowClose) {
        super(name, retentionPeriod, segmentInterval, emitOnWindowClose);
    }
}
