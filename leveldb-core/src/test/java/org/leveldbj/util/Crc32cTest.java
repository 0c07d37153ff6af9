package org.leveldbj.util;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** Known vectors: RFC 3720 appendix B.4 (iSCSI) and the standard check value. */
class Crc32cTest {
    @Test
    void standardVectors() {
        byte[] check = "123456789".getBytes(StandardCharsets.US_ASCII);
        assertEquals(0xe3069283, Crc32c.value(check, 0, check.length));

        byte[] zeros = new byte[32];
        assertEquals(0x8a9136aa, Crc32c.value(zeros, 0, 32));
        byte[] ones = new byte[32];
        Arrays.fill(ones, (byte) 0xff);
        assertEquals(0x62a8ab43, Crc32c.value(ones, 0, 32));
        byte[] ascending = new byte[32];
        byte[] descending = new byte[32];
        for (int i = 0; i < 32; i++) {
            ascending[i] = (byte) i;
            descending[i] = (byte) (31 - i);
        }
        assertEquals(0x46dd794e, Crc32c.value(ascending, 0, 32));
        assertEquals(0x113fdb5c, Crc32c.value(descending, 0, 32));
    }

    @Test
    void bufferFormsAgreeWithArrayForm() {
        byte[] data = "hello, leveldb".getBytes(StandardCharsets.US_ASCII);
        ByteBuffer direct = ByteBuffer.allocateDirect(data.length + 3).position(3);
        direct.put(data);
        assertEquals(Crc32c.value(data, 0, data.length), Crc32c.value(direct, 3, data.length));
        assertEquals(3 + data.length, direct.position(), "position untouched");
        byte[] typed = new byte[data.length + 1];
        typed[0] = 1;
        System.arraycopy(data, 0, typed, 1, data.length);
        assertEquals(Crc32c.value(typed, 0, typed.length), Crc32c.value((byte) 1, ByteBuffer.wrap(data), 0, data.length));
    }

    @Test
    void masking() {
        assertEquals(0xa282ead8, Crc32c.mask(0));
        int crc = Crc32c.value(new byte[] {'f', 'o', 'o'}, 0, 3);
        assertNotEquals(crc, Crc32c.mask(crc));
        assertNotEquals(crc, Crc32c.mask(Crc32c.mask(crc)));
        assertEquals(crc, Crc32c.unmask(Crc32c.mask(crc)));
        assertEquals(crc, Crc32c.unmask(Crc32c.unmask(Crc32c.mask(Crc32c.mask(crc)))));
        // rotateRight(0x12345678, 15) = 0xacf02468; plus the delta.
        assertEquals(0xacf02468 + 0xa282ead8, Crc32c.mask(0x12345678));
    }
}
