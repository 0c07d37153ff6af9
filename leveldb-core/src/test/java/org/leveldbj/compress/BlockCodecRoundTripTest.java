package org.leveldbj.compress;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.FieldSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.leveldbj.testing.PeerExtension;
import org.leveldbj.testing.Seed;
import org.leveldbj.testing.SeedExtension;

/**
 * Every implementation round-trips every kind of input through every kind of buffer, leaves its
 * inputs untouched, writes only where it may, and honours the length bounds it announces.
 */
@ExtendWith({SeedExtension.class, PeerExtension.class})
class BlockCodecRoundTripTest {
    static List<Arguments> codecsAndData() {
        List<Arguments> cases = new ArrayList<>();
        for (String codec : Implementations.ALL) {
            for (TestData data : TestData.values()) {
                cases.add(Arguments.of(codec, data));
            }
        }
        return cases;
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("codecsAndData")
    void roundTripsThroughEveryBufferKind(String name, TestData shape, @Seed long seed) {
        BlockCodec codec = Implementations.get(name);
        byte[] original = shape.generate(new Random(seed ^ shape.ordinal()));
        byte[] reference = codec.compress(original, 0, original.length);
        assertTrue(reference.length <= codec.maxCompressedLength(original.length));
        String context = name + " " + shape + " seed " + seed;

        for (BufferKind inKind : BufferKind.values()) {
            for (BufferKind outKind : BufferKind.WRITABLE) {
                String where = context + " in=" + inKind + " out=" + outKind;
                byte[] compressed = compressWith(codec, original, inKind, outKind, where);
                // Compressors are deterministic: the buffer kinds must not change the bytes.
                assertArrayEquals(reference, compressed, where);
                assertEquals(original.length, codec.uncompressedLength(inKind.holding(compressed)), where);
                assertArrayEquals(original, decompressWith(codec, compressed, inKind, outKind, where), where);
            }
            ByteBuffer decoded = codec.decompress(inKind.holding(reference));
            assertEquals(0, decoded.position(), context);
            assertEquals(original.length, decoded.limit(), context);
            assertEquals(ByteBuffer.wrap(original), decoded, context + " in=" + inKind);
        }
    }

    private static byte[] compressWith(BlockCodec codec, byte[] original, BufferKind inKind,
            BufferKind outKind, String where) {
        ByteBuffer input = inKind.holding(original);
        ByteBuffer inputBefore = input.duplicate();
        int bound = codec.maxCompressedLength(original.length);
        ByteBuffer output = outKind.allocate(bound);
        int start = output.position();
        int written = codec.compress(input, output);
        assertEquals(inputBefore.position(), input.position(), where + ": input position moved");
        assertEquals(inputBefore.limit(), input.limit(), where + ": input limit moved");
        assertEquals(ByteBuffer.wrap(original), input, where + ": input changed");
        assertEquals(start + written, output.position(), where + ": output position");
        assertEquals(start + bound, output.limit(), where + ": output limit moved");
        // Libraries may use all the space they were given as scratch, but none beyond it.
        assertTrue(BufferKind.guardsIntact(output, bound), where + ": wrote outside its range");
        byte[] compressed = new byte[written];
        output.get(start, compressed);
        return compressed;
    }

    private static byte[] decompressWith(BlockCodec codec, byte[] compressed, BufferKind inKind,
            BufferKind outKind, String where) {
        ByteBuffer input = inKind.holding(compressed);
        int length = codec.uncompressedLength(input);
        ByteBuffer output = outKind.allocate(length + 5);
        int start = output.position();
        codec.decompress(input, output);
        assertEquals(BufferKind.LEAD, input.position(), where + ": input position moved");
        assertEquals(ByteBuffer.wrap(compressed), input, where + ": input changed");
        assertEquals(start + length, output.position(), where + ": output position");
        assertTrue(BufferKind.guardsIntact(output, length), where + ": wrote outside its range");
        byte[] decoded = new byte[length];
        output.get(start, decoded);
        return decoded;
    }

    @ParameterizedTest(name = "{0}")
    @FieldSource("org.leveldbj.compress.Implementations#ALL")
    void rejectsAnOutputThatIsTooSmallWithoutWriting(String name, @Seed long seed) {
        BlockCodec codec = Implementations.get(name);
        byte[] original = TestData.compressible(new Random(seed), 1000);
        byte[] compressed = codec.compress(original, 0, original.length);
        ByteBuffer small = BufferKind.HEAP.allocate(original.length - 1);
        assertThrows(IllegalArgumentException.class,
                () -> codec.decompress(ByteBuffer.wrap(compressed), small));
        assertTrue(BufferKind.guardsIntact(small, 0));
        ByteBuffer tooSmallForCompression = BufferKind.DIRECT.allocate(codec.maxCompressedLength(1000) - 1);
        assertThrows(IllegalArgumentException.class,
                () -> codec.compress(ByteBuffer.wrap(original), tooSmallForCompression));
        assertThrows(IllegalArgumentException.class,
                () -> codec.decompress(ByteBuffer.wrap(compressed),
                        ByteBuffer.allocate(original.length).asReadOnlyBuffer()));
    }

    /** The table reader's case: a read-only slice of a memory-mapped file at an odd offset. */
    @ParameterizedTest(name = "{0}")
    @FieldSource("org.leveldbj.compress.Implementations#ALL")
    void decodesASliceOfAMappedFile(String name, @Seed long seed) throws IOException {
        BlockCodec codec = Implementations.get(name);
        byte[] original = TestData.halfCompressible(new Random(seed), 4096);
        byte[] compressed = codec.compress(original, 0, original.length);
        Path dir = Files.createDirectories(Path.of(System.getProperty("java.io.tmpdir")));
        Path file = Files.createTempFile(dir, "codec", ".ldb");
        try {
            byte[] contents = new byte[compressed.length + 4099];
            System.arraycopy(compressed, 0, contents, 4093, compressed.length);
            Files.write(file, contents);
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
                MappedByteBuffer map = channel.map(FileChannel.MapMode.READ_ONLY, 0, contents.length);
                ByteBuffer block = map.slice(4093, compressed.length);
                assertTrue(block.isDirect() && block.isReadOnly());
                assertEquals(ByteBuffer.wrap(original), codec.decompress(block));
                ByteBuffer direct = ByteBuffer.allocateDirect(original.length);
                codec.decompress(block, direct);
                assertEquals(ByteBuffer.wrap(original), direct.flip());
            }
        } finally {
            Files.deleteIfExists(file);
        }
    }

    @ParameterizedTest(name = "{0}")
    @FieldSource("org.leveldbj.compress.Implementations#ALL")
    void reportsItsIdentity(String name) {
        BlockCodec codec = Implementations.get(name);
        assertEquals(CodecIds.algorithmName(codec.id()), codec.algorithm());
        assertEquals(name.endsWith("-native"), codec.isNative());
        assertTrue(name.startsWith(codec.algorithm()), name + " vs " + codec.algorithm());
    }
}
