package org.leveldbj.memtable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.leveldbj.testing.Seed;
import org.leveldbj.testing.SeedExtension;

@ExtendWith(SeedExtension.class)
class ArenaTest {
    @Test
    void rejectsBadChunkSizes() {
        assertThrows(IllegalArgumentException.class, () -> new Arena(Arena.MIN_CHUNK_SIZE - 8));
        assertThrows(IllegalArgumentException.class, () -> new Arena(4100));
    }

    @Test
    void allocationsAreDistinctZeroedAndKeepTheirBytes(@Seed long seed) {
        Random random = new Random(seed);
        try (Arena arena = new Arena(4096)) {
            List<long[]> allocations = new ArrayList<>(); // {address, size, fill}
            for (int i = 0; i < 3000; i++) {
                int size = random.nextInt(10) == 0 ? 1 + random.nextInt(6000) : 1 + random.nextInt(300);
                boolean aligned = random.nextBoolean();
                long address = aligned ? arena.allocateAligned(size) : arena.allocate(size);
                assertNotEquals(Arena.NULL, address);
                ByteBuffer b = arena.buffer(address);
                int offset = Arena.offset(address);
                if (aligned) {
                    assertEquals(0, offset % 8, "aligned offset");
                    assertEquals(0, b.alignmentOffset(offset, 8), "aligned native address");
                }
                for (int j = 0; j < size; j++) {
                    assertEquals(0, b.get(offset + j), "fresh memory is zero");
                }
                byte fill = (byte) i;
                for (int j = 0; j < size; j++) {
                    b.put(offset + j, fill);
                }
                allocations.add(new long[] {address, size, fill});
            }
            for (long[] a : allocations) {
                ByteBuffer b = arena.buffer(a[0]);
                for (int j = 0; j < a[1]; j++) {
                    assertEquals((byte) a[2], b.get(Arena.offset(a[0]) + j), "allocation overwritten");
                }
            }
        }
    }

    @Test
    void largeRequestsGetDedicatedChunksAndTheCurrentChunkContinues() {
        try (Arena arena = new Arena(4096)) {
            long first = arena.allocate(100); // the chunk starts at 8: offset 0 of chunk 0 is NULL
            assertEquals(8, Arena.offset(first));
            long fits = arena.allocate(1025); // over a quarter chunk, but it fits the current chunk
            assertEquals(chunk(first), chunk(fits));
            long huge = arena.allocate(10_000);
            assertNotEquals(chunk(first), chunk(huge));
            assertEquals(0, Arena.offset(huge));
            assertEquals(10_000, arena.buffer(huge).capacity());
            long after = arena.allocate(8);
            assertEquals(chunk(first), chunk(after), "the regular chunk stays current");
            assertEquals(1141, Arena.offset(after) + 8);
            long over = arena.allocate(2956); // over a quarter chunk and does not fit: dedicated
            assertEquals(3, arena.chunkCount());
            assertNotEquals(chunk(first), chunk(over));
            assertEquals(chunk(first), chunk(arena.allocate(500)));
            assertEquals(chunk(first), chunk(arena.allocate(1000)));
            assertEquals(chunk(first), chunk(arena.allocate(1000)));
            long fresh = arena.allocate(1000); // small and does not fit: a new regular chunk
            assertEquals(4, arena.chunkCount());
            assertEquals(3, chunk(fresh));
            assertEquals(0, Arena.offset(fresh));
            assertEquals(4096, arena.buffer(fresh).capacity());
        }
    }

    private static int chunk(long address) {
        return (int) (address >>> 32);
    }

    @Test
    void memoryUsageGrowsWithTheDataAndReservedCountsWholeChunks() {
        try (Arena arena = new Arena(4096)) {
            long initial = arena.memoryUsage();
            assertTrue(initial > 0 && initial <= 64, "initial " + initial);
            assertEquals(4096, arena.reservedBytes());
            arena.allocate(100);
            assertEquals(initial + 100, arena.memoryUsage());
            arena.allocateAligned(8); // pads to the next multiple of 8
            assertEquals(((initial + 100 + 7) & -8) + 8, arena.memoryUsage());
            long before = arena.memoryUsage();
            arena.allocate(5000); // dedicated: 5000 rounded to 5000
            assertEquals(before + 5000, arena.memoryUsage());
            assertEquals(4096 + 5000, arena.reservedBytes());
            // Fill the regular chunk: the remainder is wasted and counted.
            long used = arena.memoryUsage() - 5000;
            arena.allocate((int) (4096 - used));
            assertEquals(4096 + 5000, arena.memoryUsage());
            arena.allocate(1);
            assertEquals(4096 + 5000 + 1, arena.memoryUsage());
            assertEquals(2 * 4096 + 5000, arena.reservedBytes());
            assertTrue(arena.memoryUsage() <= arena.reservedBytes());
        }
    }

    @Test
    void regularChunksStartSmallAndDoubleUpToTheChunkSize() {
        try (Arena arena = new Arena()) {
            assertEquals(Arena.INITIAL_CHUNK_SIZE, arena.reservedBytes(), "a new memtable holds 16 KiB, not 1 MiB");
            List<Integer> sizes = new ArrayList<>();
            long previousChunk = -1;
            for (int i = 0; i < 4000; i++) {
                long address = arena.allocate(1000);
                if (chunk(address) != previousChunk) {
                    previousChunk = chunk(address);
                    sizes.add(arena.buffer(address).capacity());
                }
            }
            assertEquals(List.of(16 << 10, 32 << 10, 64 << 10, 128 << 10, 256 << 10, 512 << 10, 1 << 20, 1 << 20,
                    1 << 20), sizes);
            assertTrue(arena.memoryUsage() <= arena.reservedBytes());
        }
        // A request larger than the rest of a small chunk, not large enough for a chunk of its
        // own, gets a regular chunk that holds it.
        try (Arena arena = new Arena()) {
            long address = arena.allocate(100 << 10);
            assertEquals(128 << 10, arena.buffer(address).capacity());
        }
    }

    @Test
    void releaseAndAcquireRoundTrip() {
        try (Arena arena = new Arena()) {
            long address = arena.allocateAligned(16);
            ByteBuffer b = arena.buffer(address);
            Arena.setLongRelease(b, Arena.offset(address), 0x0102030405060708L);
            Arena.setLongPlain(b, Arena.offset(address) + 8, -1L);
            assertEquals(0x0102030405060708L, Arena.getLongAcquire(b, Arena.offset(address)));
            assertEquals(8, b.get(Arena.offset(address)), "little-endian");
            assertEquals(-1L, Arena.getLongAcquire(b, Arena.offset(address) + 8));
        }
    }

    @Test
    void chunksAreDirectLittleEndianAndAligned() {
        try (Arena arena = new Arena(4096)) {
            for (int size : new int[] {8, 3000, 100_000}) {
                long address = arena.allocateAligned(size);
                ByteBuffer b = arena.buffer(address);
                assertTrue(b.isDirect());
                assertEquals(ByteOrder.LITTLE_ENDIAN, b.order());
                assertEquals(0, b.alignmentOffset(0, 8));
                assertEquals(0, b.position());
                assertEquals(b.capacity(), b.limit());
            }
        }
    }

    @Test
    void closedArenaRejectsUse() {
        Arena arena = new Arena(4096);
        long address = arena.allocate(10);
        arena.close();
        assertTrue(arena.isClosed());
        assertThrows(IllegalStateException.class, () -> arena.buffer(address));
        assertThrows(IllegalStateException.class, () -> arena.allocate(10));
        arena.close(); // harmless
    }

    @Test
    void memoryIsFreedDeterministicallyOnThisJdk() {
        try (Arena arena = new Arena(4096)) {
            assertTrue(arena.releasesDeterministically());
            String expected = Runtime.version().feature() >= 22
                    ? "java.lang.foreign shared arena" : "sun.misc.Unsafe.invokeCleaner";
            assertEquals(expected, arena.memoryMechanism());
        }
    }

    @Test
    void withTheForeignMemoryApiAStaleBufferThrowsInsteadOfCrashing() {
        assumeTrue(Runtime.version().feature() >= 22, "the foreign memory API is final from JDK 22");
        Arena arena = new Arena(4096);
        ByteBuffer stale = arena.buffer(arena.allocate(8));
        ByteBuffer view = stale.asReadOnlyBuffer();
        arena.close();
        assertThrows(IllegalStateException.class, () -> stale.get(0));
        assertThrows(IllegalStateException.class, () -> view.get(0));
        assertThrows(IllegalStateException.class, () -> Arena.getLongAcquire(stale, 8));
    }

    @Test
    void rejectsBadSizes() {
        try (Arena arena = new Arena(4096)) {
            assertThrows(IllegalArgumentException.class, () -> arena.allocate(0));
            assertThrows(IllegalArgumentException.class, () -> arena.allocate(-1));
            assertThrows(IllegalArgumentException.class, () -> arena.allocateAligned(Integer.MAX_VALUE));
        }
    }
}
