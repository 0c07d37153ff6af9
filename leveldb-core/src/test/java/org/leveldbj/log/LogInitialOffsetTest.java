package org.leveldbj.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.leveldbj.log.LogFormat.BLOCK_SIZE;
import static org.leveldbj.log.LogFormat.HEADER_SIZE;
import static org.leveldbj.log.LogHarness.bigString;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.leveldbj.log.RecordingReporter.Report;

/**
 * A reader given an initial offset returns exactly the records that start at or after it, and
 * reports nothing about what lies before.
 */
class LogInitialOffsetTest {
    /**
     * Record sizes: two in block 0, one spanning into block 2, a tiny one, one ending 2 bytes
     * short of block 3's end (a zero-filled tail), one filling block 4 exactly.
     */
    private static final int[] SIZES = {10_000, 10_000, 2 * BLOCK_SIZE - 1000, 1, 13_716, BLOCK_SIZE - HEADER_SIZE};

    private final List<Long> starts = new ArrayList<>();
    private final byte[] file;

    LogInitialOffsetTest() {
        LogHarness log = new LogHarness();
        for (int i = 0; i < SIZES.length; i++) {
            starts.add(log.nextRecordOffset());
            log.write(bigString(String.valueOf((char) ('a' + i)), SIZES[i]));
        }
        file = log.contents();
    }

    /** Reads from {@code initialOffset} and checks it yields records {@code first..} and no report. */
    private void check(long initialOffset, int first) throws IOException {
        RecordingReporter reporter = new RecordingReporter();
        ByteArraySequentialFile source = new ByteArraySequentialFile(file);
        try (LogReader reader = new LogReader(source, reporter, true, initialOffset)) {
            for (int i = first; i < SIZES.length; i++) {
                ByteBuffer record = reader.readRecord();
                String where = "initial offset " + initialOffset + ", record " + i;
                assertEquals(SIZES[i], record == null ? -1 : record.remaining(), where);
                assertEquals((byte) ('a' + i), record.get(0), where);
                assertEquals(starts.get(i), reader.lastRecordOffset(), where);
            }
            assertNull(reader.readRecord(), "initial offset " + initialOffset);
        }
        assertEquals(List.of(), reporter.reports, "initial offset " + initialOffset);
    }

    @Test
    void layout() {
        assertEquals(List.of(0L, 10_007L, 20_014L, 20_014L + 2 * BLOCK_SIZE - 1000 + 3 * HEADER_SIZE,
                20_014L + 2 * BLOCK_SIZE - 1000 + 4 * HEADER_SIZE + 1, 3L * BLOCK_SIZE), starts);
        assertEquals(4 * BLOCK_SIZE, file.length);
    }

    @Test
    void namedOffsets() throws IOException {
        check(0, 0);
        check(1, 1);
        check(10_000, 1);
        check(10_007, 1);
        check(10_008, 2);
        check(20_014, 2);
        check(20_015, 3);                  // record 2 began earlier: its fragments are skipped unreported
        check(BLOCK_SIZE - 4, 3);          // in block 0's tail
        check(BLOCK_SIZE, 3);              // a block boundary inside a spanning record
        check(BLOCK_SIZE + 1, 3);          // inside a MIDDLE fragment
        check(2 * BLOCK_SIZE + 1, 3);      // inside the LAST fragment
        check(starts.get(3), 3);
        check(3 * BLOCK_SIZE - 3, 5);      // in block 2's zero-filled tail
        check(3 * BLOCK_SIZE, 5);
        check(3 * BLOCK_SIZE + 1, 6);      // past the last record's start: nothing
    }

    @Test
    void atAndPastTheEnd() throws IOException {
        check(file.length, SIZES.length);
        check(file.length + 5, SIZES.length);
        check(10L * BLOCK_SIZE + 17, SIZES.length);
    }

    @Test
    void everyInterestingOffset() throws IOException {
        TreeSet<Long> offsets = new TreeSet<>();
        for (long s : starts) {
            for (long d = -HEADER_SIZE - 1; d <= HEADER_SIZE + 1; d++) {
                offsets.add(s + d);
            }
        }
        for (long block = 0; block <= 4; block++) {
            for (long d = -HEADER_SIZE - 1; d <= HEADER_SIZE + 1; d++) {
                offsets.add(block * BLOCK_SIZE + d);
            }
        }
        for (long offset : offsets) {
            if (offset < 0) {
                continue;
            }
            int first = 0;
            while (first < SIZES.length && starts.get(first) < offset) {
                first++;
            }
            check(offset, first);
        }
    }

    @Test
    void skipsWholeBlocksBeforeTheInitialBlock() throws IOException {
        ByteArraySequentialFile source = new ByteArraySequentialFile(file);
        try (LogReader reader = new LogReader(source, null, true, 2 * BLOCK_SIZE + 100)) {
            reader.readRecord();
        }
        assertEquals(2 * BLOCK_SIZE, source.skipped);
    }

    @Test
    void damageBeforeTheInitialOffsetIsNotReported() throws IOException {
        LogHarness log = new LogHarness();
        log.write("aaaa").write("bbbbbb").write("cc");
        log.incrementByte(HEADER_SIZE + 1, 1);
        log.startReadingAt(11);
        // The damaged record at 0 lies before the initial offset; its block is dropped unreported.
        assertEquals("EOF", log.read());
        assertEquals(List.of(), log.reporter.reports);
    }

    @Test
    void damageAfterTheInitialOffsetIsReported() throws IOException {
        LogHarness log = new LogHarness();
        log.write("aaaa").write("bbbbbb").write("cc");
        log.incrementByte(11 + HEADER_SIZE + 1, 1);
        log.startReadingAt(5);
        assertEquals("EOF", log.read());
        assertEquals(List.of(new Report(11, 24 + HEADER_SIZE + 2 - 11, "checksum mismatch")), log.reporter.reports);
    }
}
