package org.leveldbj.memtable;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.leveldbj.comparator.BytewiseComparator;
import org.leveldbj.iterator.SortedIterator;
import org.leveldbj.key.InternalKeys;
import org.leveldbj.key.LookupResult;
import org.leveldbj.key.ValueType;
import org.leveldbj.testing.Seed;
import org.leveldbj.testing.SeedExtension;
import org.leveldbj.util.Bytes;

/**
 * One writer inserts while readers scan forward and backward, seek and step both ways, and
 * look keys up, all without a lock. Entry i carries sequence i, and the writer publishes i only
 * after inserting it, as the engine does; a reader that starts after i was published must see
 * every entry up to i, in order, with its exact bytes.
 */
@ExtendWith(SeedExtension.class)
class MemTableConcurrencyTest {
    private static final int ENTRIES = 30_000;
    private static final int READERS = 3;
    private static final byte[] ALPHABET = {0, 'a', 'b', 'c', (byte) 0x80, (byte) 0xff};
    private static final Comparator<byte[]> ORDER = Model.order(BytewiseComparator.INSTANCE);

    // Entry i (1-based) of the run.
    private final byte[][] keys = new byte[ENTRIES + 1][];
    private final byte[][] values = new byte[ENTRIES + 1][];
    private final ValueType[] types = new ValueType[ENTRIES + 1];
    private final byte[][] internalKeys = new byte[ENTRIES + 1][];
    /** Per user key, the sequences of its entries, ascending. */
    private final Map<ByteBuffer, long[]> sequencesByKey = new HashMap<>();

    private final AtomicLong published = new AtomicLong();
    private final AtomicBoolean writerDone = new AtomicBoolean();
    private final ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
    private final LongAdder scans = new LongAdder();
    private final LongAdder seeks = new LongAdder();
    private final LongAdder gets = new LongAdder();
    /** Reader operations started before the writer finished. */
    private final LongAdder concurrent = new LongAdder();

    private void generate(Random random) {
        Map<ByteBuffer, List<Long>> byKey = new HashMap<>();
        for (int i = 1; i <= ENTRIES; i++) {
            byte[] key = new byte[random.nextInt(6)];
            for (int j = 0; j < key.length; j++) {
                key[j] = ALPHABET[random.nextInt(ALPHABET.length)];
            }
            keys[i] = key;
            types[i] = random.nextInt(6) == 0 ? ValueType.DELETION : ValueType.VALUE;
            int length = types[i] == ValueType.DELETION ? 0
                    : random.nextInt(400) == 0 ? 20_000 + random.nextInt(20_000) : random.nextInt(120);
            values[i] = new byte[length];
            random.nextBytes(values[i]);
            internalKeys[i] = InternalKeys.encode(key, i, types[i]);
            byKey.computeIfAbsent(ByteBuffer.wrap(key), k -> new ArrayList<>()).add((long) i);
        }
        byKey.forEach((k, list) -> sequencesByKey.put(k, list.stream().mapToLong(Long::longValue).toArray()));
    }

    @Test
    void readersSeeSortedCompleteDataWhileOneWriterInserts(@Seed long seed) throws Exception {
        generate(new Random(seed));
        MemTable mem = new MemTable(BytewiseComparator.INSTANCE, 16 * 1024);
        assertTimeoutPreemptively(Duration.ofSeconds(120), () -> {
            List<Thread> threads = new ArrayList<>();
            threads.add(new Thread(() -> guard(() -> write(mem)), "memtable-writer"));
            for (int r = 0; r < READERS; r++) {
                long readerSeed = seed + 1 + r;
                threads.add(new Thread(() -> guard(() -> read(mem, new Random(readerSeed))), "memtable-reader-" + r));
            }
            threads.forEach(Thread::start);
            for (Thread t : threads) {
                t.join();
            }
        });
        System.out.println("MemTableConcurrencyTest: " + scans.sum() + " full scans, " + seeks.sum()
                + " seeks with steps, " + gets.sum() + " gets; " + concurrent.sum()
                + " operations started while writing");
        if (!failures.isEmpty()) {
            Throwable first = failures.peek();
            failures.stream().skip(1).forEach(first::addSuppressed);
            throw new AssertionError("a thread failed", first);
        }
        // Once quiet, everything is there.
        assertEquals(ENTRIES, scan(mem, true, ENTRIES));
        assertEquals(ENTRIES, scan(mem, false, ENTRIES));
        mem.unref();
    }

    private void guard(Runnable body) {
        try {
            body.run();
        } catch (Throwable t) {
            failures.add(t);
            writerDone.set(true); // stop the others early
        }
    }

    private void write(MemTable mem) {
        for (int i = 1; i <= ENTRIES; i++) {
            mem.add(i, types[i], keys[i], 0, keys[i].length, values[i], 0, values[i].length);
            published.set(i);
            if (i % 16 == 0) {
                // Slow down so that readers run many operations while entries keep arriving.
                LockSupport.parkNanos(100_000);
            }
        }
        writerDone.set(true);
    }

    private void read(MemTable mem, Random random) {
        int rounds = 0;
        while (!writerDone.get() || rounds < 3) {
            if (!writerDone.get()) {
                concurrent.increment();
            }
            switch (random.nextInt(4)) {
                case 0 -> {
                    long snapshot = published.get();
                    assertTrue(scan(mem, true, snapshot) >= snapshot);
                }
                case 1 -> {
                    long snapshot = published.get();
                    assertTrue(scan(mem, false, snapshot) >= snapshot);
                }
                case 2 -> seekAndStep(mem, random);
                default -> lookUp(mem, random);
            }
            rounds++;
        }
    }

    /**
     * Walks the whole memtable one way, checking order and content, and that every entry with a
     * sequence at most {@code snapshot} is seen.
     *
     * @return the number of entries seen
     */
    private long scan(MemTable mem, boolean forward, long snapshot) {
        long seen = 0;
        long seenUpToSnapshot = 0;
        try (SortedIterator it = mem.iterator()) {
            if (forward) {
                it.seekToFirst();
            } else {
                it.seekToLast();
            }
            byte[] previous = null;
            while (it.valid()) {
                byte[] key = checkEntry(it);
                if (previous != null) {
                    int c = ORDER.compare(previous, key);
                    assertTrue(forward ? c < 0 : c > 0, () -> "out of order: " + Model.describe(key));
                }
                previous = key;
                seen++;
                if (InternalKeys.sequence(InternalKeys.trailer(key)) <= snapshot) {
                    seenUpToSnapshot++;
                }
                if (forward) {
                    it.next();
                } else {
                    it.prev();
                }
            }
        }
        assertEquals(snapshot, seenUpToSnapshot, (forward ? "forward" : "backward")
                + " scan missed entries published before it started");
        scans.increment();
        return seen;
    }

    /** Checks the iterator's entry against the generated data; returns a copy of its key. */
    private byte[] checkEntry(SortedIterator it) {
        byte[] key = Bytes.toArray(it.key());
        long trailer = InternalKeys.trailer(key);
        int sequence = (int) InternalKeys.sequence(trailer);
        assertTrue(sequence >= 1 && sequence <= ENTRIES, "sequence " + sequence);
        assertArrayEquals(internalKeys[sequence], key, "key of entry " + sequence);
        assertArrayEquals(values[sequence], Bytes.toArray(it.value()), "value of entry " + sequence);
        return key;
    }

    private void seekAndStep(MemTable mem, Random random) {
        long snapshot = published.get();
        int pick = 1 + random.nextInt(ENTRIES);
        byte[] target = InternalKeys.encode(keys[pick], random.nextInt(ENTRIES + 2), ValueType.FOR_SEEK);
        // The first entry at or after the target among those published.
        byte[] expected = null;
        for (int i = 1; i <= snapshot; i++) {
            if (ORDER.compare(internalKeys[i], target) >= 0
                    && (expected == null || ORDER.compare(internalKeys[i], expected) < 0)) {
                expected = internalKeys[i];
            }
        }
        try (SortedIterator it = mem.iterator()) {
            it.seek(ByteBuffer.wrap(target));
            // Skip entries newer than the snapshot; the first older one must be the expected one.
            byte[] found = null;
            while (it.valid()) {
                byte[] key = checkEntry(it);
                assertTrue(ORDER.compare(key, target) >= 0, "seek landed before its target");
                if (InternalKeys.sequence(InternalKeys.trailer(key)) <= snapshot) {
                    found = key;
                    break;
                }
                it.next();
            }
            if (expected == null) {
                assertEquals(null, found == null ? null : Model.describe(found), "seek past the end");
            } else {
                byte[] want = expected;
                assertTrue(found != null && Arrays.equals(want, found), () -> "seek " + Model.describe(target)
                        + ": expected " + Model.describe(want));
            }
            byte[] previous = found;
            for (int step = 0; step < 30 && it.valid(); step++) {
                boolean forward = random.nextBoolean();
                if (forward) {
                    it.next();
                } else {
                    it.prev();
                }
                if (!it.valid()) {
                    break;
                }
                byte[] key = checkEntry(it);
                int c = ORDER.compare(previous, key);
                assertTrue(forward ? c < 0 : c > 0, () -> "step landed out of order on " + Model.describe(key));
                previous = key;
            }
        }
        seeks.increment();
    }

    private void lookUp(MemTable mem, Random random) {
        for (int n = 0; n < 100; n++) {
            long snapshot = published.get();
            byte[] key = keys[1 + random.nextInt(ENTRIES)];
            long[] sequences = sequencesByKey.get(ByteBuffer.wrap(key));
            int index = Arrays.binarySearch(sequences, snapshot);
            int newest = index >= 0 ? index : -index - 2; // the last sequence <= snapshot
            LookupResult result = mem.get(key, snapshot);
            String what = "get " + Bytes.hex(key) + " @" + snapshot;
            if (newest < 0) {
                assertEquals(LookupResult.Status.NOT_FOUND, result.status(), what);
            } else {
                int sequence = (int) sequences[newest];
                if (types[sequence] == ValueType.DELETION) {
                    assertEquals(LookupResult.Status.DELETED, result.status(), what);
                } else {
                    assertArrayEquals(values[sequence], result.value(), what);
                }
            }
            gets.increment();
        }
    }
}
