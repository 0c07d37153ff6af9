package org.leveldbj.util;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/** Known values from C++ LevelDB's own hash test (util/hash_test.cc), including bytes >= 0x80. */
class HashTest {
    private static byte[] bytes(int... values) {
        byte[] out = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            out[i] = (byte) values[i];
        }
        return out;
    }

    private static void check(int expected, byte[] data, int seed) {
        assertEquals(expected, Hash.hash(data, 0, data.length, seed));
        // The same bytes at an offset, in heap and direct buffers.
        for (boolean direct : new boolean[] {false, true}) {
            ByteBuffer b = direct ? ByteBuffer.allocateDirect(data.length + 3) : ByteBuffer.allocate(data.length + 3);
            b.position(3);
            b.put(data);
            assertEquals(expected, Hash.hash(b, 3, data.length, seed));
        }
        byte[] shifted = new byte[data.length + 2];
        System.arraycopy(data, 0, shifted, 2, data.length);
        assertEquals(expected, Hash.hash(shifted, 2, data.length, seed));
    }

    @Test
    void knownValues() {
        int seed = 0xbc9f1d34;
        check(0xbc9f1d34, new byte[0], seed);
        check(0xef1345c4, bytes(0x62), seed);
        check(0x5b663814, bytes(0xc3, 0x97), seed);
        check(0x323c078f, bytes(0xe2, 0x99, 0xa5), seed);
        check(0xed21633a, bytes(0xe1, 0x80, 0xb9, 0x32), seed);
        check(0xf333dabb, bytes(
                0x01, 0xc0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
                0x00, 0x00, 0x00, 0x00, 0x14, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0x00,
                0x00, 0x00, 0x00, 0x14, 0x00, 0x00, 0x00, 0x18, 0x28, 0x00, 0x00, 0x00,
                0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00), 0x12345678);
    }
}
