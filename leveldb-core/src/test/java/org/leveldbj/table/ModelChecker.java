package org.leveldbj.table;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.leveldbj.iterator.SortedIterator;
import org.leveldbj.util.Bytes;

/** Checks a {@link SortedIterator} against sorted {key, value} pairs. */
final class ModelChecker {
    private ModelChecker() {
    }

    static void check(SortedIterator it, List<byte[][]> model, Random r, String context) {
        int n = model.size();
        it.seekToFirst();
        for (int i = 0; i < n; i++) {
            assertAt(it, model, i, context + " forward");
            it.next();
        }
        assertFalse(it.valid(), context + ": forward scan past the end");

        it.seekToLast();
        for (int i = n - 1; i >= 0; i--) {
            assertAt(it, model, i, context + " backward");
            it.prev();
        }
        assertFalse(it.valid(), context + ": backward scan past the start");

        int seeks = Math.min(200, 20 + n);
        for (int s = 0; s < seeks; s++) {
            byte[] target = RandomData.target(r, model);
            ByteBuffer t = r.nextBoolean() ? ByteBuffer.wrap(target) : direct(target);
            it.seek(t);
            assertEquals(0, t.position(), "seek must not move the target's position");
            int i = lowerBound(model, target);
            String where = context + " seek " + Bytes.escape(target.length > 40 ? Arrays.copyOf(target, 40) : target);
            if (i == n) {
                assertFalse(it.valid(), where);
                continue;
            }
            assertAt(it, model, i, where);
            int steps = r.nextInt(40);
            for (int k = 0; k < steps; k++) {
                if (r.nextInt(3) == 0) {
                    it.prev();
                    i--;
                } else {
                    it.next();
                    i++;
                }
                if (i < 0 || i >= n) {
                    assertFalse(it.valid(), where + " walk off the end");
                    break;
                }
                assertAt(it, model, i, where + " walk step " + k);
            }
        }
    }

    static ByteBuffer direct(byte[] b) {
        ByteBuffer d = ByteBuffer.allocateDirect(b.length);
        d.put(b).flip();
        return d;
    }

    static int lowerBound(List<byte[][]> model, byte[] target) {
        int lo = 0;
        int hi = model.size();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (Arrays.compareUnsigned(model.get(mid)[0], target) < 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    private static void assertAt(SortedIterator it, List<byte[][]> model, int i, String context) {
        assertTrue(it.valid(), () -> context + ": expected entry " + i + " of " + model.size());
        assertArrayEquals(model.get(i)[0], Bytes.toArray(it.key()), () -> context + ": key of entry " + i);
        assertArrayEquals(model.get(i)[1], Bytes.toArray(it.value()), () -> context + ": value of entry " + i);
    }
}
