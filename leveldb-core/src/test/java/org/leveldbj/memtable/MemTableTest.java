package org.leveldbj.memtable;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ReadOnlyBufferException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.leveldbj.comparator.BytewiseComparator;
import org.leveldbj.comparator.KeyComparator;
import org.leveldbj.comparator.UserComparators;
import org.leveldbj.iterator.SortedIterator;
import org.leveldbj.key.InternalKeys;
import org.leveldbj.key.LookupResult;
import org.leveldbj.key.ValueType;
import org.leveldbj.testing.ReverseBytewiseComparator;
import org.leveldbj.testing.SeedExtension;
import org.leveldbj.util.Bytes;

@ExtendWith(SeedExtension.class)
class MemTableTest {
    private static final byte[] EMPTY = new byte[0];
    private static final byte[] ALPHABET = {0, 1, 'a', 'b', 0x7f, (byte) 0x80, (byte) 0xfe, (byte) 0xff};

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static void put(MemTable mem, long sequence, String key, String value) {
        byte[] k = bytes(key);
        byte[] v = bytes(value);
        mem.add(sequence, ValueType.VALUE, k, 0, k.length, v, 0, v.length);
    }

    private static void delete(MemTable mem, long sequence, String key) {
        byte[] k = bytes(key);
        mem.add(sequence, ValueType.DELETION, k, 0, k.length, EMPTY, 0, 0);
    }

    private static byte[] randomKey(Random random) {
        byte[] key = new byte[random.nextInt(5)];
        for (int i = 0; i < key.length; i++) {
            key[i] = ALPHABET[random.nextInt(ALPHABET.length)];
        }
        return key;
    }

    private static byte[] randomValue(Random random, int chunkSize) {
        int roll = random.nextInt(100);
        int length = roll < 10 ? 0 : roll < 97 ? random.nextInt(200) : chunkSize + random.nextInt(3 * chunkSize);
        byte[] value = new byte[length];
        random.nextBytes(value);
        return value;
    }

    /** Fills a memtable and its model with random entries; returns the sequences used, in order. */
    private static List<Long> fill(MemTable mem, Model model, Random random, int count, long firstSequence,
                                   int chunkSize) {
        List<Long> sequences = new ArrayList<>();
        long sequence = firstSequence;
        for (int i = 0; i < count; i++) {
            sequence += 1 + random.nextInt(3);
            byte[] key = randomKey(random);
            // Embed the key in a larger array to exercise offsets.
            byte[] keyBuf = new byte[key.length + 3];
            System.arraycopy(key, 0, keyBuf, 2, key.length);
            if (random.nextInt(5) == 0) {
                mem.add(sequence, ValueType.DELETION, keyBuf, 2, key.length, EMPTY, 0, 0);
                model.add(sequence, ValueType.DELETION, key, EMPTY);
            } else {
                byte[] value = randomValue(random, chunkSize);
                byte[] valBuf = new byte[value.length + 1];
                System.arraycopy(value, 0, valBuf, 1, value.length);
                mem.add(sequence, ValueType.VALUE, keyBuf, 2, key.length, valBuf, 1, value.length);
                model.add(sequence, ValueType.VALUE, key, value);
            }
            sequences.add(sequence);
        }
        return sequences;
    }

    private static void assertEntry(Map.Entry<byte[], byte[]> expected, SortedIterator it) {
        if (expected == null) {
            assertFalse(it.valid(), () -> "expected the end, found " + Model.describe(it.key()));
            return;
        }
        assertTrue(it.valid(), () -> "expected " + Model.describe(expected.getKey()) + ", found the end");
        assertEquals(Model.describe(expected.getKey()), Model.describe(it.key()));
        assertArrayEquals(expected.getKey(), Bytes.toArray(it.key()));
        assertArrayEquals(expected.getValue(), Bytes.toArray(it.value()));
    }

    private static void checkAgainstModel(MemTable mem, Model model, Random random, List<Long> sequences) {
        try (SortedIterator it = mem.iterator()) {
            assertFalse(it.valid());
            // Full forward scan.
            it.seekToFirst();
            for (Map.Entry<byte[], byte[]> e : model.entries.entrySet()) {
                assertEntry(e, it);
                it.next();
            }
            assertFalse(it.valid());
            // Full backward scan.
            it.seekToLast();
            for (Map.Entry<byte[], byte[]> e : model.entries.descendingMap().entrySet()) {
                assertEntry(e, it);
                it.prev();
            }
            assertFalse(it.valid());
            // Seeks, then mixed steps.
            for (int i = 0; i < 500; i++) {
                long sequence = random.nextInt(4) == 0 ? InternalKeys.MAX_SEQUENCE
                        : sequences.get(random.nextInt(sequences.size())) + random.nextInt(3) - 1;
                byte[] target = InternalKeys.encode(randomKey(random), sequence,
                        random.nextBoolean() ? ValueType.VALUE : ValueType.DELETION);
                ByteBuffer t = ByteBuffer.allocate(target.length + 4).position(2);
                t.put(target).flip().position(2);
                it.seek(t);
                assertEquals(2, t.position(), "seek must not move the target");
                Map.Entry<byte[], byte[]> expected = model.entries.ceilingEntry(target);
                assertEntry(expected, it);
                for (int step = 0; step < 10 && expected != null; step++) {
                    if (random.nextBoolean()) {
                        it.next();
                        expected = model.entries.higherEntry(expected.getKey());
                    } else {
                        it.prev();
                        expected = model.entries.lowerEntry(expected.getKey());
                    }
                    assertEntry(expected, it);
                }
            }
        }
    }

    private static void checkGets(MemTable mem, Model model, Random random, List<Long> sequences) {
        long last = sequences.get(sequences.size() - 1);
        for (int i = 0; i < 2000; i++) {
            byte[] key = randomKey(random);
            long snapshot = switch (random.nextInt(4)) {
                case 0 -> last;
                case 1 -> InternalKeys.MAX_SEQUENCE;
                case 2 -> sequences.get(0) - 1;
                default -> sequences.get(random.nextInt(sequences.size())) + random.nextInt(3) - 1;
            };
            LookupResult expected = model.get(key, snapshot);
            LookupResult actual = mem.get(key, snapshot);
            String what = "get " + Bytes.hex(key) + " @" + snapshot;
            assertEquals(expected.status(), actual.status(), what);
            if (expected.isFound()) {
                assertArrayEquals(expected.value(), actual.value(), what);
            } else {
                assertSame(expected, actual, "shared constants: " + what);
            }
        }
    }

    private static void randomized(KeyComparator user, long firstSequence, Random random) {
        int chunkSize = 4096;
        MemTable mem = new MemTable(user, chunkSize);
        Model model = new Model(user);
        List<Long> sequences = fill(mem, model, random, 3000, firstSequence, chunkSize);
        assertEquals(3000, model.entries.size());
        checkAgainstModel(mem, model, random, sequences);
        checkGets(mem, model, random, sequences);
        mem.unref();
    }

    @Test
    void randomizedBytewise(Random random) {
        randomized(BytewiseComparator.INSTANCE, 0, random);
    }

    @Test
    void randomizedBytewiseWithSequencesAboveTwoToThe55(Random random) {
        // Trailers of such sequences are negative as signed longs: they must compare unsigned.
        randomized(BytewiseComparator.INSTANCE, (1L << 55) - 100, random);
    }

    @Test
    void randomizedWithAnotherUserOrder(Random random) {
        randomized(UserComparators.of(ReverseBytewiseComparator.INSTANCE), 1000, random);
    }

    @Test
    void getSeesTheNewestEntryAtOrBeforeTheSnapshot() {
        MemTable mem = new MemTable(BytewiseComparator.INSTANCE);
        assertTrue(mem.isEmpty());
        put(mem, 10, "k", "v10");
        delete(mem, 20, "k");
        put(mem, 30, "k", "v30");
        put(mem, 15, "", "empty key");
        put(mem, 16, "e", "");
        assertFalse(mem.isEmpty());
        assertSame(LookupResult.NOT_FOUND, mem.get(bytes("k"), 9));
        assertArrayEquals(bytes("v10"), mem.get(bytes("k"), 10).value());
        assertArrayEquals(bytes("v10"), mem.get(bytes("k"), 19).value());
        assertSame(LookupResult.DELETED, mem.get(bytes("k"), 20));
        assertSame(LookupResult.DELETED, mem.get(bytes("k"), 29));
        assertArrayEquals(bytes("v30"), mem.get(bytes("k"), 30).value());
        assertArrayEquals(bytes("v30"), mem.get(bytes("k"), InternalKeys.MAX_SEQUENCE).value());
        assertArrayEquals(bytes("empty key"), mem.get(EMPTY, 100).value());
        assertEquals(0, mem.get(bytes("e"), 100).value().length);
        assertSame(LookupResult.NOT_FOUND, mem.get(bytes("j"), 100));
        assertSame(LookupResult.NOT_FOUND, mem.get(bytes("kk"), 100));
        assertSame(LookupResult.NOT_FOUND, mem.get(bytes("a"), 100));
        assertThrows(IllegalStateException.class, () -> LookupResult.DELETED.value());
        mem.unref();
    }

    @Test
    void equalSequenceValueSortsBeforeDeletion() {
        MemTable mem = new MemTable(BytewiseComparator.INSTANCE);
        delete(mem, 5, "k");
        put(mem, 5, "k", "v");
        try (SortedIterator it = mem.iterator()) {
            it.seekToFirst();
            assertEquals(ValueType.VALUE.persistentId(), InternalKeys.typeByte(trailer(it.key())));
            it.next();
            assertEquals(ValueType.DELETION.persistentId(), InternalKeys.typeByte(trailer(it.key())));
        }
        assertArrayEquals(bytes("v"), mem.get(bytes("k"), 5).value());
        mem.unref();
    }

    private static long trailer(ByteBuffer internalKey) {
        return InternalKeys.trailer(Bytes.toArray(internalKey));
    }

    @Test
    void valuesAreReadOnlyKeysAreCopiesAndIteratorRequiresPosition() {
        MemTable mem = new MemTable(BytewiseComparator.INSTANCE);
        put(mem, 1, "k", "v");
        try (SortedIterator it = mem.iterator()) {
            assertThrows(IllegalStateException.class, it::key);
            assertThrows(IllegalStateException.class, it::next);
            it.seekToFirst();
            ByteBuffer key = it.key();
            ByteBuffer value = it.value();
            assertTrue(value.isReadOnly(), "values are views of the arena");
            assertThrows(ReadOnlyBufferException.class, () -> value.put(value.position(), (byte) 0));
            assertTrue(key.hasArray(), "keys are heap copies, like the tables' keys");
            assertArrayEquals(bytes("v"), Bytes.toArray(value));
            byte[] internalKey = InternalKeys.encode(bytes("k"), 1, ValueType.VALUE);
            assertArrayEquals(internalKey, Bytes.toArray(key));
            key.put(key.position(), (byte) 'x'); // a caller breaking the contract damages its copy only
            it.seekToFirst();
            it.next();
            it.seek(ByteBuffer.wrap(internalKey));
            assertArrayEquals(internalKey, Bytes.toArray(it.key()), "a new position copies the key again");
            it.prev();
            assertFalse(it.valid());
            assertThrows(IllegalArgumentException.class, () -> it.seek(ByteBuffer.allocate(7)));
        }
        mem.unref();
    }

    @Test
    void rejectsBadArguments() {
        MemTable mem = new MemTable(BytewiseComparator.INSTANCE);
        byte[] k = bytes("key");
        assertThrows(IllegalArgumentException.class,
                () -> mem.add(InternalKeys.MAX_SEQUENCE + 1, ValueType.VALUE, k, 0, 3, k, 0, 3));
        assertThrows(IllegalArgumentException.class, () -> mem.add(-1, ValueType.VALUE, k, 0, 3, k, 0, 3));
        assertThrows(IndexOutOfBoundsException.class, () -> mem.add(1, ValueType.VALUE, k, 1, 3, k, 0, 3));
        assertThrows(IndexOutOfBoundsException.class, () -> mem.add(1, ValueType.VALUE, k, 0, 3, k, -1, 3));
        assertTrue(mem.isEmpty());
        mem.unref();
    }

    @Test
    void memoryUsageTracksTheData() {
        MemTable mem = new MemTable(BytewiseComparator.INSTANCE, 64 * 1024);
        long empty = mem.approximateMemoryUsage();
        assertTrue(empty > 0 && empty < 256, "empty " + empty);
        byte[] value = new byte[100];
        long previous = empty;
        for (int i = 0; i < 10_000; i++) {
            byte[] key = String.format("key%012d", i).getBytes(StandardCharsets.US_ASCII);
            mem.add(i, ValueType.VALUE, key, 0, key.length, value, 0, value.length);
            long usage = mem.approximateMemoryUsage();
            assertTrue(usage > previous, "usage grows with every entry");
            previous = usage;
        }
        // Entry: 1 + 23 + 1 + 100 = 125 bytes; node overhead 9 + 8 * height, about 19.7 on
        // average; 8-byte alignment pads by up to 7.
        long perEntry = (previous - empty) / 10_000;
        assertTrue(perEntry >= 125 + 17 && perEntry <= 125 + 9 + 8 * 2 + 7 + 8, "per entry " + perEntry);
        assertTrue(mem.arena().reservedBytes() >= previous);
        mem.unref();
    }

    @Test
    void referenceCountingFreesTheArenaAndRejectsUseAfterRelease() {
        MemTable mem = new MemTable(BytewiseComparator.INSTANCE, 4096);
        put(mem, 1, "a", "1");
        mem.ref();
        assertEquals(2, mem.refCount());
        SortedIterator it = mem.iterator();
        assertEquals(3, mem.refCount());
        mem.unref();
        mem.unref();
        // The iterator's reference keeps the memory alive.
        assertEquals(1, mem.refCount());
        assertFalse(mem.arena().isClosed());
        it.seekToFirst();
        assertArrayEquals(bytes("1"), Bytes.toArray(it.value()));
        it.close();
        it.close(); // harmless
        assertEquals(0, mem.refCount());
        assertTrue(mem.arena().isClosed());
        assertThrows(IllegalStateException.class, it::seekToFirst);
        assertThrows(IllegalStateException.class, () -> mem.get(bytes("a"), 1));
        assertThrows(IllegalStateException.class, () -> put(mem, 2, "b", "2"));
        assertThrows(IllegalStateException.class, mem::iterator);
        assertThrows(IllegalStateException.class, mem::isEmpty);
        assertThrows(IllegalStateException.class, mem::ref);
        assertThrows(IllegalStateException.class, mem::unref);
        assertEquals(0, mem.refCount());
    }
}
