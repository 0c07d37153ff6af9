package org.leveldbj.memtable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ChunkAllocatorTest {
    /**
     * Every mechanism this JVM would use, the garbage-collector fallback included. Where the
     * foreign memory API exists the cleaner is never used (and calling it makes JDK 24 and later
     * print a deprecation warning), so it is tested only on older JDKs.
     */
    private static List<ChunkAllocator> allocators() {
        List<ChunkAllocator> all = new ArrayList<>();
        if (ForeignChunkAllocator.available()) {
            all.add(ForeignChunkAllocator.create());
        } else if (CleanerChunkAllocator.cleanerAvailable()) {
            all.add(CleanerChunkAllocator.withCleaner());
        }
        all.add(CleanerChunkAllocator.withoutCleaner());
        return all;
    }

    @Test
    void buffersAreExactAlignedZeroedAndLittleEndian() {
        for (ChunkAllocator allocator : allocators()) {
            String name = allocator.mechanism();
            for (int size : new int[] {1, 13, 4096, 10_001, 1 << 20}) {
                ByteBuffer b = allocator.allocate(size);
                assertTrue(b.isDirect(), name);
                assertFalse(b.isReadOnly(), name);
                assertEquals(size, b.capacity(), name);
                assertEquals(0, b.position(), name);
                assertEquals(size, b.limit(), name);
                assertEquals(0, b.alignmentOffset(0, 8), name);
                assertEquals(ByteOrder.LITTLE_ENDIAN, b.order(), name);
                for (int i = 0; i < size; i += 97) {
                    assertEquals(0, b.get(i), name);
                }
                b.put(size - 1, (byte) 1);
            }
            allocator.releaseAll();
            allocator.releaseAll(); // harmless
            assertThrows(IllegalStateException.class, () -> allocator.allocate(8), name);
        }
    }

    @Test
    void theGarbageCollectorFallbackSaysSo() {
        ChunkAllocator fallback = CleanerChunkAllocator.withoutCleaner();
        assertFalse(fallback.releasesDeterministically());
        assertEquals("garbage collector", fallback.mechanism());
        fallback.releaseAll();
    }
}
