package org.iq80.leveldb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class FilterPolicyTest {

    @Test
    void bloomHasLevelDbsNameAndTheGivenBitsPerKey() {
        FilterPolicy policy = FilterPolicy.bloom(10);
        assertEquals("leveldb.BuiltinBloomFilter2", policy.name());
        assertEquals(10, policy.bitsPerKey());
        assertEquals("leveldb.BuiltinBloomFilter2(bitsPerKey=10)", policy.toString());
    }

    @Test
    void oneBitPerKeyIsTheMinimum() {
        assertEquals(1, FilterPolicy.bloom(1).bitsPerKey());
        assertEquals(Integer.MAX_VALUE, FilterPolicy.bloom(Integer.MAX_VALUE).bitsPerKey());
    }

    @ParameterizedTest
    @ValueSource(ints = {0, -1, Integer.MIN_VALUE})
    void fewerThanOneBitPerKeyIsRejected(int bitsPerKey) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> FilterPolicy.bloom(bitsPerKey));
        assertEquals("bitsPerKey must be at least 1, but was " + bitsPerKey, e.getMessage());
    }

    @Test
    void policiesAreValues() {
        assertEquals(FilterPolicy.bloom(10), FilterPolicy.bloom(10));
        assertEquals(FilterPolicy.bloom(10).hashCode(), FilterPolicy.bloom(10).hashCode());
        assertNotEquals(FilterPolicy.bloom(10), FilterPolicy.bloom(11));
        assertNotEquals(FilterPolicy.bloom(10), "leveldb.BuiltinBloomFilter2");
    }
}
