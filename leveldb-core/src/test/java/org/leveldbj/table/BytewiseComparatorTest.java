package org.leveldbj.table;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.leveldbj.table.TestFiles.bytes;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.leveldbj.comparator.BytewiseComparator;

class BytewiseComparatorTest {
    private static final BytewiseComparator CMP = BytewiseComparator.INSTANCE;

    @Test
    void nameMatchesCpp() {
        assertEquals("leveldb.BytewiseComparator", CMP.name());
    }

    @Test
    void comparesUnsignedOnHeapAndDirectBuffersAtAnyOffset() {
        Random r = new Random(7);
        for (int i = 0; i < 20_000; i++) {
            byte[] a = randomKey(r);
            byte[] other = r.nextInt(4) == 0 ? a.clone() : randomKey(r);
            if (r.nextBoolean() && other.length > 0 && a.length > 0) {
                other = Arrays.copyOf(a, Math.min(a.length, other.length) + r.nextInt(3));
            }
            byte[] b = other;
            int expected = Integer.signum(Arrays.compareUnsigned(a, b));
            int padA = r.nextInt(5);
            int padB = r.nextInt(5);
            ByteBuffer ba = place(a, padA, r.nextInt(3));
            ByteBuffer bb = place(b, padB, r.nextInt(3));
            assertEquals(expected, Integer.signum(CMP.compare(ba, padA, a.length, bb, padB, b.length)),
                    () -> Arrays.toString(a) + " vs " + Arrays.toString(b));
            assertEquals(expected, Integer.signum(CMP.compare(a, b)));
        }
    }

    private static byte[] randomKey(Random r) {
        byte[] k = new byte[r.nextInt(r.nextBoolean() ? 20 : 50)]; // also past the 32 bytes compared as longs
        for (int i = 0; i < k.length; i++) {
            k[i] = (byte) (r.nextInt(3) == 0 ? r.nextInt(256) : "\u0000\u0001\u007f\u0080\u00ff".charAt(r.nextInt(5)));
        }
        return k;
    }

    /**
     * The key at index {@code pad} of a buffer of one of three kinds, each compared along its own
     * path: 0 off the heap, 1 a read-only heap buffer (no array access), 2 a heap buffer whose
     * array starts one byte before it.
     */
    private static ByteBuffer place(byte[] k, int pad, int kind) {
        if (kind == 2) {
            byte[] array = new byte[k.length + pad + 4];
            System.arraycopy(k, 0, array, pad + 1, k.length);
            return ByteBuffer.wrap(array).slice(1, array.length - 1);
        }
        ByteBuffer b = kind == 0 ? ByteBuffer.allocateDirect(k.length + pad + 3) : ByteBuffer.allocate(k.length + pad + 3);
        b.position(pad);
        b.put(k);
        b.clear();
        return b.asReadOnlyBuffer();
    }

    @Test
    void shortestSeparator() {
        // Shortened: common prefix "abc", then 'd' + 1 = 'e' < 'z'.
        assertArrayEquals(bytes("abce"), CMP.findShortestSeparator(bytes("abcdefg"), bytes("abczz")));
        // Not shortened: incrementing 'd' would reach the limit's byte 'e'.
        byte[] start = bytes("abcd1");
        assertSame(start, CMP.findShortestSeparator(start, bytes("abce")));
        // Not shortened: one is a prefix of the other.
        byte[] prefix = bytes("abc");
        assertSame(prefix, CMP.findShortestSeparator(prefix, bytes("abcd")));
        // Not shortened: the differing byte is 0xff.
        byte[] ff = {'a', (byte) 0xff, 1};
        assertSame(ff, CMP.findShortestSeparator(ff, new byte[] {'b'}));
        // Unsigned: 0x7f + 1 = 0x80 < 0x90.
        assertArrayEquals(new byte[] {(byte) 0x80}, CMP.findShortestSeparator(new byte[] {0x7f, 5}, new byte[] {(byte) 0x90}));
    }

    @Test
    void shortSuccessor() {
        assertArrayEquals(bytes("b"), CMP.findShortSuccessor(bytes("abc")));
        assertArrayEquals(new byte[] {(byte) 0xff, 0x01}, CMP.findShortSuccessor(new byte[] {(byte) 0xff, 0x00, 0x33}));
        byte[] allFf = {(byte) 0xff, (byte) 0xff};
        assertSame(allFf, CMP.findShortSuccessor(allFf));
        byte[] empty = {};
        assertSame(empty, CMP.findShortSuccessor(empty));
    }

    @Test
    void separatorPropertiesHoldForRandomPairs() {
        Random r = new Random(11);
        for (int i = 0; i < 20_000; i++) {
            byte[] a = randomKey(r);
            byte[] b = randomKey(r);
            int c = Arrays.compareUnsigned(a, b);
            if (c == 0) {
                continue;
            }
            byte[] lo = c < 0 ? a : b;
            byte[] hi = c < 0 ? b : a;
            byte[] sep = CMP.findShortestSeparator(lo, hi);
            assertTrue(Arrays.compareUnsigned(lo, sep) <= 0 && Arrays.compareUnsigned(sep, hi) < 0);
            assertTrue(sep.length <= lo.length);
            assertTrue(Arrays.compareUnsigned(lo, CMP.findShortSuccessor(lo)) <= 0);
        }
    }
}
