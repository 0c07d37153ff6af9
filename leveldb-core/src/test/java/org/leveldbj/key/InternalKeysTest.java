package org.leveldbj.key;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.iq80.leveldb.CorruptionException;
import org.junit.jupiter.api.Test;

class InternalKeysTest {
    @Test
    void layoutIsUserKeyThenLittleEndianTrailer() {
        byte[] key = InternalKeys.encode("ab".getBytes(StandardCharsets.US_ASCII), 0x0102, ValueType.VALUE);
        // trailer = 0x0102 << 8 | 1 = 0x010201, little-endian over 8 bytes
        assertArrayEquals(new byte[] {'a', 'b', 0x01, 0x02, 0x01, 0, 0, 0, 0, 0}, key);
        ParsedInternalKey parsed = InternalKeys.parse(key);
        assertArrayEquals("ab".getBytes(StandardCharsets.US_ASCII), parsed.userKey());
        assertEquals(0x0102, parsed.sequence());
        assertEquals(ValueType.VALUE, parsed.type());
        assertEquals(InternalKeys.trailer(key), InternalKeys.trailer(ByteBuffer.wrap(key), 0, key.length));
    }

    @Test
    void deletionAndLimits() {
        byte[] key = InternalKeys.encode(new byte[0], InternalKeys.MAX_SEQUENCE, ValueType.DELETION);
        assertEquals(8, key.length);
        ParsedInternalKey parsed = InternalKeys.parse(key);
        assertEquals(InternalKeys.MAX_SEQUENCE, parsed.sequence());
        assertEquals(ValueType.DELETION, parsed.type());
        assertThrows(IllegalArgumentException.class,
                () -> InternalKeys.encode(new byte[0], InternalKeys.MAX_SEQUENCE + 1, ValueType.VALUE));
        assertThrows(IllegalArgumentException.class, () -> InternalKeys.encode(new byte[0], -1, ValueType.VALUE));
    }

    @Test
    void malformedKeysAreCorruption() {
        assertThrows(CorruptionException.class, () -> InternalKeys.parse(new byte[7]));
        byte[] badType = InternalKeys.encode(new byte[] {'k'}, 5, ValueType.VALUE);
        badType[1] = 7;
        CorruptionException e = assertThrows(CorruptionException.class, () -> InternalKeys.parse(badType));
        assertEquals("bad internal key type 7 in key 'k\\x07\\x05\\x00\\x00\\x00\\x00\\x00\\x00'", e.reason());
        assertEquals("'k' @ 5 : bad type 7", InternalKeys.toString(badType));
        assertEquals("'k' @ 9 : deletion",
                InternalKeys.toString(InternalKeys.encode(new byte[] {'k'}, 9, ValueType.DELETION)));
    }
}
