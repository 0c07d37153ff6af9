package org.leveldbj.stress;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.Options;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.leveldbj.db.LevelDbFactory;

/**
 * A regression test for an engine bug the crash test found after a plain SIGKILL: a process killed
 * while appending a log record that spans blocks (a write of more than the rest of a 32 KiB
 * block, such as a 100 KiB value) leaves the record's FIRST and MIDDLE fragments followed by the
 * log's zero-filled preallocated tail. Recovery with paranoid checks then refuses to open the
 * database ("error in middle of record"), although the write was never acknowledged and a
 * record cut short at the end of the log is what a writer dying between fragments leaves (C++
 * LevelDB drops such a record without reporting corruption).
 *
 * <p>The test copies the directory of an open database (its log holds a small write and then a
 * large one) and, in the copy, zeroes the large record from its LAST fragment on, as the kill
 * left it. Before the fix the paranoid open failed.
 */
class UnfinishedLogRecordTest {
    private static final int BLOCK = 32 * 1024;
    private static final int LAST = 4;

    @TempDir
    Path dir;

    @Test
    void recordCutBetweenFragmentsIsATruncatedTail() throws IOException {
        Path db = dir.resolve("db");
        Path copy = Files.createDirectories(dir.resolve("copy"));
        byte[] small = "small".getBytes(StandardCharsets.US_ASCII);
        try (DB d = LevelDbFactory.factory.open(db.toFile(), new Options())) {
            d.put(bytes("a"), small);
            d.put(bytes("b"), new byte[100 * 1024]);
            try (DirectoryStream<Path> files = Files.newDirectoryStream(db)) {
                for (Path f : files) {
                    Files.copy(f, copy.resolve(f.getFileName()));
                }
            }
        }
        Path log;
        try (DirectoryStream<Path> logs = Files.newDirectoryStream(copy, "*.log")) {
            log = logs.iterator().next();
        }
        byte[] bytes = Files.readAllBytes(log);
        int last = lastFragmentOffset(bytes);
        assertTrue(last > BLOCK, "the large record spans blocks");
        Arrays.fill(bytes, last, bytes.length, (byte) 0);
        Files.write(log, bytes);

        try (DB d = LevelDbFactory.factory.open(copy.toFile(), new Options().paranoidChecks(true))) {
            assertArrayEquals(small, d.get(bytes("a")));
            assertNull(d.get(bytes("b")), "the unfinished write is dropped");
        }
    }

    /** The offset of the last LAST fragment of a log (header: crc, length, type). */
    private static int lastFragmentOffset(byte[] log) {
        ByteBuffer b = ByteBuffer.wrap(log).order(ByteOrder.LITTLE_ENDIAN);
        int found = -1;
        int offset = 0;
        while (offset + 7 <= log.length) {
            int left = BLOCK - offset % BLOCK;
            if (left < 7) {
                offset += left;
                continue;
            }
            int length = Short.toUnsignedInt(b.getShort(offset + 4));
            int type = log[offset + 6];
            if (type == 0 && length == 0) {
                break;
            }
            if (type == LAST) {
                found = offset;
            }
            offset += 7 + length;
        }
        return found;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
