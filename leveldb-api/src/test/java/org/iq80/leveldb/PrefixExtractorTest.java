package org.iq80.leveldb;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class PrefixExtractorTest {
    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    private static int lengthIn(PrefixExtractor e, String key) {
        // The key in the middle of a larger buffer, to check absolute offsets.
        ByteBuffer buf = ByteBuffer.wrap(b("##" + key + "::"));
        return e.prefixLength(buf, 2, key.length());
    }

    @Test
    void fixedLengthCutsTheFirstBytes() {
        PrefixExtractor e = PrefixExtractor.fixedLength(3);
        assertEquals("leveldbj.FixedPrefix.3", e.name());
        assertFalse(e.inDomain(b("ab")));
        assertTrue(e.inDomain(b("abc")));
        assertArrayEquals(b("abc"), e.prefix(b("abcdef")));
        assertEquals(-1, lengthIn(e, "ab"));
        assertEquals(3, lengthIn(e, "abcd"));
        assertThrows(IllegalArgumentException.class, () -> e.prefix(b("ab")));
        assertThrows(IllegalArgumentException.class, () -> PrefixExtractor.fixedLength(0));
        assertEquals(e, PrefixExtractor.fixedLength(3));
        assertNotEquals(e, PrefixExtractor.fixedLength(4));
    }

    @Test
    void delimitedCutsUpToAndIncludingTheFirstDelimiter() {
        PrefixExtractor e = PrefixExtractor.upToDelimiter(':');
        assertEquals("leveldbj.DelimitedPrefix.58", e.name());
        assertFalse(e.inDomain(b("order")));
        assertTrue(e.inDomain(b("order:")));
        assertArrayEquals(b("order:"), e.prefix(b("order:1:item:2")));
        assertArrayEquals(b(":"), e.prefix(b(":x")));
        assertEquals(-1, lengthIn(e, "order"));
        assertEquals(6, lengthIn(e, "order:1:"));
        assertThrows(IllegalArgumentException.class, () -> e.prefix(b("order")));
        assertThrows(IllegalArgumentException.class, () -> PrefixExtractor.upToDelimiter('\u00e9'));
        assertEquals(e, PrefixExtractor.upToDelimiter((byte) ':'));
    }

    @Test
    void theDefaultPrefixLengthAsksTheByteArrayMethods() {
        PrefixExtractor twoOrNothing = new PrefixExtractor() {
            @Override
            public String name() {
                return "two";
            }

            @Override
            public boolean inDomain(byte[] key) {
                return key.length >= 2 && key[0] == 'k';
            }

            @Override
            public byte[] prefix(byte[] key) {
                return java.util.Arrays.copyOf(key, 2);
            }
        };
        assertEquals(2, lengthIn(twoOrNothing, "kxyz"));
        assertEquals(-1, lengthIn(twoOrNothing, "axyz"));
        assertEquals(-1, lengthIn(twoOrNothing, "k"));
    }
}
