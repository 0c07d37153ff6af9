package org.iq80.leveldb;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CompressionTypeTest {

    @Test
    void persistentIdsAreTheOnDiskBlockTypes() {
        assertEquals(0, CompressionType.NONE.persistentId());
        assertEquals(1, CompressionType.SNAPPY.persistentId());
        assertEquals(2, CompressionType.ZSTD.persistentId());
    }

    @Test
    void lookupByIdFindsEveryType() {
        assertSame(CompressionType.NONE, CompressionType.getCompressionTypeByPersistentId(0));
        assertSame(CompressionType.SNAPPY, CompressionType.getCompressionTypeByPersistentId(1));
        assertSame(CompressionType.ZSTD, CompressionType.getCompressionTypeByPersistentId(2));
    }

    @Test
    void the012ConstantsKeepTheirOrdinalsAndZstdComesLast() {
        // Switches compiled against 0.12 look constants up by ordinal.
        assertArrayEquals(new CompressionType[] {
            CompressionType.NONE, CompressionType.SNAPPY, CompressionType.ZSTD},
                CompressionType.values());
    }

    @ParameterizedTest
    @ValueSource(ints = {-1, 3, 4, 0x80, 255, Integer.MIN_VALUE, Integer.MAX_VALUE})
    void unknownIdsAreRejectedNamingTheId(int id) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> CompressionType.getCompressionTypeByPersistentId(id));
        assertEquals("Unknown persistentId " + id, e.getMessage());
    }
}
