package org.leveldbj.kafka.streams;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.Properties;
import java.util.Random;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.query.Position;
import org.apache.kafka.streams.query.PositionBound;
import org.apache.kafka.streams.query.QueryConfig;
import org.apache.kafka.streams.query.QueryResult;
import org.apache.kafka.streams.query.WindowKeyQuery;
import org.apache.kafka.streams.query.WindowRangeQuery;
import org.apache.kafka.streams.state.HeadersBytesStore;
import org.apache.kafka.streams.state.HeadersBytesStoreSupplier;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.TimestampedBytesStore;
import org.apache.kafka.streams.state.WindowStore;
import org.apache.kafka.streams.state.WindowStoreIterator;
import org.apache.kafka.streams.state.internals.WindowKeySchema;
import org.iq80.leveldb.DBIterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.leveldbj.testing.SeedExtension;

/**
 * The whole {@code WindowStore} contract, checked against Kafka's in-memory window store as the
 * model: random sequences of every operation over a small key alphabet, window starts spread over
 * many segments with stream time advancing so that windows expire, with and without retained
 * duplicates, the store closed and reopened now and then, and changelog restoration. Single-key
 * fetches must equal the model's; multi-key results must be the model's entries in the store's
 * documented order (segment, key, window start, sequence), reversed when backward.
 */
@ExtendWith(SeedExtension.class)
class WindowStoreContractTest {
    static final long RETENTION = 300;
    static final long WINDOW = 20;
    static final long SEGMENT = 50;

    @TempDir
    Path stateDir;

    private MockProcessorContext<Object, Object> context;
    private LeveldbWindowStore store;
    private WindowStore<Bytes, byte[]> model;

    private LeveldbWindowStore open(boolean dups) {
        return StoreFixture.init(new LeveldbWindowStore("window", RETENTION, WINDOW, SEGMENT, dups), context);
    }

    static Bytes randomKey(Random r) {
        byte[] k = new byte[1 + r.nextInt(2)];
        for (int i = 0; i < k.length; i++) {
            k[i] = (byte) (r.nextInt(6) == 0 ? 0xff : r.nextInt(6) == 0 ? 0 : 'a' + r.nextInt(3));
        }
        return Bytes.wrap(k);
    }

    static byte[] randomValue(Random r) {
        byte[] v = new byte[1 + r.nextInt(6)];
        r.nextBytes(v);
        return v;
    }

    private static List<String> times(WindowStoreIterator<byte[]> it) {
        List<String> out = new ArrayList<>();
        try (it) {
            while (it.hasNext()) {
                Long peeked = it.peekNextKey();
                KeyValue<Long, byte[]> kv = it.next();
                assertEquals(peeked, kv.key);
                out.add(kv.key + "=" + Bytes.wrap(kv.value));
            }
            assertThrows(NoSuchElementException.class, it::next);
        }
        return out;
    }

    /** The store's order: segment, then Kafka's window key schema bytes (sequence numbers aside: stable). */
    static List<KeyValue<Windowed<Bytes>, byte[]>> inStoreOrder(List<KeyValue<Windowed<Bytes>, byte[]>> model,
                                                                long segment, boolean forward) {
        return WindowedEntries.sorted(model,
                Comparator.<KeyValue<Windowed<Bytes>, byte[]>>comparingLong(kv -> kv.key.window().start() / segment)
                        .thenComparing(kv -> WindowKeySchema.toStoreKeyBinary(kv.key.key(), kv.key.window().start(), 0)),
                forward);
    }

    /**
     * Equal lists; with duplicates, equal as multisets, since the order of two keys one of which
     * is a prefix of the other depends on their sequence numbers, which the model does not show.
     */
    static void same(boolean dups, List<String> expected, List<String> actual, String message) {
        if (dups) {
            expected = new ArrayList<>(expected);
            actual = new ArrayList<>(actual);
            Collections.sort(expected);
            Collections.sort(actual);
        }
        assertEquals(expected, actual, message);
    }

    @Test
    void everyOperationAgreesWithTheInMemoryStore(Random r) {
        runAgainstModel(r, false);
    }

    @Test
    void everyOperationAgreesWithTheInMemoryStoreRetainingDuplicates(Random r) {
        runAgainstModel(r, true);
    }

    private void runAgainstModel(Random r, boolean dups) {
        context = StoreFixture.context(stateDir.toFile(), new Properties());
        model = StoreFixture.init(Stores.inMemoryWindowStore("model", Duration.ofMillis(RETENTION),
                Duration.ofMillis(WINDOW), dups).get(), context);
        store = open(dups);
        long now = 0;
        List<ConsumerRecord<byte[], byte[]>> pendingRestore = new ArrayList<>();
        long offset = 0;
        for (int step = 0; step < 3000; step++) {
            String at = "step " + step;
            Bytes k = randomKey(r);
            Bytes k1 = r.nextInt(6) == 0 ? null : randomKey(r);
            Bytes k2 = r.nextInt(6) == 0 ? null : randomKey(r);
            if (r.nextInt(3) == 0) {
                now += r.nextInt(8);
            }
            long t = Math.max(0, now - r.nextInt((int) RETENTION + 60));
            long from = Math.max(-5, now - r.nextInt((int) RETENTION + 80));
            long to = from + r.nextInt(250) - 20;
            boolean forward = r.nextBoolean();
            int op = r.nextInt(12);
            if (op != 9 && !pendingRestore.isEmpty()) {
                store.restoreBatch(pendingRestore);
                pendingRestore.clear();
            }
            switch (op) {
                case 0, 1, 2, 3 -> {
                    byte[] v = r.nextInt(10) == 0 ? null : randomValue(r);
                    store.put(k, v, t);
                    model.put(k, v, t);
                }
                case 4 -> {
                    if (!dups) {
                        assertArrayEquals(model.fetch(k, t), store.fetch(k, t), at + " fetch " + k + "@" + t);
                    }
                }
                case 5 -> assertEquals(times(forward ? model.fetch(k, from, to) : model.backwardFetch(k, from, to)),
                        times(forward ? store.fetch(k, from, to) : store.backwardFetch(k, from, to)),
                        at + " fetch " + k + " " + from + ".." + to + (forward ? "" : " backward"));
                case 6 -> {
                    if (k1 != null && k2 != null && k1.compareTo(k2) > 0) {
                        Bytes swap = k1;
                        k1 = k2;
                        k2 = swap;
                    }
                    // The model is asked forward; its entries in the store's order are the expectation.
                    List<KeyValue<Windowed<Bytes>, byte[]>> expected = inStoreOrder(WindowedEntries.drain(model.fetch(k1, k2, from, to)),
                            SEGMENT, forward);
                    same(dups, WindowedEntries.show(expected), WindowedEntries.show(WindowedEntries.drain(forward ? store.fetch(k1, k2, from, to)
                            : store.backwardFetch(k1, k2, from, to))), at + " fetch " + k1 + ".." + k2 + " " + from + ".." + to);
                }
                case 7 -> same(dups, WindowedEntries.show(inStoreOrder(WindowedEntries.drain(model.fetchAll(from, to)), SEGMENT, forward)),
                        WindowedEntries.show(WindowedEntries.drain(forward ? store.fetchAll(from, to) : store.backwardFetchAll(from, to))),
                        at + " fetchAll " + from + ".." + to);
                case 8 -> same(dups, WindowedEntries.show(inStoreOrder(WindowedEntries.drain(model.all()), SEGMENT, forward)),
                        WindowedEntries.show(WindowedEntries.drain(forward ? store.all() : store.backwardAll())), at + " all");
                case 9 -> {
                    // Restoration: changelog records in Kafka's window key schema, as the
                    // change-logging layer writes them (duplicates: see the test below).
                    if (dups) {
                        break;
                    }
                    byte[] v = r.nextInt(10) == 0 ? null : randomValue(r);
                    pendingRestore.add(new ConsumerRecord<>("changelog", 0, offset++, 0L, TimestampType.CREATE_TIME,
                            0, 0, WindowKeySchema.toStoreKeyBinary(k, t, 0).get(), v, new RecordHeaders(), Optional.empty()));
                    model.put(k, v, t);
                    if (pendingRestore.size() > r.nextInt(4)) {
                        store.restoreBatch(pendingRestore);
                        pendingRestore.clear();
                    }
                }
                default -> {
                    if (r.nextInt(8) == 0) {
                        store.commit(Map.of());
                        store.close();
                        assertFalse(store.isOpen());
                        store = open(dups);
                    }
                }
            }
        }
        if (!pendingRestore.isEmpty()) {
            store.restoreBatch(pendingRestore);
        }
        same(dups, WindowedEntries.show(inStoreOrder(WindowedEntries.drain(model.all()), SEGMENT, true)), WindowedEntries.show(WindowedEntries.drain(store.all())), "at the end");
        store.close();
    }

    @Test
    void restorationOfDuplicatesKeepsEveryOneAndContinuesTheirSequence() {
        context = StoreFixture.context(stateDir.toFile(), new Properties());
        store = open(true);
        Bytes k = Bytes.wrap(new byte[] {'k'});
        List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
        for (int seq = 1; seq <= 3; seq++) {
            records.add(new ConsumerRecord<>("changelog", 0, seq, WindowKeySchema.toStoreKeyBinary(k, 10, seq).get(),
                    new byte[] {(byte) seq}));
        }
        store.restoreBatch(records);
        store.put(k, new byte[] {4}, 10);
        assertEquals(List.of("10=" + Bytes.wrap(new byte[] {1}), "10=" + Bytes.wrap(new byte[] {2}),
                "10=" + Bytes.wrap(new byte[] {3}), "10=" + Bytes.wrap(new byte[] {4})), times(store.fetch(k, 0, 20)));
        store.close();
        store = open(true);
        store.put(k, new byte[] {5}, 10);
        assertEquals(5, times(store.fetch(k, 0, 20)).size(), "a reopened store does not reuse a sequence number");
        store.close();
    }

    private static long rawDataEntries(StoreDatabase db) throws IOException {
        long n = 0;
        try (DBIterator it = db.iterator()) {
            it.seekToFirst();
            while (it.hasNext()) {
                it.next();
                n++;
            }
        }
        return n;
    }

    @Test
    void expiredSegmentsAreRemovedFromTheDatabase() throws Exception {
        context = StoreFixture.context(stateDir.toFile(), new Properties());
        store = open(false);
        for (int i = 0; i < 2000; i++) {
            store.put(Bytes.wrap(("key" + i % 50).getBytes()), new byte[100], i / 20);
        }
        assertEquals(2000, rawDataEntries(store.database()), "every window stored (100 starts x 20 keys)");
        // Advance stream time far enough that every segment but the newest expires.
        store.put(Bytes.wrap("late".getBytes()), new byte[] {1}, 100 + RETENTION + SEGMENT);
        store.segments().awaitExpiry();
        assertEquals(1, rawDataEntries(store.database()), "only the newest window is left in the database");
        assertEquals(1, WindowedEntries.drain(store.all()).size());
        store.close();
        store = open(false);
        assertEquals(1, rawDataEntries(store.database()), "and after a reopen");
        assertEquals(0, times(store.fetch(Bytes.wrap("key1".getBytes()), 0, 200)).size());
        store.close();
    }

    @Test
    void streamTimeSurvivesAReopenSoExpiredWindowsStayHidden() {
        context = StoreFixture.context(stateDir.toFile(), new Properties());
        store = open(false);
        Bytes k = Bytes.wrap(new byte[] {'k'});
        store.put(k, new byte[] {1}, 10);
        store.put(k, new byte[] {2}, 10 + RETENTION);
        assertNull(store.fetch(k, 10), "expired at stream time " + (10 + RETENTION));
        store.close();
        store = open(false);
        assertNull(store.fetch(k, 10), "still expired after the reopen");
        assertEquals(1, WindowedEntries.drain(store.all()).size());
        store.put(k, new byte[] {3}, 5);
        assertEquals(1, WindowedEntries.drain(store.all()).size(), "a put of an expired window is dropped");
        store.close();
    }

    @Test
    void offsetsAreCommittedInTheDatabase() {
        context = StoreFixture.context(stateDir.toFile(), new Properties());
        store = open(false);
        TopicPartition tp = new TopicPartition("app-window-changelog", 2);
        assertTrue(store.managesOffsets());
        assertNull(store.committedOffset(tp));
        store.put(Bytes.wrap(new byte[] {'k'}), new byte[] {1}, 1);
        store.commit(Map.of(tp, 17L));
        assertEquals(17L, store.committedOffset(tp));
        store.close();
        store = open(false);
        assertEquals(17L, store.committedOffset(tp), "after a reopen");
        store.commit(Map.of());
        assertNull(store.committedOffset(tp), "an empty commit removes the offsets");
        store.close();
    }

    @Test
    void interactiveQueriesAnswerWindowKeyAndRangeQueries() {
        context = StoreFixture.context(stateDir.toFile(), new Properties());
        store = open(false);
        context.setRecordMetadata("input", 0, 5);
        store.put(Bytes.wrap(new byte[] {'a'}), new byte[] {1}, 100);
        context.setRecordMetadata("input", 0, 6);
        store.put(Bytes.wrap(new byte[] {'b'}), new byte[] {2}, 120);
        Position reached = Position.emptyPosition().withComponent("input", 0, 6);
        assertEquals(reached, store.getPosition());
        // Kafka 4.3.1's WindowKeyQuery swaps its bounds (its private constructor takes timeTo
        // before timeFrom), for every store: the window is found by passing them the other way.
        WindowStore<Bytes, byte[]> inMemory = StoreFixture.init(Stores.inMemoryWindowStore("model",
                Duration.ofMillis(RETENTION), Duration.ofMillis(WINDOW), false).get(), context);
        inMemory.put(Bytes.wrap(new byte[] {'a'}), new byte[] {1}, 100);
        for (long[] bounds : new long[][] {{0, 200}, {200, 0}}) {
            WindowKeyQuery<Bytes, byte[]> q = WindowKeyQuery.withKeyAndWindowStartRange(Bytes.wrap(new byte[] {'a'}),
                    java.time.Instant.ofEpochMilli(bounds[0]), java.time.Instant.ofEpochMilli(bounds[1]));
            QueryResult<WindowStoreIterator<byte[]>> byKey = store.query(q, PositionBound.at(reached), new QueryConfig(false));
            assertTrue(byKey.isSuccess(), String.valueOf(byKey));
            assertEquals(reached, byKey.getPosition());
            assertEquals(times(inMemory.query(q, PositionBound.unbounded(), new QueryConfig(false)).getResult()),
                    times(byKey.getResult()), "as Kafka's in-memory store answers " + Arrays.toString(bounds));
        }
        WindowKeyQuery<Bytes, byte[]> swapped = WindowKeyQuery.withKeyAndWindowStartRange(Bytes.wrap(new byte[] {'a'}),
                java.time.Instant.ofEpochMilli(200), java.time.Instant.ofEpochMilli(0));
        assertEquals(List.of("100=" + Bytes.wrap(new byte[] {1})),
                times(store.query(swapped, PositionBound.unbounded(), new QueryConfig(false)).getResult()));
        inMemory.close();
        QueryResult<KeyValueIterator<Windowed<Bytes>, byte[]>> range = store.query(
                WindowRangeQuery.withWindowStartRange(java.time.Instant.ofEpochMilli(110), java.time.Instant.ofEpochMilli(200)),
                PositionBound.unbounded(), new QueryConfig(false));
        assertTrue(range.isSuccess(), String.valueOf(range));
        assertEquals(1, WindowedEntries.drain(range.getResult()).size());
        QueryResult<WindowStoreIterator<byte[]>> behind = store.query(swapped,
                PositionBound.at(Position.emptyPosition().withComponent("input", 0, 7)), new QueryConfig(false));
        assertFalse(behind.isSuccess(), "not up to the bound");
        store.close();
    }

    @Test
    void aClosedStoreAndItsIteratorsRefuseEveryUse() {
        context = StoreFixture.context(stateDir.toFile(), new Properties());
        store = open(false);
        Bytes k = Bytes.wrap(new byte[] {'k'});
        store.put(k, new byte[] {1}, 5);
        KeyValueIterator<Windowed<Bytes>, byte[]> it = store.all();
        assertTrue(it.hasNext());
        store.close();
        store.close();
        assertFalse(it.hasNext(), "closing the store exhausted its iterator, as Kafka's window and session iterators");
        it.close();
        assertThrows(InvalidStateStoreException.class, () -> store.put(k, new byte[0], 5));
        assertThrows(InvalidStateStoreException.class, () -> store.fetch(k, 5));
        assertThrows(InvalidStateStoreException.class, () -> store.fetch(k, 0, 5));
        assertThrows(InvalidStateStoreException.class, () -> store.fetch(k, k, 0, 5));
        assertThrows(InvalidStateStoreException.class, () -> store.fetchAll(0, 5));
        assertThrows(InvalidStateStoreException.class, store::all);
        assertThrows(InvalidStateStoreException.class, store::backwardAll);
        assertThrows(InvalidStateStoreException.class, () -> store.commit(Map.of()));
        store = open(false);
        assertThrows(IllegalArgumentException.class, () -> store.put(k, new byte[0], -1));
        assertThrows(NullPointerException.class, () -> store.put(null, new byte[0], 1));
        assertEquals(List.of(), WindowedEntries.drain(store.fetch(Bytes.wrap(new byte[] {'z'}), Bytes.wrap(new byte[] {'a'}), 0, 10)),
                "a reversed key range is empty");
        store.close();
    }

    @Test
    void suppliersValidateAsKafkasAndCarryTheMarkers() {
        assertThrows(NullPointerException.class,
                () -> LeveldbStores.persistentWindowStore(null, Duration.ofMinutes(1), Duration.ofSeconds(1), false));
        assertThrows(IllegalArgumentException.class,
                () -> LeveldbStores.persistentWindowStore("w", Duration.ofMinutes(-1), Duration.ofSeconds(1), false));
        assertThrows(IllegalArgumentException.class,
                () -> LeveldbStores.persistentWindowStore("w", Duration.ofMinutes(1), Duration.ofSeconds(-1), false));
        assertThrows(IllegalArgumentException.class,
                () -> LeveldbStores.persistentWindowStore("w", Duration.ofSeconds(1), Duration.ofMinutes(1), false));
        LeveldbWindowBytesStoreSupplier s = LeveldbStores.persistentWindowStore("w", Duration.ofHours(1),
                Duration.ofMinutes(5), true);
        assertEquals(Duration.ofMinutes(30).toMillis(), s.segmentIntervalMs());
        assertEquals(60_000L, LeveldbStores.persistentWindowStore("w", Duration.ofSeconds(10), Duration.ofSeconds(1), false)
                .segmentIntervalMs());
        assertEquals(Duration.ofMinutes(5).toMillis(), s.windowSize());
        assertTrue(s.retainDuplicates());
        assertEquals("leveldbj", s.metricsScope());
        assertFalse(s.get() instanceof TimestampedBytesStore);
        assertTrue(LeveldbStores.persistentTimestampedWindowStore("w", Duration.ofHours(1), Duration.ofMinutes(5), false)
                .get() instanceof TimestampedBytesStore);
        LeveldbWindowBytesStoreSupplier h = LeveldbStores.persistentTimestampedWindowStoreWithHeaders("w",
                Duration.ofHours(1), Duration.ofMinutes(5), false);
        assertTrue(h instanceof HeadersBytesStoreSupplier);
        assertTrue(h.get() instanceof HeadersBytesStore && h.get() instanceof TimestampedBytesStore);
        assertTrue(Arrays.asList(s.getClass().getInterfaces()).size() > 0);
    }
}
