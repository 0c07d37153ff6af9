package org.leveldbj.kafka.streams;

import org.apache.kafka.streams.state.HeadersBytesStoreSupplier;

/**
 * The window store supplier of {@link LeveldbStores#persistentTimestampedWindowStoreWithHeaders}:
 * its stores hold Kafka's headers-and-timestamp values, which the marker tells Kafka Streams.
 *
 * <p>Thread safety: immutable.
 */
public final class LeveldbWindowHeadersBytesStoreSupplier extends LeveldbWindowBytesStoreSupplier
        implements HeadersBytesStoreSupplier {
    LeveldbWindowHeadersBytesStoreSupplier(String name, long retentionPeriod, long windowSize,
                                           boolean retainDuplicates) {
        super(name, retentionPeriod, windowSize, retainDuplicates, Format.HEADERS);
    }
}
