package org.leveldbj.kafka.streams;

import org.apache.kafka.streams.state.HeadersBytesStoreSupplier;

/**
 * The session store supplier of {@link LeveldbStores#persistentSessionStoreWithHeaders}: its
 * stores hold Kafka's aggregates with headers, which the marker tells Kafka Streams.
 *
 * <p>Thread safety: immutable.
 */
public final class LeveldbSessionHeadersBytesStoreSupplier extends LeveldbSessionBytesStoreSupplier
        implements HeadersBytesStoreSupplier {
    LeveldbSessionHeadersBytesStoreSupplier(String name, long retentionPeriod, boolean emitOnWindowClose) {
        super(name, retentionPeriod, true, emitOnWindowClose);
    }
}
