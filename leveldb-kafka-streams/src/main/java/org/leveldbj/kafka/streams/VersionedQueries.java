package org.leveldbj.kafka.streams;

import java.time.Instant;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.query.FailureReason;
import org.apache.kafka.streams.query.MultiVersionedKeyQuery;
import org.apache.kafka.streams.query.Position;
import org.apache.kafka.streams.query.PositionBound;
import org.apache.kafka.streams.query.Query;
import org.apache.kafka.streams.query.QueryConfig;
import org.apache.kafka.streams.query.QueryResult;
import org.apache.kafka.streams.query.VersionedKeyQuery;
import org.apache.kafka.streams.state.internals.StoreQueryUtils;

/**
 * The interactive queries a versioned store answers, at the byte level that Kafka's metered
 * versioned store asks them: {@code VersionedKeyQuery<Bytes, byte[]>} (result a
 * {@code VersionedRecord<byte[]>} or {@code null}) and {@code MultiVersionedKeyQuery<Bytes, byte[]>}
 * (result a {@code VersionedRecordIterator<byte[]>}; a missing fromTime or toTime is unbounded).
 * A query is answered only when the store's position reaches the {@link PositionBound} for the
 * task's partition; every result carries a copy of the position. Another query type is
 * {@link QueryResult#forUnknownQueryType unknown}; a store failure is a
 * {@link FailureReason#STORE_EXCEPTION} result.
 *
 * <p>Thread safety: runs under the position's lock, which the store's writes also take.
 */
final class VersionedQueries {
    private VersionedQueries() {
    }

    @SuppressWarnings("unchecked")
    static <R> QueryResult<R> handle(LeveldbVersionedKeyValueStore store, Query<R> query, PositionBound bound,
                                     QueryConfig config, Position position, StateStoreContext context) {
        long start = config.isCollectExecutionInfo() ? System.nanoTime() : -1L;
        QueryResult<R> result;
        synchronized (position) {
            boolean known = query instanceof VersionedKeyQuery || query instanceof MultiVersionedKeyQuery;
            if (!known) {
                result = QueryResult.forUnknownQueryType(query, store);
            } else if (context == null || !StoreQueryUtils.isPermitted(position, bound, context.taskId().partition())) {
                result = QueryResult.notUpToBound(position, bound, context == null ? null : context.taskId().partition());
            } else {
                try {
                    result = (QueryResult<R>) QueryResult.forResult(run(store, query));
                } catch (RuntimeException e) {
                    result = QueryResult.forFailure(FailureReason.STORE_EXCEPTION, "store " + store.name()
                            + " failed to answer " + query + ": " + e);
                }
            }
            if (config.isCollectExecutionInfo()) {
                result.addExecutionInfo("Handled in " + store.getClass() + " in " + (System.nanoTime() - start) + "ns");
            }
            result.setPosition(position.copy());
        }
        return result;
    }

    @SuppressWarnings("unchecked")
    private static Object run(LeveldbVersionedKeyValueStore store, Query<?> query) {
        if (query instanceof VersionedKeyQuery<?, ?> q) {
            Long asOf = q.asOfTimestamp().map(Instant::toEpochMilli).orElse(null);
            return store.versionedRecord((Bytes) q.key(), asOf);
        }
        MultiVersionedKeyQuery<Bytes, byte[]> q = (MultiVersionedKeyQuery<Bytes, byte[]>) query;
        long from = q.fromTime().map(Instant::toEpochMilli).orElse(Long.MIN_VALUE);
        long to = q.toTime().map(Instant::toEpochMilli).orElse(Long.MAX_VALUE);
        return store.versions(q.key(), from, to, q.resultOrder());
    }
}
