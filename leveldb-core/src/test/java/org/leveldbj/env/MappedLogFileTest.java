package org.leveldbj.env;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link MappedLogFile}: appends across regions, the zero tail, and how regions are filled. */
class MappedLogFileTest {
    @TempDir
    Path dir;

    private MappedLogFile open(Path file) throws IOException {
        return new MappedLogFile(file, FileChannel.open(file, StandardOpenOption.CREATE_NEW,
                StandardOpenOption.READ, StandardOpenOption.WRITE));
    }

    @Test
    void appendsAcrossRegionsReadBackExactlyAndCloseTruncatesTheZeroTail() throws IOException {
        Path file = dir.resolve("000001.log");
        byte[] data = new byte[MappedLogFile.FIRST_REGION * 5 + 12345];
        new Random(7).nextBytes(data);
        try (MappedLogFile log = open(file)) {
            for (int at = 0; at < data.length; ) {
                int n = Math.min(data.length - at, 1000 + at % 7000);
                log.append(ByteBuffer.wrap(data, at, n));
                at += n;
            }
            log.sync();
            // While open, the file extends past the data with zeros.
            byte[] onDisk = Files.readAllBytes(file);
            assertEquals(0, onDisk.length % MappedLogFile.FIRST_REGION, "whole regions while open");
            for (int i = data.length; i < onDisk.length; i++) {
                assertEquals(0, onDisk[i], "byte " + i + " of the preallocated tail");
            }
        }
        assertArrayEquals(data, Files.readAllBytes(file));
    }

    @Test
    void regionsAfterASyncAreFilledAPageAtATimeOthersInLargeWrites() throws IOException {
        try (MappedLogFile log = open(dir.resolve("000002.log"))) {
            assertEquals(MappedLogFile.SYNCED_FILL_CHUNK, log.nextFillChunk(), "the first region");
            log.append(ByteBuffer.allocate(10));
            assertEquals(MappedLogFile.FILL_CHUNK, log.nextFillChunk(), "after a region with no sync");
            log.sync();
            assertEquals(MappedLogFile.SYNCED_FILL_CHUNK, log.nextFillChunk(), "after a sync");
            // Fill the first region and spill into the second: it is mapped after the sync.
            log.append(ByteBuffer.allocate(MappedLogFile.FIRST_REGION));
            assertEquals(MappedLogFile.FILL_CHUNK, log.nextFillChunk(), "no sync since the last region");
            // The second region (twice the first) holds 10 bytes of it; fill it without a sync.
            log.append(ByteBuffer.allocate(2 * MappedLogFile.FIRST_REGION));
            assertEquals(MappedLogFile.FILL_CHUNK, log.nextFillChunk(), "unsynced writes keep large fills");
        }
    }
}
