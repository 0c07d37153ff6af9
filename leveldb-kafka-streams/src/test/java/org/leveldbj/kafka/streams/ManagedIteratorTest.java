package org.leveldbj.kafka.streams;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.internals.ManagedKeyValueIterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The store's iterators are Kafka's {@code ManagedKeyValueIterator}s, whose close actions run
 * once, whether the iterator is closed or its store closes; and an inverted range is empty with
 * Kafka's own warning.
 */
class ManagedIteratorTest {
    @TempDir
    Path stateDir;

    private LeveldbKeyValueStore store() {
        MockProcessorContext<Object, Object> context = StoreFixture.context(stateDir.toFile(), new Properties());
        LeveldbKeyValueStore store = StoreFixture.init(new LeveldbKeyValueStore("managed"), context);
        for (String k : List.of("a", "b", "c")) {
            store.put(Bytes.wrap(k.getBytes()), k.getBytes());
        }
        return store;
    }

    @Test
    void closeActionsRunOnceWhenTheIteratorCloses() {
        LeveldbKeyValueStore store = store();
        for (KeyValueIterator<Bytes, byte[]> it : List.of(store.all(), store.reverseAll(),
                store.range(Bytes.wrap("a".getBytes()), Bytes.wrap("b".getBytes())),
                store.prefixScan("b", new org.apache.kafka.common.serialization.StringSerializer()))) {
            ManagedKeyValueIterator<Bytes, byte[]> managed = assertInstanceOfManaged(it);
            AtomicInteger closed = new AtomicInteger();
            managed.onClose(closed::incrementAndGet);
            assertTrue(managed.hasNext());
            managed.close();
            managed.close();
            assertEquals(1, closed.get());
            assertThrows(InvalidStateStoreException.class, managed::hasNext);
        }
        store.close();
    }

    @Test
    void closeActionsRunWhenTheStoreCloses() {
        LeveldbKeyValueStore store = store();
        ManagedKeyValueIterator<Bytes, byte[]> managed = assertInstanceOfManaged(store.all());
        AtomicInteger closed = new AtomicInteger();
        managed.onClose(closed::incrementAndGet);
        store.close();
        assertEquals(1, closed.get());
        assertThrows(InvalidStateStoreException.class, managed::hasNext);
        managed.close();
        assertEquals(1, closed.get());
    }

    @Test
    void anInvertedRangeIsEmptyWithKafkasWarning() {
        LeveldbKeyValueStore store = store();
        java.io.PrintStream err = System.err;
        java.io.ByteArrayOutputStream captured = new java.io.ByteArrayOutputStream();
        System.setErr(new java.io.PrintStream(captured, true));
        try {
            try (KeyValueIterator<Bytes, byte[]> it = store.range(Bytes.wrap("c".getBytes()), Bytes.wrap("a".getBytes()))) {
                assertFalse(it.hasNext());
            }
        } finally {
            System.setErr(err);
            store.close();
        }
        assertTrue(captured.toString().contains("Returning empty iterator for fetch with invalid key range: from > to. "
                + "This may be due to range arguments set in the wrong order, or serdes that don't preserve ordering "
                + "when lexicographically comparing the serialized bytes. Note that the built-in numerical serdes do "
                + "not follow this for negative numbers"), captured.toString());
    }

    private static ManagedKeyValueIterator<Bytes, byte[]> assertInstanceOfManaged(KeyValueIterator<Bytes, byte[]> it) {
        assertTrue(it instanceof ManagedKeyValueIterator, it.getClass().getName());
        return (ManagedKeyValueIterator<Bytes, byte[]>) it;
    }
}
