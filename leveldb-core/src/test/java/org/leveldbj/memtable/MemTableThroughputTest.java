package org.leveldbj.memtable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.leveldbj.comparator.BytewiseComparator;
import org.leveldbj.iterator.SortedIterator;
import org.leveldbj.key.InternalKeys;
import org.leveldbj.key.ValueType;

/**
 * A sanity run of the db_bench-like memtable workload (16-byte keys, 100-byte values): prints
 * rates for orientation and asserts only the results, never the times. Real measurements
 * belong to the JMH benchmarks.
 */
class MemTableThroughputTest {
    private static final int ENTRIES = 200_000;

    @Test
    void insertGetAndScanAtDbBenchSizes() {
        Random random = new Random(301);
        byte[][] keys = new byte[ENTRIES][];
        for (int i = 0; i < ENTRIES; i++) {
            keys[i] = String.format("%016d", random.nextInt(Integer.MAX_VALUE)).getBytes(StandardCharsets.US_ASCII);
        }
        byte[] value = new byte[100];
        random.nextBytes(value);
        MemTable mem = new MemTable(BytewiseComparator.INSTANCE);

        long start = System.nanoTime();
        for (int i = 0; i < ENTRIES; i++) {
            mem.add(i + 1, ValueType.VALUE, keys[i], 0, 16, value, 0, value.length);
        }
        long inserted = System.nanoTime();
        int found = 0;
        for (int i = 0; i < ENTRIES; i++) {
            if (mem.get(keys[i], InternalKeys.MAX_SEQUENCE).isFound()) {
                found++;
            }
        }
        long looked = System.nanoTime();
        int forward = 0;
        int backward = 0;
        try (SortedIterator it = mem.iterator()) {
            for (it.seekToFirst(); it.valid(); it.next()) {
                forward += it.key().remaining() > 0 ? 1 : 0;
            }
            long scanned = System.nanoTime();
            for (it.seekToLast(); it.valid(); it.prev()) {
                backward += it.value().remaining() == 100 ? 1 : 0;
            }
            long reversed = System.nanoTime();
            System.out.printf("MemTableThroughputTest: %d entries, memory %d KiB; insert %.3f us/op, get %.3f us/op, "
                            + "forward scan %.3f us/op, backward scan %.3f us/op%n",
                    ENTRIES, mem.approximateMemoryUsage() / 1024, perOp(start, inserted), perOp(inserted, looked),
                    perOp(looked, scanned), perOp(scanned, reversed));
        }
        assertEquals(ENTRIES, found);
        assertEquals(ENTRIES, forward);
        assertEquals(ENTRIES, backward);
        assertTrue(mem.approximateMemoryUsage() > ENTRIES * 125L);
        mem.unref();
    }

    private static double perOp(long from, long to) {
        return (to - from) / 1000.0 / ENTRIES;
    }
}
