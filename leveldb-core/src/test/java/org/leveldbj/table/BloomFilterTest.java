package org.leveldbj.table;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.leveldbj.table.TestFiles.bytes;
import static org.leveldbj.table.TestFiles.hex;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;
import org.leveldbj.util.ByteSink;
import org.leveldbj.util.Coding;

class BloomFilterTest {
    private static final BloomFilterPolicy POLICY = new BloomFilterPolicy(10);

    private static byte[] build(BloomFilterPolicy policy, byte[]... keys) {
        ByteSink all = new ByteSink();
        int[] starts = new int[keys.length + 1];
        for (int i = 0; i < keys.length; i++) {
            starts[i] = all.length();
            all.put(keys[i]);
        }
        starts[keys.length] = all.length();
        ByteSink out = new ByteSink();
        out.put(new byte[] {9, 9}); // filters are appended after existing bytes
        policy.createFilter(all.array(), starts, keys.length, out);
        byte[] withPrefix = out.toByteArray();
        return java.util.Arrays.copyOfRange(withPrefix, 2, withPrefix.length);
    }

    private static boolean matches(BloomFilterPolicy policy, byte[] filter, byte[] key, boolean direct) {
        ByteBuffer f = direct ? ByteBuffer.allocateDirect(filter.length + 1) : ByteBuffer.allocate(filter.length + 1);
        f.position(1);
        f.put(filter);
        ByteBuffer k = ByteBuffer.wrap(key);
        return policy.keyMayMatch(k, 0, key.length, f, 1, filter.length);
    }

    private static boolean matches(byte[] filter, byte[] key) {
        boolean heap = matches(POLICY, filter, key, false);
        assertEquals(heap, matches(POLICY, filter, key, true));
        return heap;
    }

    @Test
    void probesAndName() {
        assertEquals("leveldb.BuiltinBloomFilter2", POLICY.name());
        assertEquals(6, POLICY.probes()); // floor(10 * 0.69)
        assertEquals(1, new BloomFilterPolicy(0).probes());
        assertEquals(30, new BloomFilterPolicy(100).probes());
    }

    /** Filters produced by C++ LevelDB 1.23's NewBloomFilterPolicy(10) for the same keys. */
    @Test
    void sameBytesAsCpp() {
        assertArrayEquals(hex("115000414511401006"), build(POLICY, bytes("hello"), bytes("world"), bytes("x")));
        assertArrayEquals(hex("080004000200118006"), build(POLICY, bytes("")));
    }

    @Test
    void emptyAndShortFilters() {
        byte[] empty = build(POLICY);
        assertEquals(9, empty.length); // 64 bits minimum, plus the probe count
        assertFalse(matches(empty, bytes("hello")));
        assertFalse(matches(new byte[0], bytes("hello")));
        assertFalse(matches(new byte[] {6}, bytes("hello")));
        // A probe count above 30 is reserved: everything matches.
        assertTrue(matches(new byte[] {0, 0, 0, 0, 31}, bytes("hello")));
        assertTrue(matches(new byte[] {0, 0, 0, 0, (byte) 0xff}, bytes("hello")));
    }

    @Test
    void smallFilter() {
        byte[] f = build(POLICY, bytes("hello"), bytes("world"));
        assertTrue(matches(f, bytes("hello")));
        assertTrue(matches(f, bytes("world")));
        assertFalse(matches(f, bytes("x")));
        assertFalse(matches(f, bytes("foo")));
    }

    private static byte[] key(int i) {
        byte[] k = new byte[4];
        Coding.putFixed32(k, 0, i);
        return k;
    }

    @Test
    void noFalseNegativesAndFewFalsePositivesAcrossSizes() {
        int mediocre = 0;
        int good = 0;
        for (int n = 1; n <= 10_000; n = next(n)) {
            byte[][] keys = new byte[n][];
            for (int i = 0; i < n; i++) {
                keys[i] = key(i);
            }
            byte[] f = build(POLICY, keys);
            assertTrue(f.length <= n * 10 / 8 + 40, "filter too large for " + n + " keys: " + f.length);
            for (int i = 0; i < n; i++) {
                assertTrue(matches(POLICY, f, keys[i], false), "false negative for key " + i + " of " + n);
            }
            int hits = 0;
            for (int i = 0; i < 10_000; i++) {
                if (matches(POLICY, f, key(i + 1_000_000_000), false)) {
                    hits++;
                }
            }
            double rate = hits / 10_000.0;
            assertTrue(rate <= 0.02, "false positive rate " + rate + " for " + n + " keys");
            if (rate > 0.0125) {
                mediocre++;
            } else {
                good++;
            }
        }
        assertTrue(mediocre * 5 <= good, mediocre + " mediocre filters, " + good + " good");
    }

    private static int next(int n) {
        if (n < 10) {
            return n + 1;
        } else if (n < 100) {
            return n + 10;
        } else if (n < 1000) {
            return n + 100;
        }
        return n + 1000;
    }
}
