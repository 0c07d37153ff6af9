package org.leveldbj.benchmark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.leveldbj.compress.BlockCodec;
import org.leveldbj.compress.Codecs;

class ValueGeneratorTest {
    /**
     * Values laid end to end in 4 KiB blocks, as a table holds them, compress to about the
     * ratio: a little above it, by snappy's tags and copy operations.
     */
    @ParameterizedTest
    @ValueSource(doubles = {0.25, 0.5, 0.75})
    void compressesToTheRatioWithSnappy(double ratio) {
        ValueGenerator.Cursor values = new ValueGenerator(ratio).cursor();
        BlockCodec snappy = Codecs.snappy();
        long raw = 0;
        long compressed = 0;
        for (int block = 0; block < 200; block++) {
            ByteBuffer input = ByteBuffer.allocate(4000);
            while (input.hasRemaining()) {
                input.put(values.next(100));
            }
            input.flip();
            ByteBuffer output = ByteBuffer.allocate(snappy.maxCompressedLength(4000));
            compressed += snappy.compress(input, output);
            raw += 4000;
        }
        double achieved = (double) compressed / raw;
        assertTrue(achieved > ratio - 0.02 && achieved < ratio + 0.08,
                "ratio " + ratio + " gave " + achieved);
    }

    @Test
    void printableAndDeterministic() {
        byte[] first = new ValueGenerator(0.5).cursor().next(1000);
        byte[] again = new ValueGenerator(0.5).cursor().next(1000);
        assertArrayEquals(first, again);
        for (byte b : first) {
            assertTrue(b >= ' ' && b <= '~', "byte " + b);
        }
        // Each 100-byte piece is a 50-byte random run, repeated.
        for (int i = 0; i < 50; i++) {
            assertEquals(first[i], first[i + 50]);
        }
    }

    @Test
    void wrapsAroundAtTheEnd() {
        ValueGenerator.Cursor values = new ValueGenerator(0.5).cursor();
        byte[] start = values.next(100_000);
        for (int i = 1; i < ValueGenerator.DATA_SIZE / 100_000; i++) {
            values.next(100_000);
        }
        assertArrayEquals(start, values.next(100_000));
    }
}
