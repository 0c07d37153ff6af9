package org.leveldbj.kafka.streams;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.query.FailureReason;
import org.apache.kafka.streams.query.KeyQuery;
import org.apache.kafka.streams.query.Position;
import org.apache.kafka.streams.query.PositionBound;
import org.apache.kafka.streams.query.QueryConfig;
import org.apache.kafka.streams.query.QueryResult;
import org.apache.kafka.streams.query.RangeQuery;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** IQv2 on the store: key and range queries, the position they report, and position bounds. */
class InteractiveQueryTest {
    @TempDir
    Path stateDir;

    private static Bytes key(String s) {
        return Bytes.wrap(s.getBytes());
    }

    @Test
    void keyAndRangeQueriesHonourThePositionBound() {
        MockProcessorContext<Object, Object> context = StoreFixture.context(stateDir.toFile(), new Properties());
        LeveldbKeyValueStore store = StoreFixture.init(new LeveldbKeyValueStore("iq"), context);
        context.setRecordMetadata("input", 0, 41);
        store.put(key("a"), new byte[] {1});
        context.setRecordMetadata("input", 0, 42);
        store.put(key("b"), new byte[] {2});
        Position reached = Position.emptyPosition().withComponent("input", 0, 42);
        assertEquals(reached, store.getPosition());

        QueryResult<byte[]> hit = store.query(KeyQuery.withKey(key("b")), PositionBound.at(reached), new QueryConfig(false));
        assertTrue(hit.isSuccess(), String.valueOf(hit));
        assertArrayEquals(new byte[] {2}, hit.getResult());
        assertEquals(reached, hit.getPosition());

        Position ahead = Position.emptyPosition().withComponent("input", 0, 43);
        QueryResult<byte[]> behind = store.query(KeyQuery.withKey(key("b")), PositionBound.at(ahead), new QueryConfig(false));
        assertFalse(behind.isSuccess());
        assertEquals(FailureReason.NOT_UP_TO_BOUND, behind.getFailureReason());

        QueryResult<KeyValueIterator<Bytes, byte[]>> range = store.query(RangeQuery.withRange(key("a"), key("b")),
                PositionBound.unbounded(), new QueryConfig(true));
        assertTrue(range.isSuccess(), String.valueOf(range));
        List<String> keys = new ArrayList<>();
        try (KeyValueIterator<Bytes, byte[]> it = range.getResult()) {
            it.forEachRemaining(kv -> keys.add(new String(kv.key.get())));
        }
        assertEquals(List.of("a", "b"), keys);
        assertFalse(range.getExecutionInfo().isEmpty(), "execution info when asked for");
        store.commit(Map.of());
        store.close();
    }

    @Test
    void thePositionSurvivesAReopen() {
        MockProcessorContext<Object, Object> context = StoreFixture.context(stateDir.toFile(), new Properties());
        LeveldbKeyValueStore store = StoreFixture.init(new LeveldbKeyValueStore("iq"), context);
        context.setRecordMetadata("input", 3, 7);
        store.put(key("a"), new byte[] {1});
        store.commit(Map.of());
        context.setRecordMetadata("input", 3, 8);
        store.put(key("b"), new byte[] {2});
        store.close();
        LeveldbKeyValueStore again = StoreFixture.init(new LeveldbKeyValueStore("iq"), context);
        assertEquals(Position.emptyPosition().withComponent("input", 3, 8), again.getPosition(),
                "the position as the store closed");
        assertArrayEquals(new byte[] {1}, again.get(key("a")));
        again.close();
    }
}
