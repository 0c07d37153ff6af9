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
