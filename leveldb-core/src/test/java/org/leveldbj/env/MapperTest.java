package org.leveldbj.env;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each way of mapping and unmapping, on its own, where this JVM offers it. */
class MapperTest {
    /** From this release on the JVM warns when {@code Unsafe.invokeCleaner} is first called. */
    private static final int UNSAFE_WARNING_RELEASE = 24;

    @TempDir
    Path dir;

    private Path file(int size) throws IOException {
        byte[] content = new byte[size];
        new Random(size).nextBytes(content);
        return Files.write(dir.resolve("mapped-" + size), content);
    }

    private static Mapper.Mapping map(Mapper mapper, Path file) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            return mapper.map(channel, channel.size());
        }
    }

    private static void checkMapsAndUnmaps(Mapper mapper, Path file) throws IOException {
        Mapper.Mapping mapping = map(mapper, file);
        ByteBuffer buffer = mapping.buffer();
        assertTrue(buffer.isReadOnly());
        assertEquals(0, buffer.position());
        byte[] read = new byte[buffer.remaining()];
        buffer.duplicate().get(read);
        assertArrayEquals(Files.readAllBytes(file), read);
        if (ProcMaps.available()) {
            assertEquals(1, ProcMaps.count(file), mapper.name());
        }
        mapping.unmap();
        if (ProcMaps.available() && mapper.unmapsOnClose()) {
            assertEquals(0, ProcMaps.count(file), mapper.name() + " did not unmap");
        }
    }

    @Test
    void bestMapperUnmapsOnClose() {
        Mapper best = Mappers.best();
        assertTrue(best.unmapsOnClose(), best.name());
        if (Runtime.version().feature() >= ForeignMapper.FIRST_FEATURE_RELEASE) {
            assertTrue(best instanceof ForeignMapper, best.name());
        }
    }

    @Test
    void foreignMapper() throws IOException {
        ForeignMapper mapper = ForeignMapper.create();
        if (Runtime.version().feature() < ForeignMapper.FIRST_FEATURE_RELEASE) {
            assertNull(mapper);
            return;
        }
        assertNotNull(mapper);
        checkMapsAndUnmaps(mapper, file(100_000));
    }

    @Test
    void foreignMappingTouchedAfterUnmapThrowsInsteadOfCrashing() throws IOException {
        ForeignMapper mapper = ForeignMapper.create();
        assumeTrue(mapper != null, "needs the foreign memory API");
        Mapper.Mapping mapping = map(mapper, file(4096));
        ByteBuffer slice = mapping.buffer().slice(100, 10);
        mapping.unmap();
        assertThrows(IllegalStateException.class, () -> slice.get(0));
    }

    @Test
    void cleanerMapper() throws IOException {
        // From JDK 24 on, the first call prints a deprecation warning, and the foreign mapper is
        // used instead; do not provoke the warning here.
        assumeTrue(Runtime.version().feature() < UNSAFE_WARNING_RELEASE, "prints a warning on this JDK");
        CleanerMapper mapper = CleanerMapper.create();
        assertNotNull(mapper, "sun.misc.Unsafe.invokeCleaner should be reachable");
        checkMapsAndUnmaps(mapper, file(100_000));
    }

    @Test
    void gcMapperLeavesUnmappingToTheCollector() throws IOException {
        assertFalse(GcMapper.INSTANCE.unmapsOnClose());
        checkMapsAndUnmaps(GcMapper.INSTANCE, file(8192));
    }

    @Test
    void limiterHandsOutAtMostItsPermits() {
        MappingLimiter limiter = new MappingLimiter(2);
        assertTrue(limiter.tryAcquire());
        assertTrue(limiter.tryAcquire());
        assertFalse(limiter.tryAcquire());
        assertEquals(0, limiter.available());
        limiter.release();
        assertEquals(1, limiter.available());
        assertTrue(limiter.tryAcquire());
        assertFalse(new MappingLimiter(0).tryAcquire());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new MappingLimiter(-3));
        assertTrue(e.getMessage().contains("-3"), e.getMessage());
    }
}
