package org.leveldbj.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.iq80.leveldb.Env;
import org.junit.jupiter.api.Test;

class BackwardPrefetchTest {
    private static final int TRAILER = BlockReader.TRAILER_SIZE;
    /** Stored size of every test block: with its trailer, blocks lie 1000 bytes apart. */
    private static final int STORED = 1000 - TRAILER;

    /** A mapped-looking file of {@code size} bytes that records every read. */
    private static final class RecordingFile implements Env.RandomAccessFile {
        final ByteBuffer data;
        final List<long[]> reads = new ArrayList<>();
        boolean failing;

        RecordingFile(int size) {
            data = ByteBuffer.allocateDirect(size);
        }

        @Override
        public long size() {
            return data.capacity();
        }

        @Override
        public ByteBuffer read(long offset, int length) throws IOException {
            if (failing) {
                throw new IOException("closed");
            }
            reads.add(new long[] {offset, length});
            return data.slice((int) offset, length).asReadOnlyBuffer();
        }

        @Override
        public boolean isMapped() {
            return true;
        }

        @Override
        public void close() {
        }
    }

    private static long block(int i) {
        return 1000L * i;
    }

    @Test
    void stepsBackWarmTheWindowBelowOnceAndAgainBelowIt() {
        RecordingFile file = new RecordingFile(200 * 1000);
        BackwardPrefetch prefetch = new BackwardPrefetch(file);
        assertFalse(prefetch.beforeRead(block(199), STORED), "the first block read is no step back");
        assertTrue(prefetch.beforeRead(block(198), STORED));
        long end = block(199);
        assertEquals(List.of(end - BackwardPrefetch.WINDOW, (long) BackwardPrefetch.WINDOW),
                List.of(file.reads.get(0)[0], file.reads.get(0)[1]));
        // Every block wholly inside the warmed window is read without warming again.
        int i = 197;
        while (block(i) >= end - BackwardPrefetch.WINDOW) {
            assertFalse(prefetch.beforeRead(block(i), STORED), "block " + i);
            i--;
        }
        assertEquals(1, file.reads.size());
        // The first block reaching below it warms the next window, ending at that block's end.
        assertTrue(prefetch.beforeRead(block(i), STORED));
        assertEquals(block(i + 1) - BackwardPrefetch.WINDOW, file.reads.get(1)[0]);
        assertEquals(block(i + 1), file.reads.get(1)[0] + file.reads.get(1)[1]);
    }

    @Test
    void theWindowStopsAtTheStartOfTheFile() {
        RecordingFile file = new RecordingFile(10 * 1000);
        BackwardPrefetch prefetch = new BackwardPrefetch(file);
        prefetch.beforeRead(block(3), STORED);
        assertTrue(prefetch.beforeRead(block(2), STORED));
        assertEquals(0, file.reads.get(0)[0]);
        assertEquals(block(3), file.reads.get(0)[1]);
    }

    @Test
    void forwardStepsAndSeeksWarmNothing() {
        RecordingFile file = new RecordingFile(200 * 1000);
        BackwardPrefetch prefetch = new BackwardPrefetch(file);
        for (int i = 0; i < 100; i++) {
            assertFalse(prefetch.beforeRead(block(i), STORED), "forward step to block " + i);
        }
        // Jumps back (seeks) to blocks that do not end where the last one started.
        assertFalse(prefetch.beforeRead(block(50), STORED));
        assertFalse(prefetch.beforeRead(block(10), STORED));
        assertFalse(prefetch.beforeRead(block(150), STORED));
        assertEquals(0, file.reads.size());
    }

    @Test
    void unreadableOrMalformedRangesAreSkipped() {
        RecordingFile file = new RecordingFile(10 * 1000);
        BackwardPrefetch prefetch = new BackwardPrefetch(file);
        // A step back to a block reaching past the end of the file (the handles are damaged):
        // nothing is read, and the block's own read reports it.
        prefetch.beforeRead(block(11), STORED);
        assertFalse(prefetch.beforeRead(block(10), STORED));
        file.failing = true;
        prefetch.beforeRead(block(5), STORED);
        assertFalse(prefetch.beforeRead(block(4), STORED));
        assertEquals(0, file.reads.size());
    }
}
