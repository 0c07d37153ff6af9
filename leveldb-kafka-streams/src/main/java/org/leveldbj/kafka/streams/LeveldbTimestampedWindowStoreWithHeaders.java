package org.leveldbj.kafka.streams;

import org.apache.kafka.streams.state.HeadersBytesStore;

/**
 * The window store Kafka Streams uses under {@code dsl.store.format=headers}: the same store as
 * {@link LeveldbTimestampedWindowStore}, holding values in Kafka's headers-and-timestamp format
 * (the store keeps the bytes it is given; the markers tell Kafka Streams that no format adapter
 * is needed). A directory written by another window store must not be reopened as this one.
 */
public class LeveldbTimestampedWindowStoreWithHeaders extends LeveldbTimestampedWindowStore implements HeadersBytesStore {
    /**
     * @param name the store's name
     * @param retentionPeriod how long windows are kept after their start, milliseconds
     * @param windowSize the windows' size, milliseconds
     * @param segmentInterval the segments' length, milliseconds, positive
     * @param retainDuplicates whether every put is a new entry
     */
    public LeveldbTimestampedWindowStoreWithHeaders(String name, long retentionPeriod, long windowSize,
                                                    long segmentInterval, boolean retainDuplicates) {
        super(name, retentionPeriod, windowSize, segmentInterval, retainDuplicates);
    }
}
