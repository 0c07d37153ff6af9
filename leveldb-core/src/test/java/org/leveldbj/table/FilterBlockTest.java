package org.leveldbj.table;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.leveldbj.table.TestFiles.bytes;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;
import org.leveldbj.util.ByteSink;
import org.leveldbj.util.Bytes;

class FilterBlockTest {
    /** A readable stand-in policy: the filter is the keys themselves, each prefixed by its length. */
    static final class ListPolicy implements FilterPolicy {
        @Override
        public String name() {
            return "test.List";
        }

        @Override
        public void createFilter(byte[] keys, int[] starts, int count, ByteSink dst) {
            for (int i = 0; i < count; i++) {
                dst.putByte(starts[i + 1] - starts[i]).put(keys, starts[i], starts[i + 1] - starts[i]);
            }
        }

        @Override
        public boolean keyMayMatch(ByteBuffer key, int keyOffset, int keyLength, ByteBuffer filter, int filterOffset,
                                   int filterLength) {
            int p = filterOffset;
            while (p < filterOffset + filterLength) {
                int n = filter.get(p);
                if (n == keyLength && filter.slice(p + 1, n).equals(key.slice(keyOffset, keyLength))) {
                    return true;
                }
                p += 1 + n;
            }
            return false;
        }
    }

    private static ByteBuffer buf(String s) {
        return ByteBuffer.wrap(bytes(s));
    }

    @Test
    void emptyBuilderLayout() {
        FilterBlockBuilder b = new FilterBlockBuilder(new ListPolicy(), FilterKeyExtractor.WHOLE_KEY);
        // No filters: offset array at 0, base lg 11.
        assertArrayEquals(new byte[] {0, 0, 0, 0, 11}, Bytes.toArray(b.finish()));
        FilterBlockReader r = new FilterBlockReader(new ListPolicy(), FilterKeyExtractor.WHOLE_KEY,
                ByteBuffer.wrap(new byte[] {0, 0, 0, 0, 11}));
        assertTrue(r.keyMayMatch(0, buf("foo")));
        assertTrue(r.keyMayMatch(100000, buf("foo")));
    }

    @Test
    void tinyKnownLayout() {
        FilterBlockBuilder b = new FilterBlockBuilder(new ListPolicy(), FilterKeyExtractor.dropSuffix(1));
        b.startBlock(0);
        b.addKey(buf("ab!"));
        b.startBlock(100); // same 2 KiB range: same filter
        b.addKey(buf("c!"));
        b.startBlock(5000); // range 2: filter 1 is empty
        b.addKey(buf("d!"));
        byte[] expected = {
            // filter 0 at offset 0: "ab", "c" (the extractor drops the last byte)
            2, 'a', 'b', 1, 'c',
            // filter 1 at offset 5: empty; filter 2 at offset 5: "d"
            1, 'd',
            // offsets: 0, 5, 5
            0, 0, 0, 0, 5, 0, 0, 0, 5, 0, 0, 0,
            // offset of the offset array: 7; base lg 11
            7, 0, 0, 0, 11,
        };
        assertArrayEquals(expected, Bytes.toArray(b.finish()));

        FilterBlockReader r = new FilterBlockReader(new ListPolicy(), FilterKeyExtractor.dropSuffix(1),
                ByteBuffer.wrap(expected));
        assertTrue(r.keyMayMatch(0, buf("ab?")));
        assertTrue(r.keyMayMatch(100, buf("c?")));
        assertFalse(r.keyMayMatch(0, buf("d?")));
        assertFalse(r.keyMayMatch(3000, buf("ab?"))); // empty filter matches nothing
        assertTrue(r.keyMayMatch(4100, buf("d?")));
        assertFalse(r.keyMayMatch(4100, buf("ab?")));
        assertTrue(r.keyMayMatch(9000, buf("anything"))); // past the last filter: may match
    }

    @Test
    void malformedBlocksMayMatch() {
        ListPolicy p = new ListPolicy();
        assertTrue(new FilterBlockReader(p, FilterKeyExtractor.WHOLE_KEY, ByteBuffer.wrap(new byte[3]))
                .keyMayMatch(0, buf("x")));
        // Offset array position past the end.
        assertTrue(new FilterBlockReader(p, FilterKeyExtractor.WHOLE_KEY,
                ByteBuffer.wrap(new byte[] {0, 0, 0, 0, 99, 0, 0, 0, 11})).keyMayMatch(0, buf("x")));
    }
}
