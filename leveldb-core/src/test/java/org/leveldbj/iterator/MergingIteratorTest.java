package org.leveldbj.iterator;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import org.iq80.leveldb.CorruptionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.leveldbj.comparator.BytewiseComparator;
import org.leveldbj.comparator.KeyComparator;
import org.leveldbj.key.InternalKeyComparator;
import org.leveldbj.key.InternalKeys;
import org.leveldbj.key.ValueType;
import org.leveldbj.testing.Seed;
import org.leveldbj.testing.SeedExtension;

/** The merge equals a sorted model of every child's entries, in both directions and across turns. */
@ExtendWith(SeedExtension.class)
class MergingIteratorTest {
    private static final BytewiseComparator CMP = BytewiseComparator.INSTANCE;

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] bytes(ByteBuffer buf) {
        byte[] out = new byte[buf.remaining()];
        buf.get(buf.position(), out);
        return out;
    }

    private static ListIterator child(String... keys) {
        List<byte[][]> entries = new ArrayList<>();
        for (String k : keys) {
            entries.add(new byte[][] {b(k), b("v" + k)});
        }
        return new ListIterator(entries, CMP);
    }

    @Test
    void trivialCasesShortCut() {
        assertSame(EmptyIterator.INSTANCE, MergingIterator.of(CMP, List.of()));
        ListIterator only = child("a");
        assertSame(only, MergingIterator.of(CMP, List.of(only)));
        SortedIterator empty = MergingIterator.of(CMP, List.of());
        empty.seekToFirst();
        assertFalse(empty.valid());
        empty.seek(ByteBuffer.wrap(b("a")));
        assertFalse(empty.valid());
        assertThrows(IllegalStateException.class, empty::next);
    }

    @Test
    void mergesAndTurns() {
        MergingIterator it = new MergingIterator(CMP, List.of(child("a", "d", "g"), child("b", "e"), child(), child("c", "f")));
        it.seekToFirst();
        StringBuilder sb = new StringBuilder();
        for (; it.valid(); it.next()) {
            sb.append(new String(bytes(it.key()), StandardCharsets.UTF_8));
        }
        assertEquals("abcdefg", sb.toString());
        it.seek(ByteBuffer.wrap(b("d")));
        it.prev();
        assertEquals("c", new String(bytes(it.key()), StandardCharsets.UTF_8));
        it.next();
        assertEquals("d", new String(bytes(it.key()), StandardCharsets.UTF_8));
        assertEquals("vd", new String(bytes(it.value()), StandardCharsets.UTF_8));
        it.seekToLast();
        assertEquals("g", new String(bytes(it.key()), StandardCharsets.UTF_8));
        it.prev();
        it.prev();
        it.next();
        assertEquals("f", new String(bytes(it.key()), StandardCharsets.UTF_8));
        it.seek(ByteBuffer.wrap(b("h")));
        assertFalse(it.valid());
    }

    @Test
    void closeClosesEveryChildOnce() {
        ListIterator a = child("a");
        ListIterator c = child("c");
        MergingIterator it = new MergingIterator(CMP, List.of(a, c));
        it.close();
        it.close();
        assertEquals(1, a.closes());
        assertEquals(1, c.closes());
    }

    /** A model entry: key, child index, value. */
    private record Entry(byte[] key, int child, byte[] value) {
    }

    private static final Comparator<Entry> ORDER =
            Comparator.<Entry, byte[]>comparing(Entry::key, Arrays::compareUnsigned).thenComparingInt(Entry::child);

    @Test
    void randomMergesMatchTheModel(@Seed long seed) {
        randomMerges(seed, false);
    }

    /**
     * With run limits trusted, children in runs (the entries of a two-level iterator's inner
     * iterators, bounded by the index keys) merge as the model says too, the runner-up changing
     * under a run and runs ending between the runner-up's entries.
     */
    @Test
    void randomMergesTrustingRunLimitsMatchTheModel(@Seed long seed) {
        randomMerges(seed, true);
    }

    /**
     * A forward scan compares the current child's keys with the runner-up's once per run when
     * run limits are trusted, once per entry otherwise; both yield the same entries.
     */
    @Test
    void trustedRunLimitsSpareTheComparisonsInsideRuns() {
        List<byte[][]> entries = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            String k = String.format("k%03d", i);
            entries.add(new byte[][] {b(k), b("v" + k)});
        }
        int[] comparisons = new int[1];
        KeyComparator counting = new CountingComparator(comparisons);
        List<String> trusted = scan(new MergingIterator(counting,
                List.of(runs(entries, 10, counting), child("z")), true));
        int trustedComparisons = comparisons[0];
        comparisons[0] = 0;
        List<String> untrusted = scan(new MergingIterator(counting,
                List.of(runs(entries, 10, counting), child("z")), false));
        assertEquals(untrusted, trusted);
        assertEquals(101, trusted.size());
        assertTrue(comparisons[0] >= 100, "untrusted: " + comparisons[0] + " comparisons");
        assertTrue(trustedComparisons <= 15, "trusted: " + trustedComparisons + " comparisons for 10 runs");
    }

    /**
     * A key the internal-key comparator finds too short is reported with the file and offset of
     * the child that holds it, whichever side of the comparison it is on.
     */
    @Test
    void malformedKeysAreReportedWithTheirChildsFile() {
        InternalKeyComparator icmp = new InternalKeyComparator(CMP);
        for (boolean shortFirst : new boolean[] {true, false}) {
            byte[] good = InternalKeys.encode(b("k"), 5, ValueType.VALUE);
            SortedIterator inMemory = new ListIterator(List.<byte[][]>of(new byte[][] {good, b("v")}), icmp);
            List<byte[][]> damaged = List.<byte[][]>of(new byte[][] {b("abc"), b("v")});
            SortedIterator inFile = new TwoLevelIterator(new ListIterator(List.<byte[][]>of(new byte[][] {b("abc"), b("0")}), CMP),
                    (value, reuse) -> new ListIterator(damaged, CMP), "/db/000007.ldb", value -> 4096);
            List<SortedIterator> children = shortFirst ? List.of(inFile, inMemory) : List.of(inMemory, inFile);
            try (SortedIterator it = MergingIterator.of(icmp, children, true)) {
                CorruptionException e = assertThrows(CorruptionException.class, it::seekToFirst);
                assertEquals("/db/000007.ldb", e.file(), e.getMessage());
                assertEquals(4096, e.offset(), e.getMessage());
                assertTrue(e.getMessage().contains("internal key too short: 3 bytes"), e.getMessage());
                assertFalse(it.valid());
            }
        }
    }

    private static List<String> scan(SortedIterator it) {
        List<String> seen = new ArrayList<>();
        try (it) {
            for (it.seekToFirst(); it.valid(); it.next()) {
                seen.add(new String(bytes(it.key()), StandardCharsets.UTF_8));
            }
        }
        return seen;
    }

    /**
     * A child in runs: a two-level iterator whose inner iterators hold {@code runLength}
     * consecutive entries each (the last run may be shorter), indexed by their last keys.
     */
    private static TwoLevelIterator runs(List<byte[][]> entries, int runLength, KeyComparator cmp) {
        List<List<byte[][]>> chunks = new ArrayList<>();
        List<byte[][]> index = new ArrayList<>();
        for (int i = 0; i < entries.size(); i += runLength) {
            List<byte[][]> chunk = entries.subList(i, Math.min(entries.size(), i + runLength));
            index.add(new byte[][] {chunk.get(chunk.size() - 1)[0], new byte[] {(byte) chunks.size()}});
            chunks.add(chunk);
        }
        return new TwoLevelIterator(new ListIterator(index, cmp),
                (value, reuse) -> new ListIterator(chunks.get(value.get(value.position())), cmp));
    }

    /** Counts the comparisons a bytewise comparator makes. */
    private static final class CountingComparator implements KeyComparator {
        private final int[] count;

        CountingComparator(int[] count) {
            this.count = count;
        }

        @Override
        public String name() {
            return CMP.name();
        }

        @Override
        public int compare(ByteBuffer a, int aOffset, int aLength, ByteBuffer b, int bOffset, int bLength) {
            count[0]++;
            return CMP.compare(a, aOffset, aLength, b, bOffset, bLength);
        }

        @Override
        public byte[] findShortestSeparator(byte[] start, byte[] limit) {
            return CMP.findShortestSeparator(start, limit);
        }

        @Override
        public byte[] findShortSuccessor(byte[] key) {
            return CMP.findShortSuccessor(key);
        }
    }

    private static void randomMerges(long seed, boolean trustRunLimits) {
        Random r = new Random(seed);
        for (int round = 0; round < 300; round++) {
            int n = r.nextInt(10); // up to 3 children are scanned, more are kept in a heap
            int alphabet = 1 + r.nextInt(r.nextBoolean() ? 4 : 40);
            List<Entry> model = new ArrayList<>();
            List<SortedIterator> children = new ArrayList<>();
            for (int c = 0; c < n; c++) {
                TreeMap<String, byte[]> keys = new TreeMap<>();
                int count = r.nextInt(r.nextInt(4) == 0 ? 2 : 30);
                for (int i = 0; i < count; i++) {
                    String k = randomKey(r, alphabet);
                    keys.put(k, b(k + "#" + c + "#" + i));
                }
                List<byte[][]> entries = new ArrayList<>();
                int childIndex = c;
                keys.forEach((k, v) -> {
                    entries.add(new byte[][] {b(k), v});
                    model.add(new Entry(b(k), childIndex, v));
                });
                children.add(trustRunLimits && r.nextBoolean()
                        ? runs(entries, 1 + r.nextInt(6), CMP) : new ListIterator(entries, CMP));
            }
            model.sort(ORDER);
            String context = "seed " + seed + " round " + round + " (" + n + " children, " + model.size() + " entries)";
            try (SortedIterator it = MergingIterator.of(CMP, children, trustRunLimits)) {
                exercise(it, model, r, alphabet, context);
            }
        }
    }

    private static String randomKey(Random r, int alphabet) {
        int len = 1 + r.nextInt(3);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < len; i++) {
            sb.append((char) ('a' + r.nextInt(Math.min(alphabet, 26))));
        }
        return sb.toString();
    }

    private static void exercise(SortedIterator it, List<Entry> model, Random r, int alphabet, String context) {
        assertFalse(it.valid(), context);
        int pos = -1;
        for (int step = 0; step < 400; step++) {
            int op = r.nextInt(10);
            String what;
            if (op == 0) {
                it.seekToFirst();
                pos = model.isEmpty() ? -1 : 0;
                what = "seekToFirst";
            } else if (op == 1) {
                it.seekToLast();
                pos = model.size() - 1;
                what = "seekToLast";
            } else if (op == 2) {
                byte[] target = b(randomKey(r, alphabet));
                it.seek(ByteBuffer.wrap(target));
                pos = -1;
                for (int i = 0; i < model.size(); i++) {
                    if (Arrays.compareUnsigned(model.get(i).key(), target) >= 0) {
                        pos = i;
                        break;
                    }
                }
                what = "seek " + new String(target, StandardCharsets.UTF_8);
            } else if (pos < 0) {
                continue;
            } else if (op < 6) {
                it.next();
                pos = pos + 1 < model.size() ? pos + 1 : -1;
                what = "next";
            } else {
                it.prev();
                pos--;
                what = "prev";
            }
            String where = context + " step " + step + " " + what;
            assertEquals(pos >= 0, it.valid(), where);
            if (pos >= 0) {
                Entry e = model.get(pos);
                assertArrayEquals(e.key(), bytes(it.key()), where);
                assertArrayEquals(e.value(), bytes(it.value()), where);
                assertTrue(it.valid(), where);
            }
        }
    }
}
