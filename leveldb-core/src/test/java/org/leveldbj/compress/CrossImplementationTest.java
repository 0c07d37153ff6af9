package org.leveldbj.compress;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.leveldbj.testing.PeerExtension;
import org.leveldbj.testing.Seed;
import org.leveldbj.testing.SeedExtension;

/**
 * The fallback codecs read what the native ones write and the reverse, so that a database written
 * on a machine with native libraries opens on one without, and back. Equal compressed bytes are
 * reported, not required: only the decoded bytes must agree.
 */
@ExtendWith({SeedExtension.class, PeerExtension.class})
class CrossImplementationTest {
    static List<Arguments> pairs() {
        List<Arguments> cases = new ArrayList<>();
        for (TestData data : TestData.values()) {
            cases.add(Arguments.of(Implementations.SNAPPY_NATIVE, Implementations.SNAPPY_JAVA, data));
            cases.add(Arguments.of(Implementations.SNAPPY_JAVA, Implementations.SNAPPY_NATIVE, data));
            cases.add(Arguments.of(Implementations.ZSTD_NATIVE, Implementations.ZSTD_JAVA, data));
            cases.add(Arguments.of(Implementations.ZSTD_JAVA, Implementations.ZSTD_NATIVE, data));
        }
        return cases;
    }

    @ParameterizedTest(name = "{0} -> {1}: {2}")
    @MethodSource("pairs")
    void readerDecodesWhatWriterEncoded(String writerName, String readerName, TestData shape, @Seed long seed) {
        BlockCodec writer = Implementations.get(writerName);
        BlockCodec reader = Implementations.get(readerName);
        byte[] original = shape.generate(new Random(seed ^ shape.ordinal()));
        byte[] written = writer.compress(original, 0, original.length);
        String context = writerName + " -> " + readerName + " " + shape + " seed " + seed;

        for (BufferKind kind : BufferKind.values()) {
            ByteBuffer stored = kind.holding(written);
            assertEquals(original.length, reader.uncompressedLength(stored), context + " " + kind);
            assertEquals(ByteBuffer.wrap(original), reader.decompress(stored), context + " " + kind);
        }

        byte[] readerOwn = reader.compress(original, 0, original.length);
        boolean identical = java.util.Arrays.equals(written, readerOwn);
        System.err.println(context + ": " + written.length + " vs " + readerOwn.length
                + " compressed bytes, " + (identical ? "identical" : "different") + " encodings");
    }
}
