package org.leveldbj.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.leveldbj.log.LogFormat.BLOCK_SIZE;
import static org.leveldbj.log.LogFormat.FIRST_TYPE;
import static org.leveldbj.log.LogFormat.HEADER_SIZE;
import static org.leveldbj.log.LogFormat.LAST_TYPE;
import static org.leveldbj.log.LogFormat.MAX_FRAGMENT_LENGTH;
import static org.leveldbj.log.LogFormat.MIDDLE_TYPE;
import static org.leveldbj.log.LogHarness.bigString;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.leveldbj.log.RecordingReporter.Report;
import org.leveldbj.testing.SeedExtension;

/**
 * Byte surgery on written logs: each damage is reported with its exact offset, byte count and
 * reason, the reader resynchronises on the next intact record, and a torn or preallocated end
 * is not reported at all.
 */
@ExtendWith(SeedExtension.class)
class LogCorruptionTest {
    private static final String CHECKSUM = "checksum mismatch";
    private static final String BAD_LENGTH = "bad record length";
    private static final String MISSING_START = "missing start of fragmented record";
    private static final String PARTIAL = "partial record without end";
    private static final String MIDDLE_ERROR = "error in middle of record";

    private final LogHarness log = new LogHarness();

    private void assertReports(Report... expected) {
        assertEquals(List.of(expected), log.reporter.reports);
    }

    private void assertNothingReported() {
        assertReports();
    }

    /**
     * Writes "aaaa" at 0, "bbbbbb" at 11, a record filling the rest of block 0 from 24, then
     * "dddd" at the start of block 1.
     */
    private void writeTwoBlocks() {
        log.write("aaaa").write("bbbbbb").write(bigString("c", BLOCK_SIZE - 24 - HEADER_SIZE)).write("dddd");
        assertEquals(BLOCK_SIZE + HEADER_SIZE + 4, log.writtenBytes());
    }

    private void assertReadsFirstThenLast() {
        assertEquals("aaaa", log.read());
        assertEquals("dddd", log.read());
        assertEquals(BLOCK_SIZE, log.reader().lastRecordOffset());
        assertEquals("EOF", log.read());
    }

    @Test
    void payloadBitFlipDropsTheRestOfTheBlock() {
        writeTwoBlocks();
        log.incrementByte(11 + HEADER_SIZE + 2, 0x10);
        assertReadsFirstThenLast();
        assertReports(new Report(11, BLOCK_SIZE - 11, CHECKSUM));
    }

    @Test
    void storedChecksumFlipDropsTheRestOfTheBlock() {
        writeTwoBlocks();
        log.incrementByte(11 + 3, 1);
        assertReadsFirstThenLast();
        assertReports(new Report(11, BLOCK_SIZE - 11, CHECKSUM));
    }

    @Test
    void typeFlipIsAChecksumMismatch() {
        writeTwoBlocks();
        log.incrementByte(11 + 6, 1);
        assertReadsFirstThenLast();
        assertReports(new Report(11, BLOCK_SIZE - 11, CHECKSUM));
    }

    @Test
    void checksumMismatchThenOrphanedLastFragment() {
        log.write("aaaa").write("bbbbbb").write(bigString("c", 40_000)).write("dddd");
        int lastLength = 40_000 - (BLOCK_SIZE - 24 - HEADER_SIZE);
        log.incrementByte(11 + HEADER_SIZE, 1);
        assertEquals("aaaa", log.read());
        assertEquals("dddd", log.read());
        assertEquals(BLOCK_SIZE + HEADER_SIZE + lastLength, log.reader().lastRecordOffset());
        assertEquals("EOF", log.read());
        assertReports(new Report(11, BLOCK_SIZE - 11, CHECKSUM),
                new Report(BLOCK_SIZE, lastLength, MISSING_START));
    }

    @Test
    void checksumsOffReturnsDamagedPayload() {
        log.write("foo").write("bar");
        log.incrementByte(HEADER_SIZE + 1, 1);
        log.withoutChecksums();
        assertEquals("fpo", log.read());
        assertEquals("bar", log.read());
        assertEquals("EOF", log.read());
        assertNothingReported();
    }

    @Test
    void lengthPastTheBlockIsABadLength() {
        writeTwoBlocks();
        log.setByte(11 + 4, 0xff);
        log.setByte(11 + 5, 0xff);
        assertReadsFirstThenLast();
        assertReports(new Report(11, BLOCK_SIZE - 11, BAD_LENGTH));
    }

    @Test
    void lengthWithinTheBlockIsAChecksumMismatch() {
        writeTwoBlocks();
        log.incrementByte(11 + 4, 1);
        assertReadsFirstThenLast();
        assertReports(new Report(11, BLOCK_SIZE - 11, CHECKSUM));
    }

    @Test
    void badLengthInAFullFirstBlock() {
        log.write(bigString("bar", MAX_FRAGMENT_LENGTH)).write("foo");
        log.incrementByte(4, 1);
        assertEquals("foo", log.read());
        assertEquals("EOF", log.read());
        assertReports(new Report(0, BLOCK_SIZE, BAD_LENGTH));
    }

    @Test
    void badLengthAtTheEndIsATornWrite() {
        log.write("foo");
        log.incrementByte(4, 1);
        assertEquals("EOF", log.read());
        assertNothingReported();
    }

    @Test
    void badLengthInAShortLastBlockIsATornWrite() {
        log.write(bigString("bar", MAX_FRAGMENT_LENGTH)).write("foo");
        log.setByte(BLOCK_SIZE + 4, 200);
        assertEquals(bigString("bar", MAX_FRAGMENT_LENGTH), log.read());
        assertEquals("EOF", log.read());
        assertNothingReported();
    }

    @Test
    void tornTailAtEveryCutIsTheEndOfTheLog() {
        String big = bigString("big", 3 * BLOCK_SIZE);
        List<String> records = List.of("hello", big, "tail!");
        LogHarness full = new LogHarness();
        records.forEach(full::write);
        byte[] bytes = full.contents();
        List<LogWriterTest.Physical> physical = LogWriterTest.parse(bytes);
        List<Long> recordEnds = List.of(12L, 12L + big.length() + 4L * HEADER_SIZE, (long) bytes.length);
        assertEquals(recordEnds.get(1) + HEADER_SIZE + 5, recordEnds.get(2), "layout");

        List<Integer> cuts = new ArrayList<>();
        for (LogWriterTest.Physical p : physical) {
            int end = p.offset() + HEADER_SIZE + p.length();
            for (int i = 0; i <= HEADER_SIZE + 1; i++) {
                cuts.add(p.offset() + i);
                cuts.add(end - i);
            }
            cuts.add(p.offset() + HEADER_SIZE + p.length() / 2);
        }
        for (int cut : cuts) {
            if (cut < 0 || cut >= bytes.length) {
                continue;
            }
            LogHarness torn = new LogHarness();
            records.forEach(torn::write);
            torn.shrinkSize(bytes.length - cut);
            for (int i = 0; i < records.size() && recordEnds.get(i) <= cut; i++) {
                assertEquals(records.get(i), torn.read(), "record " + i + ", cut at " + cut);
            }
            assertEquals("EOF", torn.read(), "cut at " + cut);
            assertEquals(List.of(), torn.reporter.reports, "cut at " + cut);
        }
    }

    @Test
    void tornCopyIntoPreallocatedSpaceAtEveryCutIsTheEndOfTheLog() {
        // A memory-mapped writer killed while copying a record: everything before the cut was
        // written, everything from it to the end of the preallocated file is still zeros.
        String big = bigString("big", 3 * BLOCK_SIZE);
        LogHarness full = new LogHarness();
        full.write("hello").write(big);
        long recordEnd = full.writtenBytes();
        List<Integer> cuts = new ArrayList<>();
        for (LogWriterTest.Physical p : LogWriterTest.parse(full.contents())) {
            if (p.offset() == 0) {
                continue;
            }
            int end = p.offset() + HEADER_SIZE + p.length();
            for (int i = 0; i <= HEADER_SIZE + 1; i++) {
                cuts.add(p.offset() + i);
                cuts.add(end - 1 - i);
            }
            cuts.add(p.offset() + HEADER_SIZE + p.length() / 2);
        }
        for (int cut : cuts) {
            LogHarness torn = new LogHarness();
            torn.write("hello").write(big);
            for (int i = cut; i < recordEnd; i++) {
                torn.setByte(i, 0);
            }
            torn.appendRaw(new byte[2 * BLOCK_SIZE + 5]);
            assertEquals("hello", torn.read(), "cut at " + cut);
            assertEquals("EOF", torn.read(), "cut at " + cut);
            assertEquals(List.of(), torn.reporter.reports, "cut at " + cut);
        }
    }

    @Test
    void damageAtTheVeryEndWithoutZerosIsReported() {
        log.write("aaaa").write("bbbbbb");
        log.incrementByte(11 + HEADER_SIZE + 2, 1);
        assertEquals("aaaa", log.read());
        assertEquals("EOF", log.read());
        assertReports(new Report(11, HEADER_SIZE + 6, CHECKSUM));
    }

    @Test
    void badLengthWithAWrittenPayloadBeforePreallocatedZerosIsReported() {
        // Not a torn copy: the payload after the length was written, so the length is damaged.
        log.write("aaaa").write("bbbbbb");
        log.setByte(11 + 4, 0xff);
        log.setByte(11 + 5, 0xff);
        log.appendRaw(new byte[(int) (2 * BLOCK_SIZE - log.writtenBytes())]);
        assertEquals("aaaa", log.read());
        assertEquals("EOF", log.read());
        assertReports(new Report(11, BLOCK_SIZE - 11, BAD_LENGTH));
    }

    @Test
    void damageFollowedByZerosThenARecordIsReported() {
        log.write("aaaa").write("bbbbbb");
        log.incrementByte(11 + HEADER_SIZE + 2, 1);
        log.appendRaw(new byte[(int) (2 * BLOCK_SIZE - log.writtenBytes())]);
        LogHarness next = new LogHarness();
        next.write("after");
        log.appendRaw(next.contents());
        assertEquals("aaaa", log.read());
        assertEquals("after", log.read());
        assertEquals("EOF", log.read());
        assertReports(new Report(11, BLOCK_SIZE - 11, CHECKSUM));
    }

    @Test
    void damagedMiddleFragmentFollowedByZerosThenARecordIsReported() {
        writeFourBlockRecord();
        log.incrementByte(BLOCK_SIZE + 100, 1);
        for (int i = 2 * BLOCK_SIZE; i < 3 * BLOCK_SIZE; i++) {
            log.setByte(i, 0);
        }
        assertEquals("next", log.read());
        assertEquals("EOF", log.read());
        assertReports(new Report(BLOCK_SIZE, BLOCK_SIZE, CHECKSUM),
                new Report(0, MAX_FRAGMENT_LENGTH, MIDDLE_ERROR),
                new Report(3 * BLOCK_SIZE, 21, MISSING_START));
    }

    @Test
    void damageFollowedByZerosAndJunkInALaterBlockIsReported() {
        log.write("aaaa").write("bbbbbb");
        log.incrementByte(11 + HEADER_SIZE + 2, 1);
        byte[] tail = new byte[(int) (2 * BLOCK_SIZE - log.writtenBytes())];
        tail[tail.length - 10] = 42;
        log.appendRaw(tail);
        assertEquals("aaaa", log.read());
        assertEquals("EOF", log.read());
        assertReports(new Report(11, BLOCK_SIZE - 11, CHECKSUM));
    }

    @Test
    void tornInsideAZeroFilledBlockTail() {
        log.write(bigString("a", BLOCK_SIZE - HEADER_SIZE - 3)).write("next");
        log.shrinkSize(HEADER_SIZE + 4 + 1);
        assertEquals(BLOCK_SIZE - 1, log.writtenBytes());
        assertEquals(bigString("a", BLOCK_SIZE - HEADER_SIZE - 3), log.read());
        assertEquals("EOF", log.read());
        assertNothingReported();
    }

    @Test
    void missingLastFragmentIsATornWrite() {
        log.write(bigString("bar", BLOCK_SIZE));
        log.shrinkSize(HEADER_SIZE + HEADER_SIZE);
        assertEquals(BLOCK_SIZE, log.writtenBytes());
        assertEquals("EOF", log.read());
        assertNothingReported();
    }

    @Test
    void preallocatedZerosAtTheEndAreSkippedSilently() {
        log.write("a").write("b");
        log.appendRaw(new byte[3 * BLOCK_SIZE + 100]);
        assertEquals("a", log.read());
        assertEquals("b", log.read());
        assertEquals("EOF", log.read());
        assertNothingReported();
    }

    @Test
    void preallocatedZerosThenMoreRecords() throws IOException {
        LogHarness first = new LogHarness();
        first.write("a");
        byte[] start = Arrays.copyOf(first.contents(), 3 * BLOCK_SIZE);
        ByteArrayWritableFile file = new ByteArrayWritableFile(start);
        try (LogWriter writer = new LogWriter(file, start.length)) {
            writer.addRecord(LogHarness.bytes("b"));
        }
        try (LogReader reader = new LogReader(new ByteArraySequentialFile(file.contents()), log.reporter)) {
            assertEquals("a", LogHarness.string(reader.readRecord()));
            assertEquals("b", LogHarness.string(reader.readRecord()));
            assertEquals(3 * BLOCK_SIZE, reader.lastRecordOffset());
            assertNull(reader.readRecord());
        }
        assertNothingReported();
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 5, 6, 101, 255})
    void unknownRecordType(int type) {
        log.write("foo").write("bar");
        log.setByte(6, type);
        log.fixChecksum(0, 3);
        assertEquals("bar", log.read());
        assertEquals("EOF", log.read());
        assertReports(new Report(0, 3, "unknown record type " + type));
    }

    @Test
    void unknownRecordTypeInsideAFragmentedRecord() {
        log.write("foo").write("bar").write("baz");
        log.setByte(6, FIRST_TYPE);
        log.fixChecksum(0, 3);
        log.setByte(10 + 6, 9);
        log.fixChecksum(10, 3);
        assertEquals("baz", log.read());
        assertEquals(20, log.reader().lastRecordOffset());
        assertEquals("EOF", log.read());
        assertReports(new Report(0, 6, "unknown record type 9"));
    }

    @ParameterizedTest
    @ValueSource(ints = {MIDDLE_TYPE, LAST_TYPE})
    void missingStart(int type) {
        log.write("foo").write("bar");
        log.setByte(6, type);
        log.fixChecksum(0, 3);
        assertEquals("bar", log.read());
        assertEquals("EOF", log.read());
        assertReports(new Report(0, 3, MISSING_START));
    }

    @Test
    void fullAfterFirstIsAPartialRecord() {
        log.write("foo").write("bar");
        log.setByte(6, FIRST_TYPE);
        log.fixChecksum(0, 3);
        assertEquals("bar", log.read());
        assertEquals(10, log.reader().lastRecordOffset());
        assertEquals("EOF", log.read());
        assertReports(new Report(0, 3, PARTIAL));
    }

    @Test
    void firstAfterFirstIsAPartialRecord() {
        log.write("foo").write("bar").write("baz");
        log.setByte(6, FIRST_TYPE);
        log.fixChecksum(0, 3);
        log.setByte(10 + 6, FIRST_TYPE);
        log.fixChecksum(10, 3);
        log.setByte(20 + 6, LAST_TYPE);
        log.fixChecksum(20, 3);
        assertEquals("barbaz", log.read());
        assertEquals(10, log.reader().lastRecordOffset());
        assertEquals("EOF", log.read());
        assertReports(new Report(0, 3, PARTIAL));
    }

    @Test
    void emptyFirstThenFullDropsNothing() {
        log.write("").write("bar");
        log.setByte(6, FIRST_TYPE);
        log.fixChecksum(0, 0);
        assertEquals("bar", log.read());
        assertEquals("EOF", log.read());
        assertNothingReported();
    }

    @Test
    void firstAtTheEndIsATornWrite() {
        log.write("foo");
        log.setByte(6, FIRST_TYPE);
        log.fixChecksum(0, 3);
        assertEquals("EOF", log.read());
        assertNothingReported();
    }

    @Test
    void fragmentsStoppingAtPreallocatedZerosToTheEndAreATornWrite() {
        // A memory-mapped writer killed between fragments: FIRST and MIDDLE written, the rest of
        // the file the zeros it was extended with.
        log.write("before").write(bigString("x", 3 * BLOCK_SIZE));
        for (int i = 3 * BLOCK_SIZE; i < log.writtenBytes(); i++) {
            log.setByte(i, 0);
        }
        log.appendRaw(new byte[BLOCK_SIZE]);
        assertEquals("before", log.read());
        assertEquals("EOF", log.read());
        assertNothingReported();
    }

    @Test
    void fragmentsStoppingAtZerosFollowedByARecordAreDamage() {
        writeFourBlockRecord();
        for (int i = 2 * BLOCK_SIZE; i < 3 * BLOCK_SIZE; i++) {
            log.setByte(i, 0);
        }
        assertEquals("next", log.read());
        assertEquals("EOF", log.read());
        assertReports(new Report(0, 2L * MAX_FRAGMENT_LENGTH, MIDDLE_ERROR),
                new Report(3 * BLOCK_SIZE, 21, MISSING_START));
    }

    /** A 3-block record at 0 (FIRST, MIDDLE, MIDDLE, LAST of 21 bytes), then "next". */
    private void writeFourBlockRecord() {
        log.write(bigString("x", 3 * BLOCK_SIZE)).write("next");
        assertEquals(3 * BLOCK_SIZE + HEADER_SIZE + 21 + HEADER_SIZE + 4, log.writtenBytes());
    }

    private void assertOnlyNextSurvives() {
        assertEquals("next", log.read());
        assertEquals(3 * BLOCK_SIZE + HEADER_SIZE + 21, log.reader().lastRecordOffset());
        assertEquals("EOF", log.read());
    }

    @Test
    void damagedMiddleFragmentDropsTheWholeRecord() {
        writeFourBlockRecord();
        log.incrementByte(BLOCK_SIZE + 100, 1);
        assertOnlyNextSurvives();
        assertReports(new Report(BLOCK_SIZE, BLOCK_SIZE, CHECKSUM),
                new Report(0, MAX_FRAGMENT_LENGTH, MIDDLE_ERROR),
                new Report(2 * BLOCK_SIZE, MAX_FRAGMENT_LENGTH, MISSING_START),
                new Report(3 * BLOCK_SIZE, 21, MISSING_START));
    }

    @Test
    void zeroedMiddleBlockDropsTheWholeRecord() {
        writeFourBlockRecord();
        for (int i = 0; i < BLOCK_SIZE; i++) {
            log.setByte(BLOCK_SIZE + i, 0);
        }
        assertOnlyNextSurvives();
        assertReports(new Report(0, MAX_FRAGMENT_LENGTH, MIDDLE_ERROR),
                new Report(2 * BLOCK_SIZE, MAX_FRAGMENT_LENGTH, MISSING_START),
                new Report(3 * BLOCK_SIZE, 21, MISSING_START));
    }

    @Test
    void reporterWithoutOffsetsGetsTheSameReports() throws IOException {
        writeTwoBlocks();
        log.incrementByte(11 + HEADER_SIZE, 1);
        List<String> got = new ArrayList<>();
        LogReader.Reporter reporter = (bytes, reason) -> got.add(bytes + " " + reason);
        try (LogReader reader = new LogReader(new ByteArraySequentialFile(log.contents()), reporter)) {
            while (reader.readRecord() != null) {
                assertTrue(got.size() <= 1);
            }
        }
        assertEquals(List.of((BLOCK_SIZE - 11) + " " + CHECKSUM), got);
    }

    @Test
    void randomDamageIsReportedNeverThrown(Random random) throws IOException {
        for (int round = 0; round < 200; round++) {
            LogHarness damaged = new LogHarness();
            int records = 1 + random.nextInt(30);
            for (int i = 0; i < records; i++) {
                int size = random.nextInt(3) == 0 ? random.nextInt(3 * BLOCK_SIZE) : random.nextInt(100);
                damaged.write(bigString("r" + i + "-", size));
            }
            int length = (int) damaged.writtenBytes();
            for (int edits = random.nextInt(8); edits > 0; edits--) {
                damaged.setByte(random.nextInt(length), random.nextInt(256));
            }
            if (random.nextBoolean()) {
                damaged.shrinkSize(random.nextInt(length));
            }
            byte[] bytes = damaged.contents();
            long initialOffset = random.nextBoolean() ? 0 : random.nextInt(bytes.length + 10);
            RecordingReporter reporter = new RecordingReporter();
            try (LogReader reader = new LogReader(new ByteArraySequentialFile(bytes), reporter,
                    random.nextInt(4) != 0, initialOffset)) {
                long previous = -1;
                for (int n = 0; n <= bytes.length / HEADER_SIZE + 1; n++) {
                    ByteBuffer record = reader.readRecord();
                    if (record == null) {
                        break;
                    }
                    String where = "round " + round;
                    assertTrue(reader.lastRecordOffset() > previous, where);
                    assertTrue(reader.lastRecordOffset() >= initialOffset, where);
                    assertTrue(reader.lastRecordOffset() + HEADER_SIZE + record.remaining() <= bytes.length, where);
                    previous = reader.lastRecordOffset();
                }
                assertNull(reader.readRecord(), "the reader ends, round " + round);
            }
            for (Report r : reporter.reports) {
                String where = r + ", round " + round;
                assertTrue(r.offset() >= initialOffset && r.bytes() >= 0, where);
                assertTrue(r.offset() + r.bytes() <= bytes.length, where);
            }
        }
    }
}
