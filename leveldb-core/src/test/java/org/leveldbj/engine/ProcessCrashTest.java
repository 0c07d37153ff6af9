package org.leveldbj.engine;

import org.leveldbj.db.LevelDbFactory;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.DBIterator;
import org.iq80.leveldb.Options;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.leveldbj.env.FileSystemEnv;
import org.leveldbj.log.LogFormat;
import org.leveldbj.log.LogReader;
import org.leveldbj.util.LockOrder;

/**
 * A killed process loses no acknowledged write, synced or not: every write reached the
 * operating system before it returned. The writer is a child JVM ({@link KilledWriterMain}) that
 * halts without closing the database, leaving its log as it was mid-write (with a memory-mapped
 * log, a zero-filled preallocated tail), several times over the same database.
 */
class ProcessCrashTest {
    private static final long TIMEOUT_SECONDS = 60;

    @TempDir
    Path dir;

    @Test
    void killedWriterLosesNoAcknowledgedWrite() throws Exception {
        int[] rounds = {0, 3_000, 20_000, 20_500};
        for (int r = 0; r + 1 < rounds.length; r++) {
            runChild(rounds[r], rounds[r + 1]);
            assertTrue(hasLogWithZeroTailOrNone(), "log files: " + logs());
            try (DB db = LevelDbFactory.factory.open(dir.toFile(), new Options().paranoidChecks(true))) {
                int n = 0;
                try (DBIterator it = db.iterator()) {
                    for (it.seekToFirst(); it.hasNext(); n++) {
                        var e = it.next();
                        assertArrayEquals(KilledWriterMain.key(n), e.getKey(), "key " + n);
                        assertArrayEquals(KilledWriterMain.value(n), e.getValue(), "value " + n);
                    }
                }
                assertEquals(rounds[r + 1], n, "entries after round " + r);
            }
        }
    }

    /**
     * A process killed while copying a record into its memory-mapped log leaves the record's
     * header, part of its payload and the preallocated zeros: a torn last write, which even a
     * paranoid open drops without calling it damage.
     */
    @Test
    void recordTornInsideThePreallocatedLogIsATornWrite() throws Exception {
        runChild(0, 3_000);
        List<Path> logs = logs();
        Path log = logs.get(logs.size() - 1);
        long lastStart = -1;
        long lastEnd = -1;
        try (LogReader reader = new LogReader(FileSystemEnv.getDefault().newSequentialFile(log), null)) {
            while (reader.readRecord() != null) {
                lastStart = reader.lastRecordOffset();
                lastEnd = reader.lastRecordEnd();
            }
        }
        assertTrue(lastStart >= 0 && lastEnd - lastStart > LogFormat.HEADER_SIZE + 2, "last record " + lastStart + ".." + lastEnd);
        byte[] bytes = Files.readAllBytes(log);
        Arrays.fill(bytes, (int) (lastStart + LogFormat.HEADER_SIZE + 2), (int) lastEnd, (byte) 0);
        if (bytes.length == lastEnd) {
            // Not a mapped log: give it the zero tail a mapped one has.
            bytes = Arrays.copyOf(bytes, bytes.length + 64 * 1024);
        }
        Files.write(log, bytes);
        try (DB db = LevelDbFactory.factory.open(dir.toFile(), new Options().paranoidChecks(true))) {
            assertArrayEquals(KilledWriterMain.value(2_998), db.get(KilledWriterMain.key(2_998)));
            assertNull(db.get(KilledWriterMain.key(2_999)), "the torn write");
        }
    }

    private void runChild(int from, int to) throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process child = new ProcessBuilder(java.toString(), "-cp", System.getProperty("java.class.path"),
                "-Dleveldbj.lockOrderCheck=" + LockOrder.ENABLED,
                KilledWriterMain.class.getName(), dir.toString(), Integer.toString(from), Integer.toString(to))
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertTrue(child.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS), "child did not finish");
        assertEquals(0, child.exitValue());
        assertEquals("written", out);
    }

    /**
     * With memory-mapped logs, the killed writer leaves its newest log with a zero-filled
     * preallocated tail, which recovery must read as such (even with paranoid checks).
     */
    private boolean hasLogWithZeroTailOrNone() throws IOException {
        List<Path> logs = logs();
        if (logs.isEmpty() || !FileSystemEnv.getDefault().mapsLogs()) {
            return true;
        }
        byte[] bytes = Files.readAllBytes(logs.get(logs.size() - 1));
        return bytes.length > 0 && bytes[bytes.length - 1] == 0;
    }

    private List<Path> logs() throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.getFileName().toString().endsWith(".log")).sorted().toList();
        }
    }
}
