package org.iq80.leveldb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class RangeTest {

    @Test
    void keepsTheGivenArrays() {
        byte[] start = {1, 2};
        byte[] limit = {3};
        Range range = new Range(start, limit);
        assertSame(start, range.start());
        assertSame(limit, range.limit());
    }

    @Test
    void rejectsNullKeysWithThe012Messages() {
        byte[] key = {1};
        assertEquals("The start argument cannot be null",
                assertThrows(IllegalArgumentException.class, () -> new Range(null, key))
                        .getMessage());
        assertEquals("The limit argument cannot be null",
                assertThrows(IllegalArgumentException.class, () -> new Range(key, null))
                        .getMessage());
    }
}
