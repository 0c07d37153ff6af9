package org.leveldbj.compress;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.leveldbj.testing.PeerExtension;
import org.leveldbj.testing.Seed;
import org.leveldbj.testing.SeedExtension;

/**
 * The plain-Java snappy on the inputs that exercise its fast paths: repeats of every period from
 * 1 to 40 bytes (copies that overlap their own output, short and long), short literals between
 * them, and the block's last bytes (where the 8-byte moves must not run past the output). Each
 * is checked both ways against snappy-java.
 */
@ExtendWith({SeedExtension.class, PeerExtension.class})
class SnappyJavaCodecTest {
    @Test
    void periodicInputsRoundTripBothWaysWithTheNativeCodec(@Seed long seed) {
        BlockCodec java = Implementations.get(Implementations.SNAPPY_JAVA);
        BlockCodec nativeCodec = Implementations.get(Implementations.SNAPPY_NATIVE);
        Random random = new Random(seed);
        for (int period = 1; period <= 40; period++) {
            for (int trial = 0; trial < 20; trial++) {
                byte[] input = periodic(random, period, 1 + random.nextInt(3000));
                String what = "seed " + seed + " period " + period + " length " + input.length;
                byte[] ours = java.compress(input, 0, input.length);
                byte[] theirs = nativeCodec.compress(input, 0, input.length);
                assertTrue(ours.length <= java.maxCompressedLength(input.length), what);
                assertArrayEquals(input, decode(java, ours), what + " (ours by ours)");
                assertArrayEquals(input, decode(nativeCodec, ours), what + " (ours by snappy-java)");
                assertArrayEquals(input, decode(java, theirs), what + " (snappy-java's by ours)");
            }
        }
    }

    /** Decodes into an array with bytes after the output window, which must stay untouched. */
    private static byte[] decode(BlockCodec codec, byte[] compressed) {
        int length = codec.uncompressedLength(ByteBuffer.wrap(compressed));
        byte[] out = new byte[length + 32];
        java.util.Arrays.fill(out, length, out.length, (byte) 0x5a);
        ByteBuffer window = ByteBuffer.wrap(out, 0, length).slice();
        codec.decompress(ByteBuffer.wrap(compressed), window);
        for (int i = length; i < out.length; i++) {
            if (out[i] != 0x5a) {
                throw new AssertionError("byte " + i + " past the output was overwritten");
            }
        }
        return java.util.Arrays.copyOf(out, length);
    }

    /** A pattern of the given period, with now and then a few random bytes in between. */
    private static byte[] periodic(Random random, int period, int length) {
        byte[] pattern = new byte[period];
        random.nextBytes(pattern);
        byte[] out = new byte[length];
        for (int i = 0; i < length; i++) {
            out[i] = random.nextInt(100) == 0 ? (byte) random.nextInt(256) : pattern[i % period];
        }
        return out;
    }
}
