package org.leveldbj.compress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.iq80.leveldb.CorruptionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.leveldbj.testing.PeerExtension;
import org.leveldbj.testing.Seed;
import org.leveldbj.testing.SeedExtension;

/**
 * Damaged blocks (flipped bytes, truncations, appended garbage, lying length headers, random
 * bytes) either decode to something or raise {@link CorruptionException}: no other exception,
 * no crash, no hang, no huge allocation.
 */
@ExtendWith({SeedExtension.class, PeerExtension.class})
class CorruptInputTest {
    private static final Duration BOUND = Duration.ofMinutes(2);
    private static final int MUTATIONS_PER_BLOCK = 300;

    @ParameterizedTest(name = "{0}")
    @FieldSource("org.leveldbj.compress.Implementations#ALL")
    void damagedBlocksDecodeOrReportCorruption(String name, @Seed long seed) {
        BlockCodec codec = Implementations.get(name);
        Random random = new Random(seed ^ name.hashCode());
        int[] outcomes = new int[2];
        assertTimeoutPreemptively(BOUND, () -> {
            for (byte[] original : originals(random)) {
                byte[] block = codec.compress(original, 0, original.length);
                for (byte[] damaged : damage(block, random)) {
                    outcomes[decodeOrCorrupt(codec, damaged, name)]++;
                }
            }
        }, name + " seed " + seed);
        System.err.println(name + ": " + outcomes[0] + " damaged blocks decoded, " + outcomes[1]
                + " reported as corrupt");
    }

    @ParameterizedTest(name = "{0}")
    @FieldSource("org.leveldbj.compress.Implementations#ALL")
    void garbageDecodesOrReportsCorruption(String name, @Seed long seed) {
        BlockCodec codec = Implementations.get(name);
        Random random = new Random(seed ^ ~name.hashCode());
        assertTimeoutPreemptively(BOUND, () -> {
            for (int i = 0; i < 3000; i++) {
                byte[] garbage = new byte[random.nextInt(i < 2000 ? 64 : 4096)];
                random.nextBytes(garbage);
                if (i % 3 == 0 && garbage.length >= 5 && codec.id() == CodecIds.ZSTD) {
                    // Past the magic, so the frame decoder itself sees the garbage.
                    System.arraycopy(new byte[] {0x28, (byte) 0xb5, 0x2f, (byte) 0xfd}, 0, garbage, 0, 4);
                } else if (i % 3 == 0 && garbage.length >= 1 && codec.id() == CodecIds.SNAPPY) {
                    garbage[0] = (byte) random.nextInt(0x80); // a plausible one-byte length
                }
                decodeOrCorrupt(codec, garbage, name);
            }
        }, name + " seed " + seed);
    }

    @ParameterizedTest
    @ValueSource(strings = {Implementations.SNAPPY_NATIVE, Implementations.SNAPPY_JAVA})
    void snappyLengthHeadersThatLie(String name, @Seed long seed) {
        BlockCodec codec = Implementations.get(name);
        byte[] original = TestData.halfCompressible(new Random(seed), 4096);
        byte[] block = codec.compress(original, 0, original.length);
        byte[] body = Arrays.copyOfRange(block, varintLength(block), block.length);

        String length = "corrupted snappy compressed block length";
        String contents = "corrupted snappy compressed block contents";
        assertCorrupt(codec, withSnappyLength((1L << 30) + 1, body), length);
        assertCorrupt(codec, withSnappyLength((1L << 31) - 1, body), length);
        assertCorrupt(codec, withSnappyLength((1L << 32) - 1, body), length);
        assertCorrupt(codec, withSnappyLength(body.length * 22L, body), length); // beyond any expansion
        assertCorrupt(codec, new byte[] {(byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, 0x01}, length);
        assertCorrupt(codec, new byte[] {(byte) 0xff}, length);
        assertCorrupt(codec, new byte[0], length);
        assertCorrupt(codec, withSnappyLength(original.length - 1, body), contents);
        assertCorrupt(codec, withSnappyLength(original.length + 1, body), contents);
        assertCorrupt(codec, withSnappyLength(original.length * 2L, body), contents);
    }

    @ParameterizedTest
    @ValueSource(strings = {Implementations.ZSTD_NATIVE, Implementations.ZSTD_JAVA})
    void zstdFramesThatLie(String name) {
        BlockCodec codec = Implementations.get(name);
        String length = "corrupted zstd compressed block length";
        String contents = "corrupted zstd compressed block contents";
        // "abc" in a raw block, with the one-byte content size (offset 5) changed.
        byte[] abc = {0x28, (byte) 0xb5, 0x2f, (byte) 0xfd, 0x20, 0x03, 0x19, 0x00, 0x00, 'a', 'b', 'c'};
        assertCorrupt(codec, with(abc, 5, 2), contents);
        assertCorrupt(codec, with(abc, 5, 4), contents);
        assertCorrupt(codec, with(abc, 5, 0xff), contents); // plausible for 6 body bytes, but false
        assertCorrupt(codec, Arrays.copyOf(abc, abc.length - 1), contents);
        assertCorrupt(codec, Arrays.copyOf(abc, abc.length + 1), contents); // a trailing byte
        assertCorrupt(codec, Arrays.copyOf(abc, 5), length);
        assertCorrupt(codec, with(abc, 0, 0x29), length); // wrong magic
        assertCorrupt(codec, with(abc, 4, 0x28), length); // reserved bit
        // No content size: descriptor 0, window descriptor, then the raw block.
        assertCorrupt(codec, new byte[] {0x28, (byte) 0xb5, 0x2f, (byte) 0xfd, 0x00, 0x00, 0x19, 0x00, 0x00, 'a', 'b', 'c'}, length);
        // A skippable frame.
        assertCorrupt(codec, new byte[] {0x50, 0x2a, 0x4d, 0x18, 0x00, 0x00, 0x00, 0x00}, length);
        // An 8-byte content size of 2^40.
        assertCorrupt(codec, new byte[] {0x28, (byte) 0xb5, 0x2f, (byte) 0xfd, (byte) 0xe0, 0, 0, 0, 0, 0, 1, 0, 0, 0x19, 0, 0}, length);
    }

    @Test
    void zstdContentSizeBeyondExpansionBoundIsALengthError() {
        // Single segment, 4-byte content size of 10 MB, but only 3 bytes follow the header.
        byte[] frame = {0x28, (byte) 0xb5, 0x2f, (byte) 0xfd, (byte) 0xa0, (byte) 0x80, (byte) 0x96,
            (byte) 0x98, 0x00, 0x01, 0x00, 0x00};
        CorruptionException e = assertThrows(CorruptionException.class,
                () -> ZstdFrameHeader.contentSize(ByteBuffer.wrap(frame)));
        assertEquals("corrupted zstd compressed block length", e.reason());
    }

    /** Returns 0 when the block decoded, 1 when it was reported corrupt; fails otherwise. */
    private static int decodeOrCorrupt(BlockCodec codec, byte[] damaged, String name) {
        int result = -1;
        for (BufferKind kind : new BufferKind[] {BufferKind.HEAP, BufferKind.READ_ONLY_DIRECT}) {
            int outcome;
            try {
                int announced = codec.uncompressedLength(kind.holding(damaged));
                ByteBuffer decoded = codec.decompress(kind.holding(damaged));
                assertEquals(announced, decoded.remaining(), describe(name, kind, damaged));
                outcome = 0;
            } catch (CorruptionException e) {
                outcome = 1;
            } catch (Throwable t) {
                throw new AssertionError(describe(name, kind, damaged) + " threw " + t, t);
            }
            if (result != -1 && result != outcome) {
                fail(describe(name, kind, damaged) + ": heap and direct inputs disagree");
            }
            result = outcome;
        }
        return result;
    }

    private static void assertCorrupt(BlockCodec codec, byte[] block, String reason) {
        for (BufferKind kind : BufferKind.values()) {
            CorruptionException e = assertThrows(CorruptionException.class,
                    () -> codec.decompress(kind.holding(block)),
                    describe(codec.implementationName(), kind, block));
            assertEquals(reason, e.reason(), describe(codec.implementationName(), kind, block));
            assertEquals(null, e.file());
        }
    }

    private static String describe(String name, BufferKind kind, byte[] block) {
        String hex = HexFormat.of().formatHex(block, 0, Math.min(block.length, 48));
        return name + " " + kind + " on " + block.length + " bytes " + hex
                + (block.length > 48 ? "..." : "");
    }

    private static List<byte[]> originals(Random random) {
        List<byte[]> originals = new ArrayList<>();
        for (int size : new int[] {0, 1, 17, 100, 1000}) {
            originals.add(TestData.compressible(random, size));
        }
        originals.add(TestData.halfCompressible(random, 4096));
        originals.add(TestData.compressible(random, 4096));
        byte[] noise = new byte[4096];
        random.nextBytes(noise);
        originals.add(noise);
        originals.add(TestData.compressible(random, 64 * 1024));
        return originals;
    }

    private static List<byte[]> damage(byte[] block, Random random) {
        List<byte[]> damaged = new ArrayList<>();
        for (int i = 0; i < MUTATIONS_PER_BLOCK && block.length > 0; i++) {
            byte[] copy = block.clone();
            int flips = 1 + random.nextInt(4);
            for (int f = 0; f < flips; f++) {
                int at = random.nextInt(copy.length);
                copy[at] = (byte) (i % 2 == 0 ? copy[at] ^ (1 << random.nextInt(8)) : random.nextInt(256));
            }
            damaged.add(copy);
        }
        int step = Math.max(1, block.length / 64);
        for (int cut = 0; cut < block.length; cut += step) {
            damaged.add(Arrays.copyOf(block, cut));
        }
        for (int extra : new int[] {1, 7, 100}) {
            byte[] longer = Arrays.copyOf(block, block.length + extra);
            for (int i = block.length; i < longer.length; i++) {
                longer[i] = (byte) random.nextInt(256);
            }
            damaged.add(longer);
        }
        return damaged;
    }

    private static int varintLength(byte[] block) {
        int i = 0;
        while ((block[i] & 0x80) != 0) {
            i++;
        }
        return i + 1;
    }

    private static byte[] withSnappyLength(long length, byte[] body) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        long v = length;
        while (v >= 0x80) {
            out.write((int) (v & 0x7f) | 0x80);
            v >>>= 7;
        }
        out.write((int) v);
        out.writeBytes(body);
        return out.toByteArray();
    }

    private static byte[] with(byte[] block, int at, int value) {
        byte[] copy = block.clone();
        copy[at] = (byte) value;
        return copy;
    }
}
