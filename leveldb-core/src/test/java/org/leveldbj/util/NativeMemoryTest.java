package org.leveldbj.util;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.leveldbj.util.NativeMemory.Mechanism;

/** The chosen mechanism, and each mechanism on its own where this JVM offers it. */
class NativeMemoryTest {
    private static final int JDK = Runtime.version().feature();

    @TempDir
    Path dir;

    /**
     * Every mechanism this JVM offers, the garbage-collector fallback included. The cleaner is
     * not offered from JDK 24 on (calling it prints a warning there), so it is tested only on
     * older JDKs.
     */
    private static List<Mechanism> usable() {
        List<Mechanism> all = new ArrayList<>();
        for (Mechanism mechanism : Mechanism.values()) {
            if (mechanism.available()) {
                all.add(mechanism);
            }
        }
        return all;
    }

    private Path file(int size) throws IOException {
        byte[] content = new byte[size];
        new Random(size).nextBytes(content);
        return Files.write(dir.resolve("mapped-" + size), content);
    }

    /** Maps a region, closing the channel before the mapping is used. */
    private static ByteBuffer map(MemoryScope scope, Path file, long position, long size) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            return scope.map(channel, position, size);
        }
    }

    private static byte[] toArray(ByteBuffer buffer) {
        byte[] bytes = new byte[buffer.remaining()];
        buffer.duplicate().get(bytes);
        return bytes;
    }

    @Test
    void theChosenMechanismReleasesOnClose() {
        assertTrue(NativeMemory.releasesOnClose(), NativeMemory.mechanism());
        String expected = JDK >= 22 ? "java.lang.foreign shared arena" : "sun.misc.Unsafe.invokeCleaner";
        assertEquals(expected, NativeMemory.mechanism());
        try (MemoryScope scope = NativeMemory.open()) {
            assertEquals(expected, scope.mechanism());
        }
    }

    @Test
    void availabilityFollowsTheJdk() {
        assertEquals(JDK >= ForeignMemory.FIRST_FEATURE_RELEASE, Mechanism.FOREIGN.available());
        // The cleaner must be reachable where it may be used, and never used where it warns.
        assertEquals(JDK < UnsafeCleaner.WARNING_RELEASE, Mechanism.CLEANER.available());
        assertTrue(Mechanism.GARBAGE_COLLECTOR.available());
        for (Mechanism mechanism : Mechanism.values()) {
            if (!mechanism.available()) {
                assertThrows(IllegalArgumentException.class, () -> NativeMemory.open(mechanism));
            }
        }
    }

    @Test
    void allocationsAreExactAlignedZeroedAndWritable() {
        for (Mechanism mechanism : usable()) {
            String name = mechanism.description;
            MemoryScope scope = NativeMemory.open(mechanism);
            assertEquals(name, scope.mechanism());
            for (int size : new int[] {1, 13, 4096, 10_001, 1 << 20}) {
                ByteBuffer b = scope.allocate(size);
                assertTrue(b.isDirect(), name);
                assertFalse(b.isReadOnly(), name);
                assertEquals(size, b.capacity(), name);
                assertEquals(0, b.position(), name);
                assertEquals(size, b.limit(), name);
                assertEquals(0, b.alignmentOffset(0, 8), name);
                assertEquals(ByteOrder.BIG_ENDIAN, b.order(), name);
                for (int i = 0; i < size; i += 97) {
                    assertEquals(0, b.get(i), name);
                }
                b.put(size - 1, (byte) 1);
                assertEquals(1, b.get(size - 1), name);
            }
            scope.close();
            assertTrue(scope.isClosed(), name);
            scope.close(); // harmless
            assertThrows(IllegalStateException.class, () -> scope.allocate(8), name);
        }
    }

    @Test
    void mapsAFileAndUnmapsItOnClose() throws IOException {
        Path file = file(100_000);
        for (Mechanism mechanism : usable()) {
            String name = mechanism.description;
            MemoryScope scope = NativeMemory.open(mechanism);
            ByteBuffer buffer = map(scope, file, 0, Files.size(file));
            assertTrue(buffer.isReadOnly(), name);
            assertEquals(0, buffer.position(), name);
            assertEquals(100_000, buffer.capacity(), name);
            assertArrayEquals(Files.readAllBytes(file), toArray(buffer), name);
            if (ProcMaps.available()) {
                assertEquals(1, ProcMaps.count(file), name);
            }
            scope.close();
            if (ProcMaps.available() && mechanism != Mechanism.GARBAGE_COLLECTOR) {
                assertEquals(0, ProcMaps.count(file), name + " did not unmap");
            }
            assertThrows(IllegalStateException.class, () -> map(scope, file, 0, 10), name);
        }
    }

    @Test
    void forceWritesBackEveryWritableMappingWithEveryMechanism() throws IOException {
        Path file = file(20_000);
        for (Mechanism mechanism : usable()) {
            MemoryScope scope = NativeMemory.open(mechanism);
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                ByteBuffer first = scope.mapWritable(channel, 0, 4096);
                ByteBuffer second = scope.mapWritable(channel, 8192, 4096);
                first.put(0, (byte) 0x5a);
                second.put(100, (byte) 0xa5);
                scope.force();
            }
            byte[] written = Files.readAllBytes(file);
            assertEquals(0x5a, written[0], mechanism.description);
            assertEquals((byte) 0xa5, written[8292], mechanism.description);
            scope.close();
            assertThrows(IllegalStateException.class, scope::force, mechanism.description);
        }
    }

    @Test
    void mapsARegion() throws IOException {
        Path file = file(20_000);
        byte[] content = Files.readAllBytes(file);
        for (Mechanism mechanism : usable()) {
            try (MemoryScope scope = NativeMemory.open(mechanism)) {
                ByteBuffer region = map(scope, file, 4097, 5000);
                assertEquals(5000, region.capacity(), mechanism.description);
                assertArrayEquals(Arrays.copyOfRange(content, 4097, 9097), toArray(region), mechanism.description);
            }
        }
    }

    @Test
    void oneCloseReleasesEverythingTheScopeOwns() throws IOException {
        assumeTrue(ProcMaps.available(), "needs /proc/self/maps");
        Path first = file(8192);
        Path second = file(70_000);
        MemoryScope scope = NativeMemory.open();
        map(scope, first, 0, 8192);
        scope.allocate(4096);
        map(scope, second, 0, 70_000);
        map(scope, second, 65_536, 4464);
        scope.allocate(1 << 20);
        assertEquals(1, ProcMaps.count(first));
        assertEquals(2, ProcMaps.count(second));
        scope.close();
        assertEquals(0, ProcMaps.count(first));
        assertEquals(0, ProcMaps.count(second));
    }

    @Test
    void withTheForeignMemoryApiStaleBuffersThrowInsteadOfCrashing() throws IOException {
        assumeTrue(Mechanism.FOREIGN.available(), "the foreign memory API is final from JDK 22");
        MemoryScope scope = NativeMemory.open(Mechanism.FOREIGN);
        ByteBuffer mapped = map(scope, file(4096), 0, 4096).slice(100, 10);
        ByteBuffer allocated = scope.allocate(64);
        ByteBuffer view = allocated.asReadOnlyBuffer();
        scope.close();
        assertThrows(IllegalStateException.class, () -> mapped.get(0));
        assertThrows(IllegalStateException.class, () -> allocated.get(0));
        assertThrows(IllegalStateException.class, () -> allocated.put(0, (byte) 1));
        assertThrows(IllegalStateException.class, () -> view.getLong(8));
    }

    @Test
    void rejectsBadArguments() throws IOException {
        Path file = file(100);
        try (MemoryScope scope = NativeMemory.open()) {
            assertThrows(IllegalArgumentException.class, () -> scope.allocate(0));
            assertThrows(IllegalArgumentException.class, () -> scope.allocate(-1));
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> scope.allocate(MemoryScope.MAX_ALLOCATION + 1));
            assertTrue(e.getMessage().contains(Integer.toString(MemoryScope.MAX_ALLOCATION + 1)), e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> map(scope, file, 0, 0));
            assertThrows(IllegalArgumentException.class, () -> map(scope, file, -1, 10));
            assertThrows(IllegalArgumentException.class, () -> map(scope, file, 0, Integer.MAX_VALUE + 1L));
        }
    }
}
