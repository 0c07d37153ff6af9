package org.leveldbj.key;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.iq80.leveldb.CorruptionException;
import org.junit.jupiter.api.Test;
import org.leveldbj.comparator.BytewiseComparator;
import org.leveldbj.comparator.KeyComparator;
import org.leveldbj.comparator.UserComparators;
import org.leveldbj.testing.ReverseBytewiseComparator;

class InternalKeyComparatorTest {
    private static final InternalKeyComparator CMP = new InternalKeyComparator(BytewiseComparator.INSTANCE);

    private static byte[] ik(String user, long seq, ValueType type) {
        return InternalKeys.encode(user.getBytes(StandardCharsets.ISO_8859_1), seq, type);
    }

    @Test
    void ordersByUserKeyThenNewestFirst() {
        byte[][] sorted = {
            ik("", 100, ValueType.VALUE),
            ik("a", InternalKeys.MAX_SEQUENCE, ValueType.VALUE),
            ik("a", 5, ValueType.VALUE),
            ik("a", 5, ValueType.DELETION),
            ik("a", 4, ValueType.VALUE),
            ik("a\u0000", 9, ValueType.VALUE),
            ik("b", 1, ValueType.VALUE),
            ik("\u00ff", 1, ValueType.VALUE),
        };
        for (int i = 0; i < sorted.length; i++) {
            for (int j = 0; j < sorted.length; j++) {
                assertEquals(Integer.signum(Integer.compare(i, j)), Integer.signum(CMP.compare(sorted[i], sorted[j])),
                        InternalKeys.toString(sorted[i]) + " vs " + InternalKeys.toString(sorted[j]));
            }
        }
    }

    @Test
    void shorteningMatchesLevelDb() {
        // Shortened when the user keys differ enough.
        assertArrayEquals(ik("g", InternalKeys.MAX_SEQUENCE, ValueType.VALUE),
                CMP.findShortestSeparator(ik("foo", 100, ValueType.VALUE), ik("hello", 200, ValueType.VALUE)));
        // Unchanged when one user key is a prefix of the other, or they are equal.
        byte[] foo = ik("foo", 100, ValueType.VALUE);
        assertArrayEquals(foo, CMP.findShortestSeparator(foo, ik("foobar", 200, ValueType.VALUE)));
        assertArrayEquals(foo, CMP.findShortestSeparator(foo, ik("foo", 99, ValueType.VALUE)));
        // Unchanged when the increment would not stay below the limit.
        assertArrayEquals(foo, CMP.findShortestSeparator(foo, ik("fop", 1, ValueType.VALUE)));
        assertArrayEquals(ik("g", InternalKeys.MAX_SEQUENCE, ValueType.VALUE),
                CMP.findShortSuccessor(ik("foo", 100, ValueType.VALUE)));
        byte[] ff = ik("\u00ff\u00ff", 100, ValueType.VALUE);
        assertArrayEquals(ff, CMP.findShortSuccessor(ff));
    }

    @Test
    void apiComparatorsAreAdaptedWithTheirName() {
        KeyComparator adapted = UserComparators.of(ReverseBytewiseComparator.INSTANCE);
        assertEquals(ReverseBytewiseComparator.NAME, adapted.name());
        InternalKeyComparator cmp = new InternalKeyComparator(adapted);
        assertEquals(ReverseBytewiseComparator.NAME, cmp.name());
        assertTrue(cmp.compare(ik("b", 1, ValueType.VALUE), ik("a", 1, ValueType.VALUE)) < 0);
        assertTrue(cmp.compare(ik("a", 2, ValueType.VALUE), ik("a", 1, ValueType.VALUE)) < 0);
        assertEquals(BytewiseComparator.INSTANCE, UserComparators.of(null));
    }

    @Test
    void aKeyTooShortForItsTrailerIsCorruption() {
        InternalKeyComparator icmp = new InternalKeyComparator(BytewiseComparator.INSTANCE);
        byte[] good = InternalKeys.encode(new byte[] {'k'}, 1, ValueType.VALUE);
        CorruptionException e = assertThrows(CorruptionException.class, () -> icmp.compare(new byte[] {1, 2, 3}, good));
        assertEquals("internal key too short: 3 bytes", e.reason());
        assertThrows(CorruptionException.class, () -> icmp.compare(good, new byte[0]));
    }
}
