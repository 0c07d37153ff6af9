package org.leveldbj.env;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.iq80.leveldb.Env;
import org.junit.jupiter.api.Test;
import org.leveldbj.testing.EnvContractTest;
import org.leveldbj.testing.Seed;
import org.leveldbj.util.ProcMaps;

/** {@link FileSystemEnv} with memory mapping: the contract plus mapping, unmapping and locking. */
class FileSystemEnvTest extends EnvContractTest {
    private static final int TIMEOUT_SECONDS = 60;

    @Override
    protected Env createEnv() {
        return new FileSystemEnv(FileSystemEnv.DEFAULT_MMAP_LIMIT);
    }

    private FileSystemEnv fsEnv() {
        return (FileSystemEnv) env;
    }

    private Path newFile(String name, int size) throws IOException {
        Path file = dir.resolve(name);
        write(file, randomBytes(new Random(size), size));
        return file;
    }

    @Test
    void nonEmptyFilesAreMapped() throws IOException {
        Path file = newFile("000001.ldb", 10_000);
        Env.RandomAccessFile random = closeLater(env.newRandomAccessFile(file));
        assertTrue(random.isMapped());
        assertEquals(FileSystemEnv.DEFAULT_MMAP_LIMIT - 1, fsEnv().availableMappings());
        random.close();
        assertEquals(FileSystemEnv.DEFAULT_MMAP_LIMIT, fsEnv().availableMappings());
    }

    @Test
    void emptyFilesAreNotMappedAndTakeNoPermit() throws IOException {
        Path file = newFile("empty", 0);
        Env.RandomAccessFile random = closeLater(env.newRandomAccessFile(file));
        assertFalse(random.isMapped());
        assertEquals(FileSystemEnv.DEFAULT_MMAP_LIMIT, fsEnv().availableMappings());
    }

    @Test
    void mappedFilesUnmapDeterministicallyOnThisJvm() {
        assertTrue(fsEnv().unmapsOnClose(), "no way to unmap on close was found: " + env);
    }

    @Test
    void mappingCapFallsBackToPositionalReads() throws IOException {
        int cap = 3;
        FileSystemEnv capped = new FileSystemEnv(cap);
        assertEquals(cap, capped.maxMappings());
        List<Path> files = new ArrayList<>();
        List<Env.RandomAccessFile> open = new ArrayList<>();
        for (int i = 0; i < cap + 2; i++) {
            Path file = newFile("00000" + i + ".ldb", 1000 + i);
            files.add(file);
            open.add(closeLater(capped.newRandomAccessFile(file)));
        }
        for (int i = 0; i < open.size(); i++) {
            assertEquals(i < cap, open.get(i).isMapped(), "file " + i);
            byte[] expected = randomBytes(new Random(1000 + i), 1000 + i);
            assertArrayEquals(expected, toArray(open.get(i).read(0, expected.length)), "file " + i);
        }
        assertEquals(0, capped.availableMappings());

        open.get(0).close();
        open.get(0).close();
        assertEquals(1, capped.availableMappings(), "a second close returns no second permit");
        open.get(cap).close();
        assertEquals(1, capped.availableMappings(), "closing a positional file returns no permit");
        Env.RandomAccessFile reopened = closeLater(capped.newRandomAccessFile(files.get(0)));
        assertTrue(reopened.isMapped());
        assertEquals(0, capped.availableMappings());

        for (Env.RandomAccessFile file : open) {
            file.close();
        }
        reopened.close();
        assertEquals(cap, capped.availableMappings());
    }

    @Test
    void closeUnmapsTheFile() throws IOException {
        assumeTrue(ProcMaps.available(), "needs /proc/self/maps");
        assumeTrue(fsEnv().unmapsOnClose());
        Path file = newFile("000042.ldb", 64 * 1024);
        Env.RandomAccessFile random = env.newRandomAccessFile(file);
        assertTrue(random.isMapped());
        assertEquals(1, ProcMaps.count(file));
        assertEquals(10, random.read(100, 10).remaining());

        random.close();
        assertEquals(0, ProcMaps.count(file), "the mapping outlived close()");
        env.deleteFile(file);
        assertFalse(Files.exists(file));
    }

    @Test
    void aRefusedMappingFallsBackToPositionalReadsAndReturnsThePermit() throws IOException {
        FileSystemEnv.FileMapper refusing = (scope, channel, position, size) -> {
            throw new IOException("Map failed");
        };
        FileSystemEnv refused = new FileSystemEnv(2, refusing);
        Path file = newFile("000008.ldb", 3000);
        Env.RandomAccessFile random = closeLater(refused.newRandomAccessFile(file));
        assertFalse(random.isMapped());
        assertEquals(2, refused.availableMappings());
        assertArrayEquals(randomBytes(new Random(3000), 3000), toArray(random.read(0, 3000)));
    }

    @Test
    void mappingIsConfiguredBySystemProperties() {
        assertEquals(1000, FileSystemEnv.mappingLimit(null, null, true));
        assertEquals(0, FileSystemEnv.mappingLimit(null, null, false));
        assertEquals(0, FileSystemEnv.mappingLimit("false", null, true));
        assertEquals(0, FileSystemEnv.mappingLimit(" FALSE ", "50", true));
        assertEquals(50, FileSystemEnv.mappingLimit("true", "50", true));
        assertEquals(7, FileSystemEnv.mappingLimit(null, "7", false));
        assertEquals(0, FileSystemEnv.mappingLimit(null, "0", true));
        assertEquals(1000, FileSystemEnv.mappingLimit("maybe", "lots", true), "bad values are ignored");
        assertEquals(1000, FileSystemEnv.mappingLimit(null, "-1", true));

        String old = System.getProperty(FileSystemEnv.MMAP_PROPERTY);
        System.setProperty(FileSystemEnv.MMAP_PROPERTY, "false");
        try {
            assertEquals(0, new FileSystemEnv().maxMappings());
        } finally {
            if (old == null) {
                System.clearProperty(FileSystemEnv.MMAP_PROPERTY);
            } else {
                System.setProperty(FileSystemEnv.MMAP_PROPERTY, old);
            }
        }
        assertThrows(IllegalArgumentException.class, () -> new FileSystemEnv(-1));
    }

    @Test
    void defaultEnvironmentIsShared() {
        assertNotNull(FileSystemEnv.getDefault());
        assertTrue(FileSystemEnv.getDefault() == FileSystemEnv.getDefault());
    }

    @Test
    void lockIsHeldAcrossEnvironmentsOfThisJvm() throws IOException {
        Path lockFile = dir.resolve("LOCK");
        closeLater(env.lockFile(lockFile));
        IOException e = assertThrows(IOException.class, () -> new FileSystemEnv(0).lockFile(lockFile));
        assertEquals("lock " + lockFile + ": already held by process", e.getMessage());
    }

    @Test
    void writesLargerThanTheBufferKeepTheirOrder(@Seed long seed) throws IOException {
        Path file = dir.resolve("f");
        Env.WritableFile writable = env.newWritableFile(file);
        byte[] content = randomBytes(new Random(seed), 3 * FileSystemWritableFile.BUFFER_SIZE + 5);
        int[] sizes = {1, FileSystemWritableFile.BUFFER_SIZE - 2, 2, FileSystemWritableFile.BUFFER_SIZE,
            FileSystemWritableFile.BUFFER_SIZE + 1, 1};
        int at = 0;
        for (int size : sizes) {
            writable.append(content, at, size);
            at += size;
        }
        writable.append(content, at, content.length - at);
        writable.close();
        assertArrayEquals(content, Files.readAllBytes(file));
    }

    // ----- Locks held by another process

    /** A child JVM running {@link LockHolderMain} on a file. */
    private static final class LockHolder implements AutoCloseable {
        private final Process process;
        private final String status;

        LockHolder(Path file) throws Exception {
            Path java = Path.of(System.getProperty("java.home"), "bin", "java");
            Path classes = Path.of(LockHolderMain.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            process = new ProcessBuilder(java.toString(), "-cp", classes.toString(),
                    LockHolderMain.class.getName(), file.toString())
                    .redirectError(ProcessBuilder.Redirect.INHERIT)
                    .start();
            BufferedReader output = new BufferedReader(
                    new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            status = CompletableFuture.supplyAsync(() -> {
                try {
                    return output.readLine();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }

        @Override
        public void close() throws IOException {
            process.getOutputStream().close();
            try {
                if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                    process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
    }

    @Test
    void lockHeldByAnotherProcessIsRefused() throws Exception {
        Path lockFile = dir.resolve("LOCK");
        LockHolder holder = new LockHolder(lockFile);
        try {
            assertEquals("locked", holder.status);
            IOException e = assertThrows(IOException.class, () -> env.lockFile(lockFile));
            assertEquals("lock " + lockFile + ": already held by process", e.getMessage());
            // The failed attempt must not leave the path marked as held in this JVM.
            assertThrows(IOException.class, () -> env.lockFile(lockFile));
        } finally {
            holder.close();
        }
        closeLater(env.lockFile(lockFile));
    }

    @Test
    void lockHeldHereIsSeenByAnotherProcess() throws Exception {
        Path lockFile = dir.resolve("LOCK");
        Env.FileLock lock = env.lockFile(lockFile);
        try (LockHolder holder = new LockHolder(lockFile)) {
            assertEquals("busy", holder.status);
        }
        lock.close();
        try (LockHolder holder = new LockHolder(lockFile)) {
            assertEquals("locked", holder.status);
        }
    }

    @Test
    void readsOfAMappedFileReturnViewsOfTheMapping() throws IOException {
        Path file = newFile("000003.ldb", 5000);
        Env.RandomAccessFile random = closeLater(env.newRandomAccessFile(file));
        ByteBuffer read = random.read(10, 100);
        assertTrue(read.isDirect(), "a slice of the mapping, not a copy");
        assertTrue(read.isReadOnly());
    }
}
