package org.leveldbj.kafka.streams;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Properties;
import java.util.Random;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.leveldbj.testing.SeedExtension;

/**
 * The whole {@code KeyValueStore} contract, checked against Kafka's in-memory store as the model:
 * random sequences of every operation (keys from a small alphabet so that ranges, prefixes,
 * overwrites and deletes meet), with the store closed and reopened now and then; every result
 * must equal the model's. A failure reports its seed ({@link SeedExtension}).
 */
@ExtendWith(SeedExtension.class)
class KeyValueStoreContractTest {
    @TempDir
    Path stateDir;

    private MockProcessorContext<Object, Object> context;
    private LeveldbKeyValueStore store;
    private KeyValueStore<Bytes, byte[]> model;

    private void open() {
        store = StoreFixture.init(new LeveldbKeyValueStore("contract"), context);
    }

    private static Bytes randomKey(Random r) {
        byte[] k = new byte[1 + r.nextInt(3)];
        for (int i = 0; i < k.length; i++) {
            k[i] = (byte) (r.nextInt(5) == 0 ? 0xff : 'a' + r.nextInt(4));
        }
        return Bytes.wrap(k);
    }

    private static byte[] randomValue(Random r) {
        byte[] v = new byte[r.nextInt(12)];
        r.nextBytes(v);
        return v;
    }

    private static List<String> drain(KeyValueIterator<Bytes, byte[]> it) {
        List<String> out = new ArrayList<>();
        try (it) {
            while (it.hasNext()) {
                Bytes peeked = it.peekNextKey();
                KeyValue<Bytes, byte[]> kv = it.next();
                assertEquals(peeked, kv.key, "peekNextKey is the next key");
                out.add(kv.key + "=" + Bytes.wrap(kv.value));
            }
            assertThrows(NoSuchElementException.class, it::next);
        }
        return out;
    }

    @Test
    void everyOperationAgreesWithTheInMemoryStore(Random r) {
        context = StoreFixture.context(stateDir.toFile(), new Properties());
        model = StoreFixture.init(Stores.inMemoryKeyValueStore("model").get(), context);
        open();
        for (int step = 0; step < 3000; step++) {
            String at = "step " + step;
            Bytes k = randomKey(r);
            Bytes k2 = r.nextInt(8) == 0 ? null : randomKey(r);
            Bytes k1 = r.nextInt(8) == 0 ? null : randomKey(r);
            switch (r.nextInt(14)) {
                case 0, 1, 2 -> {
                    byte[] v = r.nextInt(10) == 0 ? null : randomValue(r);
                    store.put(k, v);
                    model.put(k, v);
                }
                case 3 -> {
                    byte[] v = randomValue(r);
                    assertArrayEquals(model.putIfAbsent(k, v), store.putIfAbsent(k, v), at);
                }
                case 4 -> {
                    List<KeyValue<Bytes, byte[]>> batch = new ArrayList<>();
                    for (int i = r.nextInt(6); i >= 0; i--) {
                        batch.add(KeyValue.pair(randomKey(r), r.nextInt(5) == 0 ? null : randomValue(r)));
                    }
                    store.putAll(batch);
                    model.putAll(batch);
                }
                case 5 -> assertArrayEquals(model.delete(k), store.delete(k), at);
                case 6, 7 -> assertArrayEquals(model.get(k), store.get(k), at);
                case 8 -> assertEquals(drain(model.range(k1, k2)), drain(store.range(k1, k2)), at + " range " + k1 + ".." + k2);
                case 9 -> assertEquals(drain(model.reverseRange(k1, k2)), drain(store.reverseRange(k1, k2)),
                        at + " reverseRange " + k1 + ".." + k2);
                case 10 -> assertEquals(drain(model.all()), drain(store.all()), at);
                case 11 -> assertEquals(drain(model.reverseAll()), drain(store.reverseAll()), at);
                case 12 -> {
                    // The model is the in-memory store's keys that start with the prefix: Kafka's
                    // own prefixScan also returns keys after the prefix when it ends in 0xff bytes
                    // (it scans up to the prefix "incremented" with a carry) and fails on a
                    // prefix made only of them.
                    byte[] prefix = k.get();
                    List<String> expected = new ArrayList<>();
                    try (KeyValueIterator<Bytes, byte[]> it = model.all()) {
                        it.forEachRemaining(kv -> {
                            byte[] key = kv.key.get();
                            if (key.length >= prefix.length
                                    && Arrays.equals(key, 0, prefix.length, prefix, 0, prefix.length)) {
                                expected.add(kv.key + "=" + Bytes.wrap(kv.value));
                            }
                        });
                    }
                    assertEquals(expected, drain(store.prefixScan(prefix, new ByteArraySerializer())), at + " prefix " + k);
                }
                default -> {
                    if (r.nextInt(10) == 0) {
                        store.commit(Map.of());
                        store.close();
                        assertFalse(store.isOpen());
                        open();
                    }
                    long exact = model.approximateNumEntries();
                    assertEquals(exact, store.approximateNumEntries(), at + ": exact while small");
                }
            }
        }
        assertEquals(drain(model.all()), drain(store.all()), "at the end");
        store.close();
    }

    @Test
    void prefixScanUsesTheKeySerializer() {
        context = StoreFixture.context(stateDir.toFile(), new Properties());
        open();
        for (String k : new String[] {"user:1", "user:2", "users", "uses", "user", "admin:1"}) {
            store.put(Bytes.wrap(k.getBytes()), k.getBytes());
        }
        List<String> keys = new ArrayList<>();
        try (KeyValueIterator<Bytes, byte[]> it = store.prefixScan("user:", new StringSerializer())) {
            it.forEachRemaining(kv -> keys.add(new String(kv.key.get())));
        }
        assertEquals(List.of("user:1", "user:2"), keys);
        byte[] allFf = {(byte) 0xff, (byte) 0xff};
        store.put(Bytes.wrap(new byte[] {(byte) 0xff, (byte) 0xff, 1}), new byte[] {1});
        assertEquals(1, drain(store.prefixScan(allFf, new ByteArraySerializer())).size(), "a prefix of 0xff bytes has no end");
        store.close();
    }

    @Test
    void aRangeWithItsBoundsReversedIsEmpty() {
        context = StoreFixture.context(stateDir.toFile(), new Properties());
        open();
        store.put(Bytes.wrap(new byte[] {'b'}), new byte[] {1});
        assertEquals(List.of(), drain(store.range(Bytes.wrap(new byte[] {'c'}), Bytes.wrap(new byte[] {'a'}))));
        assertEquals(List.of(), drain(store.reverseRange(Bytes.wrap(new byte[] {'c'}), Bytes.wrap(new byte[] {'a'}))));
        store.close();
    }

    @Test
    void aClosedStoreAndItsIteratorsRefuseEveryUse() {
        context = StoreFixture.context(stateDir.toFile(), new Properties());
        open();
        Bytes k = Bytes.wrap(new byte[] {'k'});
        store.put(k, new byte[] {1});
        KeyValueIterator<Bytes, byte[]> open = store.all();
        assertTrue(open.hasNext());
        store.close();
        store.close(); // twice is harmless
        assertThrows(InvalidStateStoreException.class, open::hasNext, "the store closed its iterator");
        open.close();
        assertThrows(InvalidStateStoreException.class, () -> store.get(k));
        assertThrows(InvalidStateStoreException.class, () -> store.put(k, new byte[0]));
        assertThrows(InvalidStateStoreException.class, () -> store.putIfAbsent(k, new byte[0]));
        assertThrows(InvalidStateStoreException.class, () -> store.putAll(List.of()));
        assertThrows(InvalidStateStoreException.class, () -> store.delete(k));
        assertThrows(InvalidStateStoreException.class, store::all);
        assertThrows(InvalidStateStoreException.class, store::reverseAll);
        assertThrows(InvalidStateStoreException.class, () -> store.range(k, k));
        assertThrows(InvalidStateStoreException.class, () -> store.prefixScan(k.get(), new ByteArraySerializer()));
        assertThrows(InvalidStateStoreException.class, store::approximateNumEntries);
        assertThrows(InvalidStateStoreException.class, () -> store.commit(Map.<TopicPartition, Long>of()));
        assertFalse(store.isOpen());
        assertTrue(store.persistent());
        open();
        assertArrayEquals(new byte[] {1}, store.get(k), "the data outlives the close");
        assertNull(store.get(Bytes.wrap(new byte[] {'x'})));
        store.close();
    }
}
