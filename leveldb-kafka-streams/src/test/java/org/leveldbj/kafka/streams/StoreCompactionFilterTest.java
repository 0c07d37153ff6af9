package org.leveldbj.kafka.streams;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.iq80.leveldb.CompactionFilter;
import org.iq80.leveldb.Options;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An application's compaction filter (set by its config setter) sees only the store's data:
 * one that removes every entry it is shown leaves the committed offsets, the position and the
 * layout marker in place, so the store reopens and Kafka Streams knows where to restore from.
 */
class StoreCompactionFilterTest {
    private static final TopicPartition CHANGELOG = new TopicPartition("app-store-changelog", 0);

    @TempDir
    Path stateDir;

    /** Removes every entry except those whose key ends with "keep". */
    public static final class RemovingSetter implements LeveldbConfigSetter {
        @Override
        public void setConfig(String storeName, Options options, Map<String, Object> configs) {
            options.compactionFilter(new CompactionFilter() {
                @Override
                public String name() {
                    return "remove-all-but-keep";
                }

                @Override
                public Decision filter(int level, byte[] key, byte[] value) {
                    return new String(key).endsWith("keep") ? Decision.KEEP : Decision.REMOVE;
                }
            });
        }
    }

    @Test
    void theApplicationsFilterNeverSeesTheStoresMetadata() {
        Properties config = new Properties();
        config.put(LeveldbConfigSetter.CONFIG, RemovingSetter.class.getName());
        MockProcessorContext<Object, Object> context = StoreFixture.context(stateDir.toFile(), config);
        LeveldbKeyValueStore store = StoreFixture.init(new LeveldbKeyValueStore("filtered"), context);
        for (int i = 0; i < 100; i++) {
            store.put(Bytes.wrap(("k" + i).getBytes()), new byte[] {1});
        }
        store.put(Bytes.wrap("k-keep".getBytes()), new byte[] {2});
        store.commit(Map.of(CHANGELOG, 100L));
        store.database().compactData(new byte[0], new byte[] {(byte) 0xff, (byte) 0xff});
        assertNull(store.get(Bytes.wrap("k7".getBytes())), "removed by the application's filter");
        assertArrayEquals(new byte[] {2}, store.get(Bytes.wrap("k-keep".getBytes())));
        store.close();

        store = StoreFixture.init(new LeveldbKeyValueStore("filtered"), context);
        assertEquals(100L, store.committedOffset(CHANGELOG), "the offsets survive the filter");
        assertEquals(1, store.approximateNumEntries());
        store.close();
    }
}
