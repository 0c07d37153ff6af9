package org.leveldbj.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Set;
import org.junit.jupiter.api.extension.ExtendWith;
import org.leveldbj.log.LogReader;
import org.leveldbj.testing.MemEnv;

/**
 * Fuzzes {@link LogReader} on a damaged log. The reader documents that damage never raises an
 * exception: it is reported to the {@link LogReader.Reporter} with one of six reasons and the
 * reader resynchronises. So nothing may escape, every report must use a documented reason and
 * lie inside the file at or after the initial offset, and every record returned must start at
 * or after the initial offset and fit in the file.
 *
 * <p>Input: byte 0 bit 0 set = verify checksums; bytes 1-2 = the initial offset (little-endian,
 * 0 to 65535, which covers two 32 KiB blocks); the rest is the log file.
 */
@ExtendWith(FuzzEnvironment.class)
class LogReaderFuzzTest {
    static final int HEADER = 3;

    private static final Set<String> REASONS = Set.of("checksum mismatch", "bad record length",
            "missing start of fragmented record", "partial record without end", "error in middle of record");

    @FuzzTest(maxDuration = "30s")
    void read(byte[] input) throws IOException {
        boolean checksum = (FuzzFiles.u8(input, 0) & 1) != 0;
        long initialOffset = FuzzFiles.u16(input, 1);
        int from = Math.min(HEADER, input.length);
        long size = input.length - from;
        MemEnv env = FuzzFiles.envWith("000003.log", input, from, input.length);
        LogReader.Reporter reporter = new LogReader.Reporter() {
            @Override
            public void corruption(long bytes, String reason) {
                throw new AssertionError("the three-argument report is the one called");
            }

            @Override
            public void corruption(long offset, long bytes, String reason) {
                assertTrue(REASONS.contains(reason) || reason.matches("unknown record type \\d+"),
                        () -> "undocumented reason: " + reason);
                assertTrue(offset >= initialOffset && offset < size,
                        () -> "report at " + offset + " outside [" + initialOffset + ", " + size + ")");
                assertTrue(bytes >= 0 && bytes <= size, () -> reason + ": " + bytes + " bytes dropped of " + size);
            }
        };
        try (LogReader reader = new LogReader(env.newSequentialFile(FuzzFiles.DIR.resolve("000003.log")),
                reporter, checksum, initialOffset)) {
            long total = 0;
            ByteBuffer record;
            while ((record = reader.readRecord()) != null) {
                assertEquals(0, record.position());
                total += record.remaining();
                assertTrue(total <= size, "records hold more bytes than the file");
                long start = reader.lastRecordOffset();
                long end = reader.lastRecordEnd();
                assertTrue(start >= initialOffset && start < end && end <= size,
                        () -> "record at [" + start + ", " + end + ") of a " + size + "-byte file");
                assertTrue(reader.lastRecordFragments() >= 1);
            }
        }
    }
}
