package org.leveldbj.kafka.streams;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Restoration from the changelog: batches of records, tombstones included, written atomically. */
class RestoreTest {
    @TempDir
    Path stateDir;

    @Test
    void aRestoredBatchAppliesPutsAndTombstonesInOrder() {
        MockProcessorContext<Object, Object> context = StoreFixture.context(stateDir.toFile(), new Properties());
        LeveldbKeyValueStore store = StoreFixture.init(new LeveldbKeyValueStore("restored"), context);
        List<ConsumerRecord<byte[], byte[]>> batch = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            batch.add(new ConsumerRecord<>("app-restored-changelog", 0, i, ("k" + i % 1000).getBytes(), ("v" + i).getBytes()));
        }
        batch.add(new ConsumerRecord<>("app-restored-changelog", 0, 10_000, "k7".getBytes(), null));
        store.restoreBatch(batch);
        assertArrayEquals("v9999".getBytes(), store.get(Bytes.wrap("k999".getBytes())), "the last record of a key wins");
        assertNull(store.get(Bytes.wrap("k7".getBytes())), "a tombstone deletes");
        assertEquals(999, countAll(store));
        assertEquals(999, store.approximateNumEntries(), "exact while the store is small");
        store.close();
    }

    @Test
    void theEstimateOfALargeStoreIsWithinAFactorOfTwo() {
        MockProcessorContext<Object, Object> context = StoreFixture.context(stateDir.toFile(), new Properties());
        LeveldbKeyValueStore store = StoreFixture.init(new LeveldbKeyValueStore("large"), context);
        List<ConsumerRecord<byte[], byte[]>> batch = new ArrayList<>();
        for (int i = 0; i < 50_000; i++) {
            batch.add(new ConsumerRecord<>("t", 0, i, String.format("key%08d", i).getBytes(), new byte[40]));
        }
        store.restoreBatch(batch);
        long estimate = store.approximateNumEntries();
        assertTrue(estimate >= 25_000 && estimate <= 100_000, "estimate " + estimate + " for 50,000 entries");
        store.close();
    }

    @Test
    void recordsInKeyOrderIntoAnEmptyStoreAreIngestedAsTablesAndTheRunEndsCorrectly() {
        MockProcessorContext<Object, Object> context = StoreFixture.context(stateDir.toFile(), new Properties());
        LeveldbKeyValueStore store = StoreFixture.init(new LeveldbKeyValueStore("sorted"), context);
        java.util.TreeMap<String, String> model = new java.util.TreeMap<>();
        long offset = 0;
        // Three batches in key order (a deletion of a new key among them), then a read that
        // ends the run's first part, a fourth batch that continues it, then a record out of order.
        for (int b = 0; b < 4; b++) {
            List<ConsumerRecord<byte[], byte[]>> batch = new ArrayList<>();
            for (int i = 0; i < 1000; i++) {
                String key = String.format("k%06d", b * 1000 + i);
                String value = i == 500 ? null : "v" + offset;
                batch.add(new ConsumerRecord<>("t", 0, offset++, key.getBytes(), value == null ? null : value.getBytes()));
                if (value != null) {
                    model.put(key, value);
                }
            }
            store.restoreBatch(batch);
            if (b == 2) {
                assertArrayEquals("v1".getBytes(), store.get(Bytes.wrap("k000001".getBytes())));
            }
        }
        List<ConsumerRecord<byte[], byte[]>> tail = new ArrayList<>();
        tail.add(new ConsumerRecord<>("t", 0, offset++, "k000002".getBytes(), "late".getBytes()));
        tail.add(new ConsumerRecord<>("t", 0, offset++, "k000003".getBytes(), null));
        tail.add(new ConsumerRecord<>("t", 0, offset++, "zzz".getBytes(), "last".getBytes()));
        model.put("k000002", "late");
        model.remove("k000003");
        model.put("zzz", "last");
        store.restoreBatch(tail);
        store.commit(java.util.Map.of(new org.apache.kafka.common.TopicPartition("t", 0), offset - 1));
        assertTrue(store.database().longProperty("leveldb.num-files-at-level6") > 0, "the run went in as tables");
        java.util.TreeMap<String, String> actual = new java.util.TreeMap<>();
        try (var it = store.all()) {
            it.forEachRemaining(kv -> actual.put(new String(kv.key.get()), new String(kv.value)));
        }
        assertEquals(model, actual);
        // Later writes and a reopening see the same.
        store.put(Bytes.wrap("k000004".getBytes()), "put".getBytes());
        store.close();
        store = StoreFixture.init(new LeveldbKeyValueStore("sorted"), context);
        assertArrayEquals("put".getBytes(), store.get(Bytes.wrap("k000004".getBytes())));
        assertArrayEquals("late".getBytes(), store.get(Bytes.wrap("k000002".getBytes())));
        assertNull(store.get(Bytes.wrap("k000003".getBytes())));
        assertEquals(model.size(), countAll(store));
        store.close();
    }

    private static long countAll(LeveldbKeyValueStore store) {
        long n = 0;
        try (var it = store.all()) {
            while (it.hasNext()) {
                it.next();
                n++;
            }
        }
        return n;
    }
}
