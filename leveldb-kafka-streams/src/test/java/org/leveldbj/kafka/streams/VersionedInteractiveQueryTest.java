package org.leveldbj.kafka.streams;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.query.FailureReason;
import org.apache.kafka.streams.query.KeyQuery;
import org.apache.kafka.streams.query.MultiVersionedKeyQuery;
import org.apache.kafka.streams.query.Position;
import org.apache.kafka.streams.query.PositionBound;
import org.apache.kafka.streams.query.QueryConfig;
import org.apache.kafka.streams.query.QueryResult;
import org.apache.kafka.streams.query.VersionedKeyQuery;
import org.apache.kafka.streams.state.VersionedRecord;
import org.apache.kafka.streams.state.VersionedRecordIterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** IQv2 on the versioned store: versioned key queries, multi-version queries, positions and bounds. */
class VersionedInteractiveQueryTest {
    @TempDir
    Path stateDir;

    private static final Bytes K = Bytes.wrap("k".getBytes());

    private LeveldbVersionedKeyValueStore store(MockProcessorContext<Object, Object> context) {
        LeveldbVersionedKeyValueStore store = StoreFixture.init(new LeveldbVersionedKeyValueStore("iq", 1000), context);
        long offset = 0;
        for (long ts : new long[] {10, 20, 30}) {
            context.setRecordMetadata("input", 0, offset++);
            store.put(K, new byte[] {(byte) ts}, ts);
        }
        context.setRecordMetadata("input", 0, offset++);
        store.delete(K, 40);
        context.setRecordMetadata("input", 0, offset);
        store.put(K, new byte[] {50}, 50);
        return store;
    }

    private static List<String> versions(QueryResult<VersionedRecordIterator<byte[]>> result) {
        assertTrue(result.isSuccess(), String.valueOf(result));
        List<String> out = new ArrayList<>();
        try (VersionedRecordIterator<byte[]> it = result.getResult()) {
            it.forEachRemaining(r -> out.add(r.value()[0] + "@" + r.timestamp() + "-" + r.validTo().map(String::valueOf).orElse("")));
        }
        return out;
    }

    @Test
    void versionedKeyQueriesReturnTheVersionAndItsValidity() {
        MockProcessorContext<Object, Object> context = StoreFixture.context(stateDir.toFile(), new Properties());
        LeveldbVersionedKeyValueStore store = store(context);
        QueryConfig config = new QueryConfig(false);
        QueryResult<VersionedRecord<byte[]>> latest = store.query(VersionedKeyQuery.withKey(K), PositionBound.unbounded(), config);
        assertTrue(latest.isSuccess());
        assertArrayEquals(new byte[] {50}, latest.getResult().value());
        assertEquals(50, latest.getResult().timestamp());
        assertEquals(Optional.empty(), latest.getResult().validTo(), "the latest version has no validTo");
        assertEquals(Position.emptyPosition().withComponent("input", 0, 4), latest.getPosition());

        VersionedRecord<byte[]> at25 = store.query(VersionedKeyQuery.<Bytes, byte[]>withKey(K).asOf(Instant.ofEpochMilli(25)),
                PositionBound.unbounded(), config).getResult();
        assertEquals(20, at25.timestamp());
        assertEquals(Optional.of(30L), at25.validTo());
        assertNull(store.query(VersionedKeyQuery.<Bytes, byte[]>withKey(K).asOf(Instant.ofEpochMilli(45)),
                PositionBound.unbounded(), config).getResult(), "deleted at 40");
        assertNull(store.query(VersionedKeyQuery.<Bytes, byte[]>withKey(K).asOf(Instant.ofEpochMilli(5)),
                PositionBound.unbounded(), config).getResult(), "before the first version");
        store.close();
    }

    @Test
    void multiVersionQueriesListTheVersionsValidInTheRange() {
        MockProcessorContext<Object, Object> context = StoreFixture.context(stateDir.toFile(), new Properties());
        LeveldbVersionedKeyValueStore store = store(context);
        QueryConfig config = new QueryConfig(false);
        MultiVersionedKeyQuery<Bytes, byte[]> all = MultiVersionedKeyQuery.withKey(K);
        assertEquals(List.of("50@50-", "30@30-40", "20@20-30", "10@10-20"), versions(store.query(all, PositionBound.unbounded(), config)),
                "newest first by default; the tombstone is not a version");
        assertEquals(List.of("10@10-20", "20@20-30", "30@30-40", "50@50-"),
                versions(store.query(all.withAscendingTimestamps(), PositionBound.unbounded(), config)));
        MultiVersionedKeyQuery<Bytes, byte[]> range = all.fromTime(Instant.ofEpochMilli(25)).toTime(Instant.ofEpochMilli(45));
        assertEquals(List.of("30@30-40", "20@20-30"), versions(store.query(range.withDescendingTimestamps(),
                PositionBound.unbounded(), config)), "valid at some time in [25, 45]");
        assertEquals(List.of("20@20-30", "30@30-40", "50@50-"),
                versions(store.query(all.fromTime(Instant.ofEpochMilli(20)).toTime(Instant.ofEpochMilli(50))
                        .withAscendingTimestamps(), PositionBound.unbounded(), config)), "both bounds inclusive");
        assertEquals(List.of(), versions(store.query(MultiVersionedKeyQuery.<Bytes, byte[]>withKey(Bytes.wrap("x".getBytes())),
                PositionBound.unbounded(), config)));
        store.close();
    }

    @Test
    void queriesHonourThePositionBoundAndOtherQueriesAreUnknown() {
        MockProcessorContext<Object, Object> context = StoreFixture.context(stateDir.toFile(), new Properties());
        LeveldbVersionedKeyValueStore store = store(context);
        Position reached = Position.emptyPosition().withComponent("input", 0, 4);
        QueryResult<VersionedRecord<byte[]>> ok = store.query(VersionedKeyQuery.withKey(K), PositionBound.at(reached),
                new QueryConfig(true));
        assertTrue(ok.isSuccess());
        assertFalse(ok.getExecutionInfo().isEmpty(), "execution info when asked for");
        QueryResult<VersionedRecord<byte[]>> behind = store.query(VersionedKeyQuery.withKey(K),
                PositionBound.at(Position.emptyPosition().withComponent("input", 0, 5)), new QueryConfig(false));
        assertFalse(behind.isSuccess());
        assertEquals(FailureReason.NOT_UP_TO_BOUND, behind.getFailureReason());
        QueryResult<VersionedRecordIterator<byte[]>> behindMulti = store.query(MultiVersionedKeyQuery.withKey(K),
                PositionBound.at(Position.emptyPosition().withComponent("input", 0, 5)), new QueryConfig(false));
        assertEquals(FailureReason.NOT_UP_TO_BOUND, behindMulti.getFailureReason());
        QueryResult<byte[]> keyQuery = store.query(KeyQuery.withKey(K), PositionBound.unbounded(), new QueryConfig(false));
        assertEquals(FailureReason.UNKNOWN_QUERY_TYPE, keyQuery.getFailureReason());
        store.close();
    }
}
