package org.leveldbj.log;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.leveldbj.log.LogFormat.BLOCK_SIZE;
import static org.leveldbj.log.LogFormat.FIRST_TYPE;
import static org.leveldbj.log.LogFormat.FULL_TYPE;
import static org.leveldbj.log.LogFormat.HEADER_SIZE;
import static org.leveldbj.log.LogFormat.LAST_TYPE;
import static org.leveldbj.log.LogFormat.MAX_FRAGMENT_LENGTH;
import static org.leveldbj.log.LogFormat.MIDDLE_TYPE;
import static org.leveldbj.log.LogHarness.bigString;
import static org.leveldbj.log.LogHarness.bytes;
import static org.leveldbj.log.LogHarness.maskedCrc;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The exact bytes a {@link LogWriter} produces, parsed independently of {@link LogReader}. */
class LogWriterTest {

    /** One physical record found in a file. */
    record Physical(int offset, int type, int length) {
    }

    /**
     * Walks every physical record of a well-formed log, checking each checksum, that block
     * tails too small for a header are zeros, and that no record crosses a block.
     */
    static List<Physical> parse(byte[] file) {
        List<Physical> out = new ArrayList<>();
        int pos = 0;
        while (pos < file.length) {
            int leftover = BLOCK_SIZE - pos % BLOCK_SIZE;
            if (leftover < HEADER_SIZE) {
                for (int i = 0; i < leftover; i++) {
                    assertEquals(0, file[pos + i], "tail byte at " + (pos + i));
                }
                pos += leftover;
                continue;
            }
            int length = (file[pos + 4] & 0xff) | (file[pos + 5] & 0xff) << 8;
            int type = file[pos + 6] & 0xff;
            assertTrue(pos % BLOCK_SIZE + HEADER_SIZE + length <= BLOCK_SIZE, "record at " + pos + " crosses a block");
            int stored = (file[pos] & 0xff) | (file[pos + 1] & 0xff) << 8 | (file[pos + 2] & 0xff) << 16
                    | (file[pos + 3] & 0xff) << 24;
            assertEquals(maskedCrc(file, pos + 6, 1 + length), stored, "checksum at " + pos);
            out.add(new Physical(pos, type, length));
            pos += HEADER_SIZE + length;
        }
        return out;
    }

    private static byte[] write(String... records) throws IOException {
        ByteArrayWritableFile file = new ByteArrayWritableFile();
        try (LogWriter writer = new LogWriter(file)) {
            for (String r : records) {
                writer.addRecord(bytes(r));
            }
        }
        return file.contents();
    }

    @Test
    void knownSmallRecord() throws IOException {
        byte[] file = write("abc");
        // Checksum over the type byte then the payload: 01 'a' 'b' 'c'.
        int crc = maskedCrc(new byte[] {1, 'a', 'b', 'c'}, 0, 4);
        byte[] expected = {
            (byte) crc, (byte) (crc >>> 8), (byte) (crc >>> 16), (byte) (crc >>> 24),
            3, 0, 1, 'a', 'b', 'c'
        };
        assertArrayEquals(expected, file);
    }

    @Test
    void emptyRecordIsAnEmptyFullRecord() throws IOException {
        byte[] file = write("");
        int crc = maskedCrc(new byte[] {1}, 0, 1);
        assertArrayEquals(new byte[] {(byte) crc, (byte) (crc >>> 8), (byte) (crc >>> 16), (byte) (crc >>> 24),
            0, 0, 1}, file);
    }

    @Test
    void lengthIsLittleEndian() throws IOException {
        byte[] file = write(bigString("x", 0x1234));
        assertEquals(0x34, file[4]);
        assertEquals(0x12, file[5]);
    }

    @Test
    void recordExactlyFillingABlock() throws IOException {
        byte[] file = write(bigString("a", MAX_FRAGMENT_LENGTH), "next");
        assertEquals(List.of(new Physical(0, FULL_TYPE, MAX_FRAGMENT_LENGTH), new Physical(BLOCK_SIZE, FULL_TYPE, 4)),
                parse(file));
        assertEquals(BLOCK_SIZE + HEADER_SIZE + 4, file.length);
    }

    @Test
    void sixByteTailIsZeroFilled() throws IOException {
        byte[] file = write(bigString("a", BLOCK_SIZE - HEADER_SIZE - 6), "foo");
        assertEquals(BLOCK_SIZE + HEADER_SIZE + 3, file.length);
        assertEquals(List.of(new Physical(0, FULL_TYPE, BLOCK_SIZE - HEADER_SIZE - 6),
                new Physical(BLOCK_SIZE, FULL_TYPE, 3)), parse(file));
    }

    @Test
    void everyShortTailIsZeroFilled() throws IOException {
        for (int tail = 1; tail < HEADER_SIZE; tail++) {
            byte[] file = write(bigString("\u00ff", BLOCK_SIZE - HEADER_SIZE - tail), "foo");
            assertEquals(BLOCK_SIZE + HEADER_SIZE + 3, file.length, "tail " + tail);
            assertEquals(BLOCK_SIZE, parse(file).get(1).offset(), "tail " + tail);
        }
    }

    @Test
    void sevenByteTailHoldsAnEmptyFirstFragment() throws IOException {
        byte[] file = write(bigString("a", BLOCK_SIZE - 2 * HEADER_SIZE), "bar");
        assertEquals(List.of(new Physical(0, FULL_TYPE, BLOCK_SIZE - 2 * HEADER_SIZE),
                new Physical(BLOCK_SIZE - HEADER_SIZE, FIRST_TYPE, 0),
                new Physical(BLOCK_SIZE, LAST_TYPE, 3)), parse(file));
    }

    @Test
    void recordSpanningTwoBlocks() throws IOException {
        byte[] file = write(bigString("ab", 50_000));
        assertEquals(List.of(new Physical(0, FIRST_TYPE, MAX_FRAGMENT_LENGTH),
                new Physical(BLOCK_SIZE, LAST_TYPE, 50_000 - MAX_FRAGMENT_LENGTH)), parse(file));
    }

    @Test
    void recordSpanningFourBlocksHasMiddleFragments() throws IOException {
        byte[] file = write("x", bigString("abc", 100_000));
        int first = BLOCK_SIZE - 8 - HEADER_SIZE;
        assertEquals(List.of(new Physical(0, FULL_TYPE, 1),
                new Physical(8, FIRST_TYPE, first),
                new Physical(BLOCK_SIZE, MIDDLE_TYPE, MAX_FRAGMENT_LENGTH),
                new Physical(2 * BLOCK_SIZE, MIDDLE_TYPE, MAX_FRAGMENT_LENGTH),
                new Physical(3 * BLOCK_SIZE, LAST_TYPE, 100_000 - first - 2 * MAX_FRAGMENT_LENGTH)), parse(file));
    }

    @Test
    void oneAppendAndOneFlushPerRecord() throws IOException {
        ByteArrayWritableFile file = new ByteArrayWritableFile();
        LogWriter writer = new LogWriter(file);
        writer.addRecord(bytes("small"));
        writer.addRecord(bytes(bigString("x", 100_000)));
        writer.addRecord(bytes(bigString("y", BLOCK_SIZE)));
        assertEquals(3, file.appendCalls);
        assertEquals(3, file.flushCalls);
        assertEquals(0, file.syncCalls);
        writer.sync();
        assertEquals(1, file.syncCalls);
        writer.flush();
        assertEquals(4, file.flushCalls);
        writer.close();
        assertTrue(file.closed);
        writer.close();
    }

    @Test
    void hugeRecordIsAppendedInBoundedPieces() throws IOException {
        ByteArrayWritableFile file = new ByteArrayWritableFile();
        LogWriter writer = new LogWriter(file);
        byte[] record = new byte[1 << 20];
        new java.util.Random(7).nextBytes(record);
        writer.addRecord(record);
        int physical = (record.length + MAX_FRAGMENT_LENGTH - 1) / MAX_FRAGMENT_LENGTH;
        assertEquals((long) record.length + (long) physical * HEADER_SIZE, file.length());
        // Every append but the last carries more than MAX_PENDING_BYTES - BLOCK_SIZE bytes.
        long most = 1 + file.length() / (LogWriter.MAX_PENDING_BYTES - BLOCK_SIZE);
        assertTrue(file.appendCalls > 1 && file.appendCalls <= most, "appends: " + file.appendCalls);
        assertEquals(1, file.flushCalls);
        assertEquals(file.length(), writer.length());
        List<Physical> records = parse(file.contents());
        assertEquals(physical, records.size());
        assertEquals(FIRST_TYPE, records.get(0).type());
        assertEquals(LAST_TYPE, records.get(physical - 1).type());
    }

    @Test
    void arrayRangeAndBufferFormsWriteTheSameBytes() throws IOException {
        byte[] expected = write("hello", bigString("0123456789", 40_000));

        byte[] padded = bytes("__hello__");
        byte[] big = bytes("##" + bigString("0123456789", 40_000) + "##");
        ByteArrayWritableFile a = new ByteArrayWritableFile();
        try (LogWriter writer = new LogWriter(a)) {
            writer.addRecord(padded, 2, 5);
            writer.addRecord(big, 2, 40_000);
        }
        assertArrayEquals(expected, a.contents());

        ByteArrayWritableFile b = new ByteArrayWritableFile();
        try (LogWriter writer = new LogWriter(b)) {
            ByteBuffer heap = ByteBuffer.wrap(padded).position(2).limit(7).slice();
            writer.addRecord(heap);
            assertEquals(0, heap.position(), "position untouched");
            ByteBuffer direct = ByteBuffer.allocateDirect(big.length).put(big).position(2).limit(2 + 40_000);
            writer.addRecord(direct);
            assertEquals(2, direct.position(), "position untouched");
            assertEquals(2 + 40_000, direct.limit(), "limit untouched");
        }
        assertArrayEquals(expected, b.contents());
    }

    @Test
    void appendingToAnExistingLogMatchesOneWriter() throws IOException {
        // Existing lengths that end mid-block, in a block's short tail, at exactly 7 left, and
        // on a block boundary.
        int[] firstSizes = {
            1000, BLOCK_SIZE - HEADER_SIZE - 3, BLOCK_SIZE - 2 * HEADER_SIZE, MAX_FRAGMENT_LENGTH, 70_000
        };
        for (int firstSize : firstSizes) {
            String first = bigString("first", firstSize);
            String second = bigString("second", 40_000);
            byte[] oneWriter = write(first, "small", second);

            byte[] existing = write(first);
            ByteArrayWritableFile file = new ByteArrayWritableFile(existing);
            try (LogWriter writer = new LogWriter(file, existing.length)) {
                assertEquals(existing.length, writer.length());
                writer.addRecord(bytes("small"));
                writer.addRecord(bytes(second));
                assertEquals(oneWriter.length, writer.length());
            }
            assertArrayEquals(oneWriter, file.contents(), "first record of " + firstSize);
        }
    }

    @Test
    void appendFailureMakesTheWriterUnusable() throws IOException {
        ByteArrayWritableFile file = new ByteArrayWritableFile();
        LogWriter writer = new LogWriter(file);
        writer.addRecord(bytes("ok"));
        file.failAppendAfter = 3;
        assertThrows(IOException.class, () -> writer.addRecord(bytes("lost")));
        assertThrows(IllegalStateException.class, () -> writer.addRecord(bytes("after")));
        assertThrows(IllegalStateException.class, writer::sync);
        writer.close();
        assertTrue(file.closed);
        assertThrows(IllegalStateException.class, () -> writer.addRecord(bytes("closed")));
    }

    @Test
    void negativeExistingLengthIsRejected() {
        assertThrows(IllegalArgumentException.class, () -> new LogWriter(new ByteArrayWritableFile(), -1));
    }
}
