package org.leveldbj.ttl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.iq80.leveldb.CompactionFilter;
import org.iq80.leveldb.CorruptionException;
import org.junit.jupiter.api.Test;

/** The value layout, byte by byte, and the expiry filter's decisions on it. */
class TtlValuesTest {
    @Test
    void theSuffixIsTheExpiryInBigEndianMilliseconds() {
        byte[] stored = TtlValues.encode(new byte[] {'a', 'b'}, 0x0102030405060708L);
        assertArrayEquals(new byte[] {'a', 'b', 1, 2, 3, 4, 5, 6, 7, 8}, stored);
        assertEquals(0x0102030405060708L, TtlValues.expiry(stored));
        assertArrayEquals(new byte[] {'a', 'b'}, TtlValues.value(stored));
        assertArrayEquals(new byte[] {0x7f, -1, -1, -1, -1, -1, -1, -1}, TtlValues.encode(new byte[0], TtlValues.NEVER));
        assertEquals(-2L, TtlValues.expiry(TtlValues.encode(new byte[3], -2L)), "signed: before the epoch");
        assertArrayEquals(java.util.HexFormat.of().parseHex("626f620000018bcfe9fbe0"),
                TtlValues.encode(new byte[] {'b', 'o', 'b'}, 1_700_000_300_000L), "doc/ttl.md's example");
    }

    @Test
    void expiredFromTheExpiryOn() {
        byte[] stored = TtlValues.encode(new byte[0], 1000);
        assertFalse(TtlValues.expired(stored, 999));
        assertTrue(TtlValues.expired(stored, 1000));
        assertTrue(TtlValues.expired(stored, 1001));
        assertFalse(TtlValues.expired(TtlValues.encode(new byte[0], TtlValues.NEVER), Long.MAX_VALUE - 1));
    }

    @Test
    void expiryAfterSaturatesAtNever() {
        assertEquals(1500, TtlValues.expiryAfter(1000, 500));
        assertEquals(TtlValues.NEVER, TtlValues.expiryAfter(Long.MAX_VALUE - 10, 11));
        assertEquals(TtlValues.NEVER, TtlValues.expiryAfter(5, Long.MAX_VALUE));
    }

    @Test
    void aValueTooShortForTheSuffixIsCorruptAndKeptByTheFilter() {
        CorruptionException e = assertThrows(CorruptionException.class, () -> TtlValues.expiry(new byte[7]));
        assertEquals("Corruption: TTL value of 7 bytes is shorter than its 8-byte expiry suffix", e.getMessage());
        assertThrows(CorruptionException.class, () -> TtlValues.value(new byte[0]));
        ExpiryFilter filter = new ExpiryFilter(new FakeClock(5000));
        assertEquals(CompactionFilter.Decision.KEEP, filter.filter(1, new byte[1], new byte[7]));
        assertEquals(CompactionFilter.Decision.REMOVE, filter.filter(1, new byte[1], TtlValues.encode(new byte[2], 5000)));
        assertEquals(CompactionFilter.Decision.KEEP, filter.filter(1, new byte[1], TtlValues.encode(new byte[2], 5001)));
        assertEquals("leveldbj.TtlExpiry", filter.name());
    }
}
