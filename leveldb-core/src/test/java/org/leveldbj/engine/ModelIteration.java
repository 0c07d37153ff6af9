package org.leveldbj.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.function.Supplier;
import org.iq80.leveldb.DBIterator;
import org.leveldbj.util.Bytes;

/** Checks an iterator against the slice of a sorted model it should show. */
final class ModelIteration {
    private ModelIteration() {
    }

    /**
     * A forward scan (keys and values), a backward scan and seeks to targets drawn by the
     * caller, against the slice.
     *
     * @param it the iterator, unpositioned
     * @param slice what it should show, in its order
     * @param targets draws a seek target
     * @param seeks how many seeks
     * @param context for the messages
     */
    static void check(DBIterator it, NavigableMap<byte[], byte[]> slice, Supplier<byte[]> targets, int seeks,
                      String context) {
        List<String> forward = new ArrayList<>();
        for (it.seekToFirst(); it.hasNext(); ) {
            Map.Entry<byte[], byte[]> e = it.next();
            forward.add(Bytes.escape(e.getKey()));
            assertArrayEquals(slice.get(e.getKey()), e.getValue(), context);
        }
        assertEquals(keys(slice.keySet()), forward, context + " forward");
        List<String> backward = new ArrayList<>();
        it.seekToLast();
        if (it.hasNext()) {
            backward.add(Bytes.escape(it.peekNext().getKey()));
            while (it.hasPrev()) {
                backward.add(Bytes.escape(it.prev().getKey()));
            }
        }
        assertEquals(keys(slice.descendingKeySet()), backward, context + " backward");
        for (int s = 0; s < seeks; s++) {
            byte[] target = targets.get();
            it.seek(target);
            byte[] expected = slice.ceilingKey(target);
            if (expected == null) {
                assertFalse(it.hasNext(), context + " seek " + Bytes.escape(target));
            } else {
                assertTrue(it.hasNext(), context + " seek " + Bytes.escape(target));
                assertArrayEquals(expected, it.peekNext().getKey(), context + " seek " + Bytes.escape(target));
            }
        }
    }

    static List<String> keys(Iterable<byte[]> keys) {
        List<String> out = new ArrayList<>();
        for (byte[] k : keys) {
            out.add(Bytes.escape(k));
        }
        return out;
    }
}
