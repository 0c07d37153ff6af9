package org.leveldbj.kafka.streams;

import org.apache.kafka.streams.state.TimestampedBytesStore;

/**
 * The window store of {@code Stores.timestampedWindowStoreBuilder} and the DSL's windowed
 * aggregations: {@link LeveldbWindowStore}, its values in Kafka's timestamped format (an
 * eight-byte timestamp before the value bytes). The marker interface tells Kafka Streams that no
 * format adapter is needed. A directory written by a plain window store must not be reopened as
 * this one (give it another name).
 */
public class LeveldbTimestampedWindowStore extends LeveldbWindowStore implements TimestampedBytesStore {
    /**
     * @param name the store's name
     * @param retentionPeriod how long windows are kept after their start, milliseconds
     * @param windowSize the windows' size, milliseconds
     * @param segmentInterval the segments' length, milliseconds, positive
     * @param retainDuplicates whether every put is a new entry
     */
    public LeveldbTimestampedWindowStore(String name, long retentionPeriod, long windowSize, long segmentInterval,
                                         boolean retainDuplicates) {
        super(name, retentionPeriod, windowSize, segmentInterval, retainDuplicates);
    }
}
