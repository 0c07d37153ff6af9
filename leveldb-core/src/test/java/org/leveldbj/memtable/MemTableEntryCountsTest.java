package org.leveldbj.memtable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.leveldbj.comparator.BytewiseComparator;
import org.leveldbj.key.ValueType;
import org.leveldbj.table.EntryCounts;
import org.leveldbj.table.KeyCounts;
import org.leveldbj.testing.Seed;
import org.leveldbj.testing.SeedExtension;

/**
 * A memtable counts the entries and deletions added, and the distinct user keys (live, and first
 * written as deletions), and a reader on another thread sees them consistently.
 */
@ExtendWith(SeedExtension.class)
class MemTableEntryCountsTest {
    private static final byte[] EMPTY = new byte[0];

    @Test
    void countsEveryEntryAndEveryDeletion(@Seed long seed) {
        Random r = new Random(seed);
        MemTable mem = new MemTable(BytewiseComparator.INSTANCE);
        try {
            assertEquals(new EntryCounts(0, 0, 0, new KeyCounts(0, 0, 0, 0)), mem.entryCounts());
            long entries = 0;
            long deletions = 0;
            // Per user key: whether its newest version is a value, whether its first one was a deletion.
            java.util.Map<String, boolean[]> keys = new java.util.HashMap<>();
            for (int seq = 1; seq <= 5000; seq++) {
                // Few keys: overwrites and deletions of the same keys count as entries every time,
                // as keys once.
                byte[] key = ("k" + r.nextInt(50)).getBytes(StandardCharsets.US_ASCII);
                ValueType type = switch (r.nextInt(3)) {
                    case 0 -> ValueType.DELETION;
                    case 1 -> ValueType.VALUE_REFERENCE;
                    default -> ValueType.VALUE;
                };
                byte[] value = type == ValueType.DELETION ? EMPTY : new byte[r.nextInt(30)];
                mem.add(seq, type, key, 0, key.length, value, 0, value.length);
                entries++;
                if (type == ValueType.DELETION) {
                    deletions++;
                }
                boolean[] k = keys.computeIfAbsent(new String(key, StandardCharsets.US_ASCII),
                        x -> new boolean[] {false, type == ValueType.DELETION});
                k[0] = type != ValueType.DELETION;
                long live = keys.values().stream().filter(f -> f[0]).count();
                long tombstones = keys.values().stream().filter(f -> f[1]).count();
                assertEquals(new EntryCounts(entries, deletions, 0, new KeyCounts(keys.size(), live, tombstones, live)),
                        mem.entryCounts());
            }
        } finally {
            mem.unref();
        }
    }

    @Test
    void aConcurrentReaderNeverSeesMoreDeletionsThanEntriesNorCountsGoingBack() throws Exception {
        MemTable mem = new MemTable(BytewiseComparator.INSTANCE);
        AtomicBoolean done = new AtomicBoolean();
        AtomicReference<String> problem = new AtomicReference<>();
        Thread reader = new Thread(() -> {
            EntryCounts last = new EntryCounts(0, 0, 0, new KeyCounts(0, 0, 0, 0));
            long reads = 0;
            while (!done.get() || reads < 1000) {
                EntryCounts c = mem.entryCounts(); // the constructor refuses deletions > entries
                if (c.entries() < last.entries() || c.deletions() < last.deletions()
                        || c.keys().keys() < last.keys().keys()) {
                    problem.compareAndSet(null, last + " then " + c);
                }
                last = c;
                reads++;
            }
        });
        reader.setUncaughtExceptionHandler((t, e) -> problem.compareAndSet(null, e.toString()));
        reader.start();
        try {
            for (int seq = 1; seq <= 200_000; seq++) {
                byte[] key = Integer.toString(seq).getBytes(StandardCharsets.US_ASCII);
                // Every other entry a deletion: a reader reading the two counts in the wrong order
                // would see one more deletion than entries.
                ValueType type = seq % 2 == 0 ? ValueType.DELETION : ValueType.VALUE;
                mem.add(seq, type, key, 0, key.length, EMPTY, 0, 0);
            }
        } finally {
            done.set(true);
            reader.join();
        }
        assertEquals(null, problem.get());
        assertEquals(new EntryCounts(200_000, 100_000, 0, new KeyCounts(200_000, 100_000, 100_000, 100_000)),
                mem.entryCounts());
        assertTrue(mem.refCount() == 1);
        mem.unref();
    }
}
