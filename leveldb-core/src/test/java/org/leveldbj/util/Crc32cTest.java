package org.leveldbj.util;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.leveldbj.testing.Seed;
import org.leveldbj.testing.SeedExtension;

/**
 * Known vectors: RFC 3720 appendix B.4 (iSCSI) and the standard check value; combining checksums
 * against checksums computed from the bytes.
 */
@ExtendWith(SeedExtension.class)
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

    @Test
    void combiningPartsGivesTheChecksumOfTheWholeAndOfEveryTail(@Seed Random random) {
        byte[] check = "123456789".getBytes(StandardCharsets.US_ASCII);
        assertEquals(0xe3069283, Crc32c.combine(Crc32c.value(check, 0, 4), Crc32c.value(check, 4, 5), 5));
        assertEquals(0xe3069283, Crc32c.ofTail(Crc32c.value(check, 0, 0), 0xe3069283, 9));
        assertEquals(0x8a9136aa, Crc32c.combine(Crc32c.value(new byte[0], 0, 0), 0x8a9136aa, 32));
        for (int round = 0; round < 200; round++) {
            byte[] data = new byte[random.nextInt(round < 100 ? 64 : 200_000)];
            random.nextBytes(data);
            int split = random.nextInt(data.length + 1);
            int head = Crc32c.value(data, 0, split);
            int tail = Crc32c.value(data, split, data.length - split);
            int whole = Crc32c.value(data, 0, data.length);
            assertEquals(whole, Crc32c.combine(head, tail, data.length - split), "split at " + split + " of " + data.length);
            assertEquals(tail, Crc32c.ofTail(head, whole, data.length - split), "split at " + split + " of " + data.length);
            assertEquals(head, Crc32c.combine(head, Crc32c.value(data, 0, 0), 0), "an empty tail changes nothing");
            if (split < data.length) {
                assertEquals(Crc32c.value(data, 0, split + 1), Crc32c.extend(head, data[split]));
            }
        }
    }

    @Test
    void combiningAgreesWithItselfForLengthsPastAGibibyte() {
        // zeros[k] is the checksum of 2^k zero bytes, by doubling; a string of zeros is the same
        // string whichever of its parts comes first, so both orders must give one checksum.
        int[] zeros = new int[45];
        zeros[0] = Crc32c.value(new byte[1], 0, 1);
        for (int k = 1; k < zeros.length; k++) {
            zeros[k] = Crc32c.combine(zeros[k - 1], zeros[k - 1], 1L << (k - 1));
        }
        byte[] kib = new byte[1024];
        assertEquals(Crc32c.value(kib, 0, kib.length), zeros[10]);
        for (int k = 0; k < zeros.length; k++) {
            for (int j = 0; j < zeros.length; j++) {
                assertEquals(Crc32c.combine(zeros[k], zeros[j], 1L << j), Crc32c.combine(zeros[j], zeros[k], 1L << k),
                        "2^" + k + " and 2^" + j + " zero bytes");
            }
        }
    }
}
