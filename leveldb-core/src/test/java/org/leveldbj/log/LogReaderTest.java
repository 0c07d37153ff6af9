package org.leveldbj.log;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.leveldbj.log.LogFormat.BLOCK_SIZE;
import static org.leveldbj.log.LogFormat.HEADER_SIZE;
import static org.leveldbj.log.LogFormat.MAX_FRAGMENT_LENGTH;
import static org.leveldbj.log.LogHarness.bigString;
import static org.leveldbj.log.LogHarness.numberString;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.leveldbj.testing.Seed;
import org.leveldbj.testing.SeedExtension;

/** Records written by {@link LogWriter} come back from {@link LogReader} intact and in order. */
@ExtendWith(SeedExtension.class)
class LogReaderTest {
    private final LogHarness log = new LogHarness();

    private void assertNothingReported() {
        assertEquals("", log.reportMessage());
        assertEquals(0, log.droppedBytes());
    }

    @Test
    void emptyLog() {
        assertEquals("EOF", log.read());
        assertEquals("EOF", log.read(), "the end stays the end");
        assertNothingReported();
    }

    @Test
    void endAndFragmentsOfTheLastRecord() {
        String big = bigString("x", 2 * BLOCK_SIZE);
        log.write("foo").write(big).write("bar");
        assertEquals(0, log.reader().lastRecordEnd());
        assertEquals(0, log.reader().lastRecordFragments());
        assertEquals("foo", log.read());
        assertEquals(HEADER_SIZE + 3, log.reader().lastRecordEnd());
        assertEquals(1, log.reader().lastRecordFragments());
        assertEquals(big, log.read());
        // 3 + 7 bytes of the first block, all of the second, the rest in the third.
        long bigEnd = HEADER_SIZE + 3 + 3L * HEADER_SIZE + big.length();
        assertEquals(bigEnd, log.reader().lastRecordEnd());
        assertEquals(3, log.reader().lastRecordFragments());
        assertEquals("bar", log.read());
        assertEquals(bigEnd + HEADER_SIZE + 3, log.reader().lastRecordEnd());
        assertEquals(log.writtenBytes(), log.reader().lastRecordEnd());
        assertEquals(1, log.reader().lastRecordFragments());
        assertEquals("EOF", log.read());
        assertNothingReported();
    }

    @Test
    void smallRecords() {
        log.write("foo").write("bar").write("").write("xxxx");
        assertEquals("foo", log.read());
        assertEquals(0, log.reader().lastRecordOffset());
        assertEquals("bar", log.read());
        assertEquals(HEADER_SIZE + 3, log.reader().lastRecordOffset());
        assertEquals("", log.read());
        assertEquals(2 * (HEADER_SIZE + 3), log.reader().lastRecordOffset());
        assertEquals("xxxx", log.read());
        assertEquals(3 * HEADER_SIZE + 6, log.reader().lastRecordOffset());
        assertEquals("EOF", log.read());
        assertEquals("EOF", log.read());
        assertNothingReported();
    }

    @Test
    void recordsAreReadOnlyBuffersAtPositionZero() throws IOException {
        log.write("foo").write(bigString("y", 40_000));
        ByteBuffer full = log.reader().readRecord();
        assertTrue(full.isReadOnly());
        assertEquals(0, full.position());
        assertEquals(3, full.remaining());
        ByteBuffer assembled = log.reader().readRecord();
        assertTrue(assembled.isReadOnly());
        assertEquals(0, assembled.position());
        assertEquals(40_000, assembled.remaining());
        assertNull(log.reader().readRecord());
    }

    @Test
    void manyBlocks() {
        for (int i = 0; i < 100_000; i++) {
            log.write(numberString(i));
        }
        for (int i = 0; i < 100_000; i++) {
            assertEquals(numberString(i), log.read());
        }
        assertEquals("EOF", log.read());
        assertNothingReported();
    }

    @Test
    void fragmentation() {
        log.write("small").write(bigString("medium", 50_000)).write(bigString("large", 100_000));
        assertEquals("small", log.read());
        assertEquals(bigString("medium", 50_000), log.read());
        assertEquals(HEADER_SIZE + 5, log.reader().lastRecordOffset());
        assertEquals(bigString("large", 100_000), log.read());
        assertEquals(2 * HEADER_SIZE + 5 + 50_000 + HEADER_SIZE, log.reader().lastRecordOffset());
        assertEquals("EOF", log.read());
        assertNothingReported();
    }

    @Test
    void recordExactlyFillingABlock() {
        log.write(bigString("f", MAX_FRAGMENT_LENGTH)).write("next");
        assertEquals(BLOCK_SIZE + HEADER_SIZE + 4, log.writtenBytes());
        assertEquals(bigString("f", MAX_FRAGMENT_LENGTH), log.read());
        assertEquals("next", log.read());
        assertEquals(BLOCK_SIZE, log.reader().lastRecordOffset());
        assertEquals("EOF", log.read());
        assertNothingReported();
    }

    @Test
    void alignedEnd() {
        log.write(bigString("f", MAX_FRAGMENT_LENGTH));
        assertEquals(BLOCK_SIZE, log.writtenBytes());
        assertEquals(bigString("f", MAX_FRAGMENT_LENGTH), log.read());
        assertEquals("EOF", log.read());
        assertNothingReported();
    }

    @Test
    void sevenByteTailThenRecord() {
        // The second record starts with an empty FIRST fragment in the last 7 bytes.
        log.write(bigString("foo", BLOCK_SIZE - 2 * HEADER_SIZE)).write("").write("bar");
        assertEquals(bigString("foo", BLOCK_SIZE - 2 * HEADER_SIZE), log.read());
        assertEquals("", log.read());
        assertEquals(BLOCK_SIZE - HEADER_SIZE, log.reader().lastRecordOffset());
        assertEquals("bar", log.read());
        assertEquals(BLOCK_SIZE, log.reader().lastRecordOffset());
        assertEquals("EOF", log.read());
        assertNothingReported();
    }

    @Test
    void sevenByteTailAtTheEnd() {
        log.write(bigString("foo", BLOCK_SIZE - 2 * HEADER_SIZE));
        assertEquals(BLOCK_SIZE - HEADER_SIZE, log.writtenBytes());
        assertEquals(bigString("foo", BLOCK_SIZE - 2 * HEADER_SIZE), log.read());
        assertEquals("EOF", log.read());
        assertNothingReported();
    }

    @Test
    void sixByteTailThenRecord() {
        log.write(bigString("foo", BLOCK_SIZE - HEADER_SIZE - 6)).write("bar");
        assertEquals(BLOCK_SIZE + HEADER_SIZE + 3, log.writtenBytes());
        assertEquals(bigString("foo", BLOCK_SIZE - HEADER_SIZE - 6), log.read());
        assertEquals("bar", log.read());
        assertEquals(BLOCK_SIZE, log.reader().lastRecordOffset());
        assertEquals("EOF", log.read());
        assertNothingReported();
    }

    @Test
    void recordsSpanningTwoAndThreeBlocks() {
        String two = bigString("two", BLOCK_SIZE + 100);
        String three = bigString("three", 2 * BLOCK_SIZE + 100);
        String five = bigString("five", 4 * BLOCK_SIZE + 1);
        log.write(two).write(three).write("tiny").write(five);
        assertEquals(two, log.read());
        assertEquals(three, log.read());
        assertEquals("tiny", log.read());
        assertEquals(five, log.read());
        assertEquals("EOF", log.read());
        assertNothingReported();
    }

    @Test
    void oneMebibyteRecord() throws IOException {
        byte[] record = new byte[1 << 20];
        new Random(42).nextBytes(record);
        log.writer.addRecord(record);
        log.write("after");
        ByteBuffer read = log.reader().readRecord();
        byte[] got = new byte[read.remaining()];
        read.get(got);
        assertArrayEquals(record, got);
        assertEquals("after", log.read());
        assertEquals("EOF", log.read());
        assertNothingReported();
    }

    @Test
    void randomSizedRecords(@Seed long seed) {
        Random random = new Random(seed);
        List<String> written = new ArrayList<>();
        List<Long> offsets = new ArrayList<>();
        for (int i = 0; i < 2_000; i++) {
            // Mostly small, sometimes several blocks, now and then empty.
            int size = switch (random.nextInt(10)) {
                case 0 -> 0;
                case 1 -> random.nextInt(4 * BLOCK_SIZE);
                case 2 -> BLOCK_SIZE - HEADER_SIZE - random.nextInt(2 * HEADER_SIZE);
                default -> random.nextInt(200);
            };
            StringBuilder sb = new StringBuilder(size);
            for (int j = 0; j < size; j++) {
                sb.append((char) random.nextInt(256));
            }
            offsets.add(log.nextRecordOffset());
            written.add(sb.toString());
            log.write(sb.toString());
        }
        for (int i = 0; i < written.size(); i++) {
            assertEquals(written.get(i), log.read(), "record " + i + ", seed " + seed);
            assertEquals(offsets.get(i), log.reader().lastRecordOffset(), "record " + i + ", seed " + seed);
        }
        assertEquals("EOF", log.read());
        assertNothingReported();
        LogWriterTest.parse(log.contents());
    }

    @Test
    void manyRecordsThroughput() throws IOException {
        // A sanity check that the common path does no per-record work out of proportion; the
        // content is checked, the time is not.
        int n = 50_000;
        byte[] value = new byte[100];
        for (int i = 0; i < n; i++) {
            value[0] = (byte) i;
            value[1] = (byte) (i >>> 8);
            value[99] = (byte) (i >>> 16);
            log.writer.addRecord(value);
        }
        assertEquals(n, log.dest.appendCalls);
        LogReader reader = log.reader();
        for (int i = 0; i < n; i++) {
            ByteBuffer record = reader.readRecord();
            assertEquals(100, record.remaining());
            assertEquals((byte) i, record.get(0));
            assertEquals((byte) (i >>> 8), record.get(1));
            assertEquals((byte) (i >>> 16), record.get(99));
        }
        assertNull(reader.readRecord());
        assertNothingReported();
    }

    @Test
    void readerLoopsOverShortReads() throws IOException {
        log.write("foo").write(bigString("bar", 3 * BLOCK_SIZE)).write("baz");
        try (LogReader reader = new LogReader(new ByteArraySequentialFile(log.contents(), 1000), log.reporter)) {
            assertEquals("foo", LogHarness.string(reader.readRecord()));
            assertEquals(bigString("bar", 3 * BLOCK_SIZE), LogHarness.string(reader.readRecord()));
            assertEquals("baz", LogHarness.string(reader.readRecord()));
            assertNull(reader.readRecord());
        }
        assertNothingReported();
    }

    @Test
    void readErrorIsThrownNotReported() throws IOException {
        log.write(bigString("x", 3 * BLOCK_SIZE));
        ByteArraySequentialFile file = new ByteArraySequentialFile(log.contents());
        file.failAtOffset = BLOCK_SIZE;
        LogReader reader = new LogReader(file, log.reporter);
        assertThrows(IOException.class, reader::readRecord);
        assertNothingReported();
        reader.close();
        assertTrue(file.closed);
        reader.close();
        assertThrows(IllegalStateException.class, reader::readRecord);
    }

    @Test
    void readsWithoutAReporter() throws IOException {
        log.write("foo").write("bar");
        log.incrementByte(HEADER_SIZE, 1);
        try (LogReader reader = new LogReader(new ByteArraySequentialFile(log.contents()), null)) {
            assertNull(reader.readRecord());
        }
    }

    @Test
    void reopenedLogAppendsMidBlock() throws IOException {
        log.write("hello").write(bigString("world", 40_000));
        byte[] existing = log.contents();
        assertTrue(existing.length % BLOCK_SIZE > HEADER_SIZE, "ends mid-block");
        ByteArrayWritableFile file = new ByteArrayWritableFile(existing);
        try (LogWriter writer = new LogWriter(file, existing.length)) {
            writer.addRecord(LogHarness.bytes("again"));
            writer.addRecord(LogHarness.bytes(bigString("more", 70_000)));
        }
        byte[] all = file.contents();
        try (LogReader reader = new LogReader(new ByteArraySequentialFile(all), log.reporter)) {
            assertEquals("hello", LogHarness.string(reader.readRecord()));
            assertEquals(bigString("world", 40_000), LogHarness.string(reader.readRecord()));
            assertEquals("again", LogHarness.string(reader.readRecord()));
            assertEquals(existing.length, reader.lastRecordOffset());
            assertEquals(bigString("more", 70_000), LogHarness.string(reader.readRecord()));
            assertEquals(existing.length + HEADER_SIZE + 5, reader.lastRecordOffset());
            assertNull(reader.readRecord());
        }
        assertNothingReported();
    }

    @Test
    void checksumsOffStillReadsIntactLogs() {
        log.write("foo").write(bigString("bar", 2 * BLOCK_SIZE));
        log.withoutChecksums();
        assertEquals("foo", log.read());
        assertEquals(bigString("bar", 2 * BLOCK_SIZE), log.read());
        assertEquals("EOF", log.read());
        assertNothingReported();
    }
}
