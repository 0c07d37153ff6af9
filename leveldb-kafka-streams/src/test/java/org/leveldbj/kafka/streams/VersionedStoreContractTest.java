package org.leveldbj.kafka.streams;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Properties;
import java.util.Random;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.query.MultiVersionedKeyQuery;
import org.apache.kafka.streams.query.PositionBound;
import org.apache.kafka.streams.query.QueryConfig;
import org.apache.kafka.streams.query.QueryResult;
import org.apache.kafka.streams.query.ResultOrder;
import org.apache.kafka.streams.query.VersionedKeyQuery;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.VersionedBytesStore;
import org.apache.kafka.streams.state.VersionedKeyValueStore;
import org.apache.kafka.streams.state.VersionedRecord;
import org.apache.kafka.streams.state.VersionedRecordIterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.leveldbj.testing.SeedExtension;

/**
 * The versioned store's contract, checked against Kafka's RocksDB versioned store as the model:
 * random sequences of puts (out of order, some older than the grace period), deletes, gets
 * (latest and as of random times, inside and beyond history retention) and versioned queries,
 * while stream time advances past history retention, on keys where one is a prefix of another
 * and keys holding 0x00 and 0xff bytes. Every result must equal the model's. Our store is
 * closed and reopened now and then; the model stays open (Kafka's store forgets its stream time
 * and its segments across a reopen, so it is no model of one). A failure reports its seed.
 */
@ExtendWith(SeedExtension.class)
class VersionedStoreContractTest {
    private static final long RETENTION = 100;
    private static final byte[][] KEYS = {
        {'a'}, {'a', 0}, {'a', 0, 0}, {'a', 'b'}, {0}, {(byte) 0xff}, {'b', (byte) 0xff, 0}, {},
    };

    @TempDir
    Path stateDir;

    private MockProcessorContext<Object, Object> context;
    private LeveldbVersionedKeyValueStore store;
    private int kafkaMissed;

    private void open() {
        store = StoreFixture.init(new LeveldbVersionedKeyValueStore("versioned", RETENTION), context);
    }

    private static String show(VersionedRecord<byte[]> r) {
        return r == null ? "null" : "<" + Bytes.wrap(r.value()) + "@" + r.timestamp() + " to " + r.validTo() + ">";
    }

    private static List<String> drain(VersionedRecordIterator<byte[]> it) {
        List<String> out = new ArrayList<>();
        try (it) {
            while (it.hasNext()) {
                out.add(show(it.next()));
            }
            assertThrows(NoSuchElementException.class, it::next);
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    private static <R> R result(QueryResult<R> r) {
        assertTrue(r.isSuccess(), String.valueOf(r));
        return r.getResult();
    }

    @Test
    void everyOperationAgreesWithKafkasRocksDbVersionedStore(Random r) {
        context = StoreFixture.context(stateDir.toFile(), new Properties());
        VersionedBytesStore model = (VersionedBytesStore) StoreFixture.init(
                Stores.persistentVersionedKeyValueStore("model", Duration.ofMillis(RETENTION), Duration.ofMillis(30)).get(),
                context);
        open();
        long base = 1000;
        QueryConfig config = new QueryConfig(false);
        for (int step = 0; step < 4000; step++) {
            String at = "step " + step;
            Bytes k = Bytes.wrap(KEYS[r.nextInt(KEYS.length)]);
            if (r.nextInt(20) == 0) {
                base += r.nextInt((int) RETENTION);
            }
            long ts = Math.max(0, base - r.nextInt((int) (RETENTION * 3 / 2)) + r.nextInt(10));
            context.setRecordMetadata("input", 0, step);
            switch (r.nextInt(12)) {
                case 0, 1, 2, 3 -> {
                    byte[] v = r.nextInt(8) == 0 ? null : new byte[] {(byte) step, (byte) (step >> 8)};
                    assertEquals(model.put(k, v, ts), store.put(k, v, ts), at + " put " + k + "@" + ts);
                }
                case 4 -> assertArrayEquals(model.delete(k, ts), store.delete(k, ts), at + " delete " + k + "@" + ts);
                case 5 -> assertArrayEquals(model.get(k), store.get(k), at + " get " + k);
                case 6, 7 -> {
                    long asOf = ts + r.nextInt(20) - r.nextInt(60);
                    assertArrayEquals(model.get(k, asOf), store.get(k, asOf), at + " get " + k + " as of " + asOf);
                }
                case 8 -> {
                    VersionedKeyQuery<Bytes, byte[]> q = r.nextBoolean() ? VersionedKeyQuery.withKey(k)
                            : VersionedKeyQuery.<Bytes, byte[]>withKey(k).asOf(Instant.ofEpochMilli(ts));
                    assertEquals(show(result(model.query(q, PositionBound.unbounded(), config))),
                            show(result(store.query(q, PositionBound.unbounded(), config))), at + " " + q);
                }
                case 9, 10 -> {
                    // Within history retention, where Kafka's store is exact: fromTime at or after
                    // stream time minus retention.
                    long from = store.observedStreamTime() - RETENTION + r.nextInt(40);
                    long to = from + r.nextInt(80);
                    MultiVersionedKeyQuery<Bytes, byte[]> q = MultiVersionedKeyQuery.<Bytes, byte[]>withKey(k)
                            .fromTime(Instant.ofEpochMilli(from)).toTime(Instant.ofEpochMilli(to));
                    q = switch (r.nextInt(3)) {
                        case 0 -> q.withAscendingTimestamps();
                        case 1 -> q.withDescendingTimestamps();
                        default -> q;
                    };
                    // The reference: the versions valid at each time of the range, from the
                    // model's point queries. (Kafka's own answer to this query misses a version
                    // that started in the range but ends after its segment: it only reads the
                    // segments up to toTime's, and a version lives in its validTo's segment; so
                    // its answer must only be part of ours.)
                    List<String> expected = new ArrayList<>();
                    for (long t = from; t <= to; t++) {
                        String v = show(result(model.query(VersionedKeyQuery.<Bytes, byte[]>withKey(k)
                                .asOf(Instant.ofEpochMilli(t)), PositionBound.unbounded(), config)));
                        if (!v.equals("null") && !expected.contains(v)) {
                            expected.add(v);
                        }
                    }
                    if (q.resultOrder() != ResultOrder.ASCENDING) {
                        java.util.Collections.reverse(expected);
                    }
                    List<String> ours = drain(result(store.query(q, PositionBound.unbounded(), config)));
                    String what = at + " versions of " + k + " in [" + from + ", " + to + "] " + q.resultOrder();
                    assertEquals(expected, ours, what);
                    List<String> kafka = drain(result(model.query(q, PositionBound.unbounded(), config)));
                    assertTrue(ours.containsAll(kafka), what + ": Kafka's " + kafka);
                    if (!kafka.equals(ours)) {
                        kafkaMissed++;
                    }
                }
                default -> {
                    if (r.nextInt(4) == 0) {
                        store.commit(Map.of(new TopicPartition("changelog", 0), (long) step));
                        store.close();
                        assertFalse(store.isOpen());
                        open();
                        assertEquals(step, store.committedOffset(new TopicPartition("changelog", 0)));
                    }
                }
            }
        }
        model.close();
        store.close();
        System.out.println("versioned contract: Kafka's MultiVersionedKeyQuery missed versions in " + kafkaMissed + " queries");
    }

    @Test
    void putReturnsValidToAsKafkaDefinesIt() {
        context = StoreFixture.context(stateDir.toFile(), new Properties());
        open();
        Bytes k = Bytes.wrap(new byte[] {'k'});
        assertEquals(VersionedKeyValueStore.PUT_RETURN_CODE_VALID_TO_UNDEFINED, store.put(k, new byte[] {1}, 10));
        assertEquals(VersionedKeyValueStore.PUT_RETURN_CODE_VALID_TO_UNDEFINED, store.put(k, new byte[] {2}, 30));
        assertEquals(30, store.put(k, new byte[] {3}, 20), "between two versions: valid to the newer");
        assertEquals(10, store.put(k, new byte[] {4}, 5), "before every version: valid to the oldest");
        assertEquals(30, store.put(k, new byte[] {5}, 20), "the same timestamp replaces");
        assertEquals(VersionedKeyValueStore.PUT_RETURN_CODE_VALID_TO_UNDEFINED, store.put(k, null, 200), "a tombstone");
        assertEquals(VersionedKeyValueStore.PUT_RETURN_CODE_NOT_PUT, store.put(k, new byte[] {6}, 99),
                "older than stream time 200 minus retention 100");
        assertEquals(null, store.delete(k, 50), "a delete older than the grace period: nothing");
        assertEquals(2.0, context.metrics().metrics().get(new MetricName("dropped-records-total", "stream-task-metrics", "",
                Map.of("thread-id", Thread.currentThread().getName(), "task-id", "0_0"))).metricValue(),
                "both counted in the task's dropped records, as Kafka's store counts them");
        assertEquals(200, store.put(k, new byte[] {7}, 100), "at the grace period's edge: accepted");
        assertArrayEquals(new byte[] {0, 0, 0, 0, 0, 0, 0, 100, 7}, store.get(k, 150), "ValueAndTimestamp bytes");
        assertEquals(null, store.get(k), "the latest version is the tombstone");
        assertEquals(null, store.get(k, 50), "beyond history retention, and the latest started after");
        store.close();
    }

    @Test
    void aTombstoneAtTheLatestValuesOwnTimestampRemovesItAsInKafka() {
        context = StoreFixture.context(stateDir.toFile(), new Properties());
        VersionedBytesStore model = (VersionedBytesStore) StoreFixture.init(
                Stores.persistentVersionedKeyValueStore("model", Duration.ofMillis(RETENTION)).get(), context);
        open();
        Bytes k = Bytes.wrap(new byte[] {'k'});
        Bytes alone = Bytes.wrap(new byte[] {'a'});
        Bytes afterValue = Bytes.wrap(new byte[] {'v'});
        for (VersionedBytesStore s : new VersionedBytesStore[] {model, store}) {
            s.put(k, new byte[] {1}, 10);
            s.put(k, null, 20);
            s.put(k, new byte[] {2}, 30);
            s.delete(k, 30); // the tombstone from 20 now runs on: no version starts at 30
            s.put(k, new byte[] {3}, 40);
            s.put(alone, new byte[] {1}, 10);
            s.delete(alone, 10); // nothing is left of the key
            s.put(afterValue, new byte[] {1}, 10);
            s.put(afterValue, new byte[] {2}, 20);
            s.delete(afterValue, 20); // the value from 10 still ends at 20
        }
        assertEquals(40, model.put(k, new byte[] {4}, 25));
        assertEquals(40, store.put(k, new byte[] {4}, 25), "valid up to 40, not 30");
        assertEquals(VersionedKeyValueStore.PUT_RETURN_CODE_VALID_TO_UNDEFINED, model.put(alone, new byte[] {2}, 5));
        assertEquals(VersionedKeyValueStore.PUT_RETURN_CODE_VALID_TO_UNDEFINED, store.put(alone, new byte[] {2}, 5));
        assertArrayEquals(model.get(alone), store.get(alone));
        assertEquals(20, model.put(afterValue, new byte[] {3}, 15));
        assertEquals(20, store.put(afterValue, new byte[] {3}, 15));
        model.close();
        store.close();
    }

    @Test
    void theLatestVersionNeverExpires() {
        context = StoreFixture.context(stateDir.toFile(), new Properties());
        open();
        Bytes k = Bytes.wrap(new byte[] {'k'});
        Bytes other = Bytes.wrap(new byte[] {'o'});
        store.put(k, new byte[] {1}, 10);
        store.put(other, new byte[] {1}, 10_000);
        assertArrayEquals(new byte[] {0, 0, 0, 0, 0, 0, 0, 10, 1}, store.get(k, 20), "as of a time far beyond retention");
        assertArrayEquals(new byte[] {0, 0, 0, 0, 0, 0, 0, 10, 1}, store.get(k));
        assertEquals(null, store.get(k, 9));
        store.close();
    }

    @Test
    void keyValueOperationsAreUnsupportedAndAClosedStoreRefusesEveryUse() {
        context = StoreFixture.context(stateDir.toFile(), new Properties());
        open();
        Bytes k = Bytes.wrap(new byte[] {'k'});
        assertThrows(UnsupportedOperationException.class, () -> store.put(k, new byte[0]));
        assertThrows(UnsupportedOperationException.class, () -> store.putIfAbsent(k, new byte[0]));
        assertThrows(UnsupportedOperationException.class, () -> store.putAll(List.of()));
        assertThrows(UnsupportedOperationException.class, () -> store.delete(k));
        assertThrows(UnsupportedOperationException.class, store::all);
        assertThrows(UnsupportedOperationException.class, store::reverseAll);
        assertThrows(UnsupportedOperationException.class, () -> store.range(k, k));
        assertThrows(UnsupportedOperationException.class, () -> store.reverseRange(k, k));
        assertThrows(UnsupportedOperationException.class, store::approximateNumEntries);
        assertThrows(NullPointerException.class, () -> store.put(null, new byte[0], 1));
        assertThrows(NullPointerException.class, () -> store.get(null));
        store.put(k, new byte[] {1}, 10);
        store.put(k, new byte[] {2}, 20);
        VersionedRecordIterator<byte[]> open = result(store.query(MultiVersionedKeyQuery.<Bytes, byte[]>withKey(k),
                PositionBound.unbounded(), new QueryConfig(false)));
        assertTrue(open.hasNext());
        store.close();
        store.close(); // twice is harmless
        assertThrows(InvalidStateStoreException.class, open::hasNext, "the store closed its iterator");
        open.close();
        assertThrows(InvalidStateStoreException.class, () -> store.get(k));
        assertThrows(InvalidStateStoreException.class, () -> store.get(k, 10));
        assertThrows(InvalidStateStoreException.class, () -> store.put(k, new byte[0], 30));
        assertThrows(InvalidStateStoreException.class, () -> store.delete(k, 30));
        assertThrows(InvalidStateStoreException.class, () -> store.commit(Map.of()));
        assertTrue(store.persistent());
        open();
        assertArrayEquals(new byte[] {0, 0, 0, 0, 0, 0, 0, 10, 1}, store.get(k, 15), "the history outlives the close");
        store.close();
    }

    @Test
    void theSupplierValidatesAsKafkasFactory() {
        assertEquals("name cannot be null", assertThrows(NullPointerException.class,
                () -> LeveldbStores.persistentVersionedKeyValueStore(null, Duration.ZERO)).getMessage());
        assertEquals("historyRetention cannot be negative", assertThrows(IllegalArgumentException.class,
                () -> LeveldbStores.persistentVersionedKeyValueStore("s", Duration.ofMillis(-1))).getMessage());
        assertEquals("historyRetention cannot be negative", assertThrows(IllegalArgumentException.class,
                () -> LeveldbStores.persistentVersionedKeyValueStore("s", Duration.ofMillis(-1), Duration.ofMillis(1)))
                .getMessage());
        assertEquals("segmentInterval cannot be zero or negative", assertThrows(IllegalArgumentException.class,
                () -> LeveldbStores.persistentVersionedKeyValueStore("s", Duration.ZERO, Duration.ZERO)).getMessage());
        for (Duration bad : new Duration[] {null, Duration.ofSeconds(Long.MAX_VALUE)}) {
            String kafka = assertThrows(IllegalArgumentException.class,
                    () -> Stores.persistentVersionedKeyValueStore("s", bad)).getMessage();
            assertEquals(kafka, assertThrows(IllegalArgumentException.class,
                    () -> LeveldbStores.persistentVersionedKeyValueStore("s", bad)).getMessage());
        }
        var supplier = LeveldbStores.persistentVersionedKeyValueStore("s", Duration.ofMinutes(5));
        assertEquals(300_000, supplier.historyRetentionMs());
        assertEquals("s", supplier.name());
        assertEquals("leveldbj", supplier.metricsScope());
        KeyValueStore<Bytes, byte[]> made = supplier.get();
        assertTrue(made instanceof VersionedBytesStore);
        assertTrue(made != supplier.get(), "a new store each time");
    }
}
