package org.leveldbj.db;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.DBIterator;
import org.iq80.leveldb.Options;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.leveldbj.env.FileSystemEnv;

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

    private void runChild(int from, int to) throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process child = new ProcessBuilder(java.toString(), "-cp", System.getProperty("java.class.path"),
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
