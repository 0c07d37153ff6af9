package org.leveldbj.kafka.streams;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.VersionedBytesStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.leveldbj.testing.SeedExtension;

/**
 * Restoration from the changelog: a store restored from the records a live store logged (every
 * put, a tombstone for every delete, each at its version's timestamp, the expired ones too, as
 * Kafka's change-logging layer writes them) answers every get as the live store does, and as
 * Kafka's RocksDB versioned store restored from the same records, in batches of any size; and
 * the stream time and offsets survive a reopen.
 */
@ExtendWith(SeedExtension.class)
class VersionedRestoreTest {
    private static final long RETENTION = 50;

    @TempDir
    Path stateDir;

    private static ConsumerRecord<byte[], byte[]> changelog(long offset, byte[] key, byte[] value, long timestamp) {
        return new ConsumerRecord<>("app-versioned-changelog", 0, offset, timestamp, TimestampType.CREATE_TIME,
                ConsumerRecord.NULL_SIZE, ConsumerRecord.NULL_SIZE, key, value, new RecordHeaders(), java.util.Optional.empty());
    }

    @Test
    void aRestoredStoreAnswersAsTheLiveOne(Random r) throws ReflectiveOperationException {
        MockProcessorContext<Object, Object> context = StoreFixture.context(stateDir.toFile(), new Properties());
        LeveldbVersionedKeyValueStore live = StoreFixture.init(new LeveldbVersionedKeyValueStore("live", RETENTION), context);
        List<ConsumerRecord<byte[], byte[]>> log = new ArrayList<>();
        long base = 100;
        for (int i = 0; i < 3000; i++) {
            byte[] key = {(byte) ('a' + r.nextInt(6)), (byte) r.nextInt(2)};
            base += r.nextInt(3);
            long ts = Math.max(0, base - r.nextInt(80));
            if (r.nextInt(6) == 0) {
                live.delete(Bytes.wrap(key), ts);
                log.add(changelog(i, key, null, ts));
            } else {
                byte[] value = {(byte) i, (byte) (i >> 8)};
                live.put(Bytes.wrap(key), value, ts);
                log.add(changelog(i, key, value, ts));
            }
        }
        LeveldbVersionedKeyValueStore restored = StoreFixture.init(new LeveldbVersionedKeyValueStore("restored", RETENTION),
                context);
        for (int from = 0; from < log.size(); ) {
            int to = Math.min(log.size(), from + 1 + r.nextInt(400));
            restored.restoreBatch(log.subList(from, to));
            from = to;
        }
        // Kafka's RocksDB versioned store, restored from the same records in the same batches.
        // (Its restore method is package-private: reached by reflection, on its adapter's inner store.)
        KeyValueStore<Bytes, byte[]> kafka = StoreFixture.init(Stores.persistentVersionedKeyValueStore("kafka",
                Duration.ofMillis(RETENTION)).get(), context);
        Field inner = kafka.getClass().getDeclaredField("inner");
        inner.setAccessible(true);
        Object rocks = inner.get(kafka);
        Method restore = rocks.getClass().getDeclaredMethod("restoreBatch", Collection.class);
        restore.setAccessible(true);
        for (int from = 0; from < log.size(); ) {
            int to = Math.min(log.size(), from + 1 + r.nextInt(400));
            restore.invoke(rocks, log.subList(from, to));
            from = to;
        }
        VersionedBytesStore model = (VersionedBytesStore) kafka;
        assertEquals(live.observedStreamTime(), restored.observedStreamTime());
        for (int k = 0; k < 12; k++) {
            Bytes key = Bytes.wrap(new byte[] {(byte) ('a' + k / 2), (byte) (k % 2)});
            assertArrayEquals(live.get(key), restored.get(key), "latest of " + key);
            assertArrayEquals(model.get(key), restored.get(key), "latest of " + key + " on Kafka's restored store");
            for (long asOf = base - 2 * RETENTION; asOf <= base + 2; asOf++) {
                assertArrayEquals(live.get(key, asOf), restored.get(key, asOf), key + " as of " + asOf);
                assertArrayEquals(model.get(key, asOf), restored.get(key, asOf), key + " as of " + asOf
                        + " on Kafka's restored store");
            }
        }
        live.close();
        restored.close();
        kafka.close();
    }

    @Test
    void theStreamTimeAndOffsetsSurviveAReopen() {
        MockProcessorContext<Object, Object> context = StoreFixture.context(stateDir.toFile(), new Properties());
        LeveldbVersionedKeyValueStore store = StoreFixture.init(new LeveldbVersionedKeyValueStore("s", RETENTION), context);
        Bytes k = Bytes.wrap(new byte[] {'k'});
        store.put(k, new byte[] {1}, 10);
        store.put(k, new byte[] {2}, 500);
        TopicPartition changelog = new TopicPartition("app-s-changelog", 0);
        store.commit(Map.of(changelog, 41L));
        store.close();
        store = StoreFixture.init(new LeveldbVersionedKeyValueStore("s", RETENTION), context);
        assertEquals(500, store.observedStreamTime());
        assertEquals(41L, store.committedOffset(changelog));
        assertEquals(Long.MIN_VALUE, store.put(k, new byte[] {3}, 449), "still older than the grace period");
        assertEquals(null, store.get(k, 400), "still beyond history retention");
        store.commit(Map.of());
        assertEquals(null, store.committedOffset(changelog), "an empty commit removes the offsets");
        store.close();
    }
}
