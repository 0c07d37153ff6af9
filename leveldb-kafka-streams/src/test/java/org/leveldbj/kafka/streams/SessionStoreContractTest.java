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
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.kstream.internals.SessionWindow;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.query.PositionBound;
import org.apache.kafka.streams.query.QueryConfig;
import org.apache.kafka.streams.query.QueryResult;
import org.apache.kafka.streams.query.WindowRangeQuery;
import org.apache.kafka.streams.state.HeadersBytesStore;
import org.apache.kafka.streams.state.HeadersBytesStoreSupplier;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.SessionStore;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.internals.SessionKeySchema;
import org.iq80.leveldb.DBIterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.leveldbj.testing.SeedExtension;

/**
 * The whole {@code SessionStore} contract, checked against Kafka's in-memory session store as
 * the model: random sequences of every operation over a small key alphabet, session ends spread
 * over many segments with stream time advancing so that sessions expire, the store closed and
 * reopened now and then, and changelog restoration. Results must be the model's sessions in the
 * store's documented order (segment of the end, then Kafka's session key schema bytes), reversed
 * when backward.
 */
@ExtendWith(SeedExtension.class)
class SessionStoreContractTest {
    static final long RETENTION = 300;
    static final long SEGMENT = 50;

    @TempDir
    Path stateDir;

    private MockProcessorContext<Object, Object> context;
    private LeveldbSessionStore store;
    private SessionStore<Bytes, byte[]> model;

    private LeveldbSessionStore open() {
        return StoreFixture.init(new LeveldbSessionStore("session", RETENTION, SEGMENT), context);
    }

    private static List<String> ordered(List<KeyValue<Windowed<Bytes>, byte[]>> model, boolean forward) {
        return WindowedEntries.show(WindowedEntries.sorted(model,
                Comparator.<KeyValue<Windowed<Bytes>, byte[]>>comparingLong(kv -> kv.key.window().end() / SEGMENT)
                        .thenComparing(kv -> SessionKeySchema.toBinary(kv.key)), forward));
    }

    private static List<String> byEnd(List<KeyValue<Windowed<Bytes>, byte[]>> model) {
        List<KeyValue<Windowed<Bytes>, byte[]>> sorted = new ArrayList<>(model);
        sorted.sort(Comparator.<KeyValue<Windowed<Bytes>, byte[]>>comparingLong(kv -> kv.key.window().end())
                .thenComparing(kv -> kv.key.key()).thenComparingLong(kv -> kv.key.window().start()));
        return WindowedEntries.show(sorted);
    }

    @Test
    void everyOperationAgreesWithTheInMemoryStore(Random r) {
        context = StoreFixture.context(stateDir.toFile(), new Properties());
        model = StoreFixture.init(Stores.inMemorySessionStore("model", Duration.ofMillis(RETENTION)).get(), context);
        store = open();
        long now = 0;
        List<ConsumerRecord<byte[], byte[]>> pendingRestore = new ArrayList<>();
        long offset = 0;
        for (int step = 0; step < 3000; step++) {
            String at = "step " + step;
            Bytes k = WindowStoreContractTest.randomKey(r);
            Bytes k1 = r.nextInt(6) == 0 ? null : WindowStoreContractTest.randomKey(r);
            Bytes k2 = r.nextInt(6) == 0 ? null : WindowStoreContractTest.randomKey(r);
            if (k1 != null && k2 != null && k1.compareTo(k2) > 0 && r.nextInt(10) != 0) {
                Bytes swap = k1;
                k1 = k2;
                k2 = swap;
            }
            if (r.nextInt(3) == 0) {
                now += r.nextInt(8);
            }
            long end = Math.max(0, now - r.nextInt((int) RETENTION + 60));
            long start = Math.max(0, end - r.nextInt(40));
            Windowed<Bytes> session = new Windowed<>(k, new SessionWindow(start, end));
            long t1 = Math.max(-5, now - r.nextInt((int) RETENTION + 80));
            long t2 = r.nextInt(5) == 0 ? Long.MAX_VALUE : t1 + r.nextInt(250) - 20;
            boolean forward = r.nextBoolean();
            int op = r.nextInt(13);
            if (op != 10 && !pendingRestore.isEmpty()) {
                store.restoreBatch(pendingRestore);
                pendingRestore.clear();
            }
            switch (op) {
                case 0, 1, 2, 3 -> {
                    byte[] v = r.nextInt(10) == 0 ? null : WindowStoreContractTest.randomValue(r);
                    store.put(session, v);
                    model.put(session, v);
                }
                case 4 -> {
                    store.remove(session);
                    model.remove(session);
                }
                case 5 -> assertArrayEquals(model.fetchSession(k, start, end), store.fetchSession(k, start, end),
                        at + " fetchSession " + session);
                case 6 -> assertEquals(ordered(WindowedEntries.drain(model.findSessions(k, t1, t2)), forward),
                        WindowedEntries.show(WindowedEntries.drain(forward ? store.findSessions(k, t1, t2) : store.backwardFindSessions(k, t1, t2))),
                        at + " findSessions " + k + " " + t1 + " " + t2);
                case 7 -> {
                    List<String> expected = k1 != null && k2 != null && k1.compareTo(k2) > 0 ? List.of()
                            : ordered(WindowedEntries.drain(model.findSessions(k1, k2, t1, t2)), forward);
                    assertEquals(expected, WindowedEntries.show(WindowedEntries.drain(forward ? store.findSessions(k1, k2, t1, t2)
                            : store.backwardFindSessions(k1, k2, t1, t2))), at + " findSessions " + k1 + ".." + k2);
                }
                case 8 -> {
                    if (k1 != null && k2 != null && k1.compareTo(k2) > 0) {
                        break;
                    }
                    assertEquals(ordered(WindowedEntries.drain(model.fetch(k1, k2)), forward),
                            WindowedEntries.show(WindowedEntries.drain(forward ? store.fetch(k1, k2) : store.backwardFetch(k1, k2))), at + " fetch range");
                }
                case 9 -> {
                    assertEquals(ordered(WindowedEntries.drain(model.fetch(k)), forward),
                            WindowedEntries.show(WindowedEntries.drain(forward ? store.fetch(k) : store.backwardFetch(k))), at + " fetch " + k);
                    // Kafka's in-memory store throws on a reversed time range; this store returns nothing.
                    // By end time, then key, then start (the model orders equal ends and keys otherwise).
                    assertEquals(t2 < t1 ? List.of() : byEnd(WindowedEntries.drain(model.findSessions(t1, t2))),
                            WindowedEntries.show(WindowedEntries.drain(store.findSessions(t1, t2))),
                            at + " findSessions by end " + t1 + ".." + t2);
                }
                case 10 -> {
                    byte[] v = r.nextInt(10) == 0 ? null : WindowStoreContractTest.randomValue(r);
                    pendingRestore.add(new ConsumerRecord<>("changelog", 0, offset++,
                            SessionKeySchema.toBinary(session).get(), v));
                    model.put(session, v);
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
                        store = open();
                    }
                }
            }
        }
        if (!pendingRestore.isEmpty()) {
            store.restoreBatch(pendingRestore);
        }
        assertEquals(ordered(WindowedEntries.drain(model.fetch(null, null)), true), WindowedEntries.show(WindowedEntries.drain(store.fetch(null, null))), "at the end");
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
        store = open();
        for (int i = 0; i < 2000; i++) {
            long end = i / 20;
            store.put(new Windowed<>(Bytes.wrap(("key" + i % 50).getBytes()), new SessionWindow(Math.max(0, end - 3), end)),
                    new byte[100]);
        }
        assertEquals(2000, rawDataEntries(store.database()));
        store.put(new Windowed<>(Bytes.wrap("late".getBytes()), new SessionWindow(0, 100 + RETENTION + SEGMENT)),
                new byte[] {1});
        store.segments().awaitExpiry();
        assertEquals(1, rawDataEntries(store.database()), "only the newest session is left in the database");
        store.close();
    }

    @Test
    void offsetsQueriesAndClosedStore() {
        context = StoreFixture.context(stateDir.toFile(), new Properties());
        store = open();
        TopicPartition tp = new TopicPartition("app-session-changelog", 0);
        Bytes k = Bytes.wrap(new byte[] {'k'});
        context.setRecordMetadata("input", 0, 3);
        store.put(new Windowed<>(k, new SessionWindow(5, 10)), new byte[] {1});
        store.commit(Map.of(tp, 9L));
        store.close();
        store = open();
        assertTrue(store.managesOffsets());
        assertEquals(9L, store.committedOffset(tp));
        QueryResult<KeyValueIterator<Windowed<Bytes>, byte[]>> q = store.query(WindowRangeQuery.withKey(k),
                PositionBound.unbounded(), new QueryConfig(false));
        assertTrue(q.isSuccess(), String.valueOf(q));
        assertEquals(List.of("k@5-10=\\x01"), WindowedEntries.show(WindowedEntries.drain(q.getResult())));
        KeyValueIterator<Windowed<Bytes>, byte[]> it = store.fetch(k);
        store.close();
        assertFalse(it.hasNext(), "closing the store exhausted its iterator, as Kafka's window and session iterators");
        it.close();
        assertThrows(InvalidStateStoreException.class, () -> store.fetch(k));
        assertThrows(InvalidStateStoreException.class, () -> store.put(new Windowed<>(k, new SessionWindow(1, 2)), null));
        assertThrows(InvalidStateStoreException.class, () -> store.findSessions(0, 5));
        assertNull(null);
    }

    @Test
    void suppliersValidateAsKafkasAndCarryTheMarkers() {
        assertThrows(NullPointerException.class, () -> LeveldbStores.persistentSessionStore(null, Duration.ofMinutes(1)));
        assertThrows(IllegalArgumentException.class, () -> LeveldbStores.persistentSessionStore("s", Duration.ofMinutes(-1)));
        LeveldbSessionBytesStoreSupplier s = LeveldbStores.persistentSessionStore("s", Duration.ofHours(1));
        assertEquals(Duration.ofMinutes(30).toMillis(), s.segmentIntervalMs());
        assertEquals(60_000L, LeveldbStores.persistentSessionStore("s", Duration.ofSeconds(1)).segmentIntervalMs());
        assertEquals(Duration.ofHours(1).toMillis(), s.retentionPeriod());
        assertEquals("leveldbj", s.metricsScope());
        assertFalse(s.get() instanceof HeadersBytesStore);
        LeveldbSessionBytesStoreSupplier h = LeveldbStores.persistentSessionStoreWithHeaders("s", Duration.ofHours(1));
        assertTrue(h instanceof HeadersBytesStoreSupplier && h.get() instanceof HeadersBytesStore);
    }
}
