package org.leveldbj.env;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.leveldbj.util.NativeAccess;

/**
 * Value files reserve disk space past their end ({@link FileSpace}): the length a reader sees is
 * the bytes written, the space is allocated ahead of the writes, and close gives back what was
 * not written. That needs Linux, JNA and, from JDK 24 on, native access for JNA; where the
 * JVM does not reserve (the JDK 25 run of the build enables no native access) the same tests
 * check that nothing is reserved and the files come out the same.
 */
class FileSpaceTest {
    private static final boolean LINUX = System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("linux");
    /** Whether this JVM reserves space; the tests check what that implies. */
    private static final boolean EXPECTED = FileSpace.AVAILABLE;

    @TempDir
    Path dir;

    @Test
    void spaceIsReservedOnLinuxWhereJnaMayLoad() {
        if (LINUX && Runtime.version().feature() < NativeAccess.WARNING_RELEASE) {
            assertTrue(FileSpace.AVAILABLE, "JNA is a dependency: on Linux before JDK 24 it must load");
        }
        if (FileSpace.AVAILABLE) {
            // Asked when the class was initialized; in a JVM shared with other tests, a library
            // loaded since may have made the JDK enable native access after its warning.
            assertTrue(LINUX, "reserving space only on Linux");
        }
        assertEquals(FileSpace.AVAILABLE, new FileSystemEnv().reservesSpace());
    }

    /** The blocks allocated to a file, in bytes ({@code stat}'s 512-byte blocks); -1 off Linux. */
    private static long allocated(Path file) throws IOException, InterruptedException {
        if (!LINUX) {
            return -1;
        }
        Process p = new ProcessBuilder("stat", "-c", "%b", file.toString()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim();
        assertEquals(0, p.waitFor(), out);
        return Long.parseLong(out) * 512;
    }

    private static FileSystemWritableFile reserving(Path file) throws IOException {
        return new FileSystemWritableFile(file, FileChannel.open(file, StandardOpenOption.CREATE_NEW,
                StandardOpenOption.WRITE), true);
    }

    @Test
    void theLengthIsTheBytesWrittenWhileSpaceIsReservedAheadAndCloseReleasesTheRest() throws Exception {
        Path file = dir.resolve("000001.vlog");
        byte[] data = new byte[(int) FileSystemWritableFile.RESERVE_CHUNK + 300_000];
        new Random(11).nextBytes(data);
        try (FileSystemWritableFile f = reserving(file)) {
            f.append(data, 0, 100_000);
            f.flush();
            assertEquals(100_000, Files.size(file), "the length is what was written");
            assertEquals(EXPECTED, allocated(file) >= FileSystemWritableFile.RESERVE_CHUNK,
                    "a chunk is reserved ahead: " + allocated(file) + " bytes allocated");
            // Small appends and one that reaches past the first chunk.
            for (int at = 100_000; at < data.length; ) {
                int n = Math.min(data.length - at, at < 1_000_000 ? 7 + at % 5000 : 2_000_000);
                f.append(ByteBuffer.wrap(data, at, n));
                at += n;
            }
            f.sync();
            assertEquals(data.length, Files.size(file));
            assertEquals(EXPECTED, allocated(file) >= 2 * FileSystemWritableFile.RESERVE_CHUNK,
                    "the next chunk is reserved");
        }
        assertArrayEquals(data, Files.readAllBytes(file));
        assertTrue(allocated(file) < data.length + (64 << 10),
                "close released the space past the end: " + allocated(file) + " bytes allocated for " + data.length);
    }

    @Test
    void reserveAndReleaseNameTheFileWhenTheyFail() {
        Path missing = dir.resolve("missing.vlog");
        IOException e = assertThrows(IOException.class, () -> FileSpace.reserve(missing, 0, 4096));
        assertTrue(e.getMessage().contains(missing.toString())
                && e.getMessage().contains(EXPECTED ? "open failed (errno " : "cannot reserve"), e.getMessage());
        e = assertThrows(IOException.class, () -> FileSpace.release(missing, 0));
        assertTrue(e.getMessage().contains(missing.toString()), e.getMessage());
    }

    @Test
    void theEnvironmentReservesForValueFilesOnly() throws Exception {
        FileSystemEnv env = new FileSystemEnv();
        Path value = dir.resolve("000002.vlog");
        Path table = dir.resolve("000003.ldb");
        try (var v = env.newWritableFile(value); var t = env.newWritableFile(table)) {
            v.append(new byte[10], 0, 10);
            t.append(new byte[10], 0, 10);
            v.flush();
            t.flush();
            assertEquals(EXPECTED, allocated(value) >= FileSystemWritableFile.RESERVE_CHUNK, "a value file reserves");
            assertTrue(allocated(table) < FileSystemWritableFile.RESERVE_CHUNK, "a table does not");
        }
        assertEquals(10, Files.size(value));
    }

    @Test
    void withoutReservingTheEnvironmentWritesAsBefore() throws Exception {
        String old = System.setProperty(FileSystemEnv.RESERVE_PROPERTY, "false");
        try {
            FileSystemEnv env = new FileSystemEnv();
            assertFalse(env.reservesSpace());
            Path value = dir.resolve("000004.vlog");
            try (var v = env.newWritableFile(value)) {
                v.append(new byte[10], 0, 10);
                v.flush();
                assertTrue(allocated(value) < FileSystemWritableFile.RESERVE_CHUNK);
            }
            assertEquals(10, Files.size(value));
        } finally {
            if (old == null) {
                System.clearProperty(FileSystemEnv.RESERVE_PROPERTY);
            } else {
                System.setProperty(FileSystemEnv.RESERVE_PROPERTY, old);
            }
        }
    }
}
