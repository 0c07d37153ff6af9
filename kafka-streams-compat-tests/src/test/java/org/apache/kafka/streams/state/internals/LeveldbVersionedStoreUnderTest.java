package org.apache.kafka.streams.state.internals;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.query.MultiVersionedKeyQuery;
import org.apache.kafka.streams.query.Position;
import org.apache.kafka.streams.query.PositionBound;
import org.apache.kafka.streams.query.Query;
import org.apache.kafka.streams.query.QueryConfig;
import org.apache.kafka.streams.query.QueryResult;
import org.apache.kafka.streams.query.ResultOrder;
import org.apache.kafka.streams.query.VersionedKeyQuery;
import org.apache.kafka.streams.state.VersionedKeyValueStore;
import org.apache.kafka.streams.state.VersionedRecord;
import org.apache.kafka.streams.state.VersionedRecordIterator;
import org.leveldbj.kafka.streams.LeveldbStores;
import org.leveldbj.kafka.streams.LeveldbVersionedKeyValueStore;

/**
 * The store of the patched {@code RocksDBVersionedStoreTest}: our
 * {@link LeveldbVersionedKeyValueStore}, from {@link LeveldbStores#persistentVersionedKeyValueStore(String, Duration, Duration)},
 * seen through the methods the suite calls on Kafka's {@code RocksDBVersionedStore} (same
 * constructor, {@code VersionedKeyValueStore<Bytes, byte[]>}, and the multi-version
 * {@code get(key, fromTime, toTime, order)}), so that the patch changes only the class named.
 *
 * <p>Ours is a {@code VersionedBytesStore} (what Kafka's supplier hands out around its store): its
 * {@code get} and {@code delete} return Kafka's {@code ValueAndTimestamp} bytes, which have no
 * validTo. So reads go through the store's public interactive queries, which answer with
 * {@code VersionedRecord}s carrying validTo ({@code VersionedKeyQuery} for {@code get},
 * {@code MultiVersionedKeyQuery} for the time range), unbounded by position; {@code delete}
 * decodes the bytes it returns (value and timestamp, which is all the suite checks of it). Puts
 * go to the store unchanged. Restoration does not go through here: the patch hands the
 * changelog records to the callback the store registered with the suite's context.
 */
public final class LeveldbVersionedStoreUnderTest implements VersionedKeyValueStore<Bytes, byte[]> {
    private final LeveldbVersionedKeyValueStore store;

    /**
     * As Kafka's {@code RocksDBVersionedStore} constructor.
     *
     * @param name the store's name
     * @param metricsScope Kafka's metrics scope; ours has its own, so unused
     * @param historyRetention the history retention, in milliseconds
     * @param segmentInterval Kafka's segment interval, in milliseconds (validated, then unused:
     *     ours has no segments)
     */
    public LeveldbVersionedStoreUnderTest(String name, String metricsScope, long historyRetention, long segmentInterval) {
        store = (LeveldbVersionedKeyValueStore) LeveldbStores.persistentVersionedKeyValueStore(
                name, Duration.ofMillis(historyRetention), Duration.ofMillis(segmentInterval)).get();
    }

    @Override
    public String name() {
        return store.name();
    }

    @Override
    public void init(StateStoreContext context, StateStore root) {
        store.init(context, root);
    }

    @Override
    public long put(Bytes key, byte[] value, long timestamp) {
        return store.put(key, value, timestamp);
    }

    @Override
    public VersionedRecord<byte[]> delete(Bytes key, long timestamp) {
        byte[] valueAndTimestamp = store.delete(key, timestamp);
        return valueAndTimestamp == null
                ? null
                : new VersionedRecord<>(ValueAndTimestampDeserializer.rawValue(valueAndTimestamp),
                        ValueAndTimestampDeserializer.timestamp(valueAndTimestamp));
    }

    @Override
    public VersionedRecord<byte[]> get(Bytes key) {
        return query(VersionedKeyQuery.withKey(key));
    }

    @Override
    public VersionedRecord<byte[]> get(Bytes key, long asOfTimestamp) {
        return query(VersionedKeyQuery.<Bytes, byte[]>withKey(key).asOf(Instant.ofEpochMilli(asOfTimestamp)));
    }

    /**
     * As Kafka's {@code RocksDBVersionedStore.get(key, fromTime, toTime, order)}.
     *
     * @param key the key
     * @param fromTime the earliest time
     * @param toTime the latest time
     * @param order the order of the timestamps
     * @return the value versions valid in the range
     */
    public VersionedRecordIterator<byte[]> get(Bytes key, long fromTime, long toTime, ResultOrder order) {
        MultiVersionedKeyQuery<Bytes, byte[]> q = MultiVersionedKeyQuery.<Bytes, byte[]>withKey(key)
                .fromTime(Instant.ofEpochMilli(fromTime))
                .toTime(Instant.ofEpochMilli(toTime));
        if (order == ResultOrder.ASCENDING) {
            q = q.withAscendingTimestamps();
        } else if (order == ResultOrder.DESCENDING) {
            q = q.withDescendingTimestamps();
        }
        return query(q);
    }

    private <R> R query(Query<R> query) {
        QueryResult<R> result = store.query(query, PositionBound.unbounded(), new QueryConfig(false));
        if (!result.isSuccess()) {
            throw new IllegalStateException(query + " failed on " + store.name() + ": "
                    + result.getFailureReason() + ": " + result.getFailureMessage());
        }
        return result.getResult();
    }

    @Override
    public void commit(Map<TopicPartition, Long> changelogOffsets) {
        store.commit(changelogOffsets);
    }

    @Override
    public Long committedOffset(TopicPartition partition) {
        return store.committedOffset(partition);
    }

    @Override
    @SuppressWarnings("deprecation")
    public boolean managesOffsets() {
        return store.managesOffsets();
    }

    @Override
    public void close() {
        store.close();
    }

    @Override
    public boolean persistent() {
        return store.persistent();
    }

    @Override
    public boolean isOpen() {
        return store.isOpen();
    }

    @Override
    public <R> QueryResult<R> query(Query<R> query, PositionBound positionBound, QueryConfig config) {
        return store.query(query, positionBound, config);
    }

    @Override
    public Position getPosition() {
        return store.getPosition();
    }
}
