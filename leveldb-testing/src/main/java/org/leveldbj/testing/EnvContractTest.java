package org.leveldbj.testing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ReadOnlyBufferException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.iq80.leveldb.Env;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;
import org.leveldbj.testing.Seed;
import org.leveldbj.testing.SeedExtension;

/**
 * The rules every {@link Env} keeps, checked against one implementation per subclass: the
 * contract the engine relies on, as {@code org.leveldbj.env}'s package overview states it. A
 * subclass supplies the environment; the tests work in a fresh directory {@link #dir} of it.
 * Applications that write their own {@link Env} (an encrypting or remote one) extend this class
 * to check theirs.
 *
 * <p>Random inputs come from {@link SeedExtension}: a failure reports its seed, and
 * {@code -Dleveldbj.seed=N} replays it.
 */
@ExtendWith(SeedExtension.class)
public abstract class EnvContractTest {
    /** JUnit's temporary directory, under which {@link #dir} is made. */
    @TempDir
    protected Path tempDir;

    /** The environment under test. */
    protected Env env;
    /** An empty directory of {@link #env} for the test to work in. */
    protected Path dir;

    private final List<Closeable> toClose = new ArrayList<>();

    /**
     * Creates the environment under test.
     *
     * @return a new environment
     */
    protected abstract Env createEnv();

    @BeforeEach
    public void createDirectory() throws IOException {
        env = createEnv();
        dir = tempDir.resolve("db");
        env.createDir(dir);
    }

    @AfterEach
    public void closeHandles() throws IOException {
        for (Closeable closeable : toClose) {
            closeable.close();
        }
    }

    /** Closes {@code handle} after the test, whatever happens. */
    protected <T extends Closeable> T closeLater(T handle) {
        toClose.add(handle);
        return handle;
    }

    protected static byte[] randomBytes(Random random, int n) {
        byte[] bytes = new byte[n];
        random.nextBytes(bytes);
        return bytes;
    }

    protected static byte[] toArray(ByteBuffer buffer) {
        byte[] bytes = new byte[buffer.remaining()];
        buffer.duplicate().get(bytes);
        return bytes;
    }

    protected void write(Path file, byte[] content) throws IOException {
        Env.WritableFile writable = env.newWritableFile(file);
        writable.append(ByteBuffer.wrap(content));
        writable.close();
    }

    protected byte[] readSequentially(Path file, int chunk) throws IOException {
        Env.SequentialFile sequential = env.newSequentialFile(file);
        try {
            ByteBuffer all = ByteBuffer.allocate(Math.toIntExact(env.getFileSize(file)) + chunk);
            ByteBuffer buffer = ByteBuffer.allocate(chunk);
            while (true) {
                buffer.clear();
                int n = sequential.read(buffer);
                if (n == 0) {
                    break;
                }
                assertEquals(n, buffer.position());
                buffer.flip();
                all.put(buffer);
            }
            all.flip();
            return toArray(all);
        } finally {
            sequential.close();
        }
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    // ----- Writing and reading back

    @Test
    public void writeThenReadSequentially() throws IOException {
        Path file = dir.resolve("000001.log");
        write(file, utf8("hello, world"));
        assertArrayEquals(utf8("hello, world"), readSequentially(file, 5));
        assertEquals(12, env.getFileSize(file));
    }

    @Test
    public void emptyFile() throws IOException {
        Path file = dir.resolve("empty");
        env.newWritableFile(file).close();
        assertTrue(env.fileExists(file));
        assertEquals(0, env.getFileSize(file));

        Env.SequentialFile sequential = closeLater(env.newSequentialFile(file));
        assertEquals(0, sequential.read(ByteBuffer.allocate(10)));
        sequential.skip(5);
        assertEquals(0, sequential.read(ByteBuffer.allocate(10)));

        Env.RandomAccessFile random = closeLater(env.newRandomAccessFile(file));
        assertEquals(0, random.size());
        assertEquals(0, random.read(0, 10).remaining());
        assertEquals(0, random.read(3, 0).remaining());
    }

    @Test
    public void largeFileRoundTrip(@Seed long seed) throws IOException {
        Random random = new Random(seed);
        byte[] content = randomBytes(random, 5 * 1024 * 1024 + 123);
        Path file = dir.resolve("000005.ldb");
        Env.WritableFile writable = env.newWritableFile(file);
        int written = 0;
        while (written < content.length) {
            // Mostly small appends, some larger than any reasonable write buffer.
            int n = random.nextInt(8) == 0 ? random.nextInt(300_000) : random.nextInt(5000);
            n = Math.min(n, content.length - written);
            writable.append(content, written, n);
            written += n;
        }
        writable.sync();
        writable.close();
        assertEquals(content.length, env.getFileSize(file), "seed " + seed);

        assertArrayEquals(content, readSequentially(file, 70_001), "seed " + seed);

        Env.RandomAccessFile randomAccess = closeLater(env.newRandomAccessFile(file));
        assertEquals(content.length, randomAccess.size());
        assertArrayEquals(content, toArray(randomAccess.read(0, content.length)), "seed " + seed);
        for (int i = 0; i < 300; i++) {
            int offset = random.nextInt(content.length);
            int length = random.nextInt(200_000);
            ByteBuffer read = randomAccess.read(offset, length);
            int expected = Math.min(length, content.length - offset);
            assertEquals(expected, read.remaining(), "seed " + seed + " offset " + offset);
            assertArrayEquals(Arrays.copyOfRange(content, offset, offset + expected), toArray(read),
                    "seed " + seed + " offset " + offset + " length " + length);
        }
    }

    @Test
    public void appendAdvancesTheSourceBuffer() throws IOException {
        Path file = dir.resolve("f");
        Env.WritableFile writable = env.newWritableFile(file);
        ByteBuffer data = ByteBuffer.wrap(utf8("0123456789"), 2, 5);
        writable.append(data);
        assertEquals(7, data.position());
        assertEquals(7, data.limit());
        writable.append(utf8("abcdef"), 1, 3);
        writable.close();
        assertArrayEquals(utf8("23456bcd"), readSequentially(file, 100));
    }

    @Test
    public void appendableFileKeepsExistingContent() throws IOException {
        Path file = dir.resolve("MANIFEST-000002");
        write(file, utf8("abc"));
        Env.WritableFile appendable = env.newAppendableFile(file);
        appendable.append(ByteBuffer.wrap(utf8("def")));
        appendable.close();
        assertArrayEquals(utf8("abcdef"), readSequentially(file, 2));
    }

    @Test
    public void appendableFileCreatesMissingFile() throws IOException {
        Path file = dir.resolve("LOG");
        assertFalse(env.fileExists(file));
        Env.WritableFile appendable = env.newAppendableFile(file);
        appendable.append(ByteBuffer.wrap(utf8("x")));
        appendable.close();
        assertArrayEquals(utf8("x"), readSequentially(file, 2));
    }

    /**
     * A write-ahead log may be preallocated: while it is open, readers see the flushed bytes
     * followed by nothing but zeros (which the log format skips); closing trims the zeros.
     */
    @Test
    public void openLogShowsFlushedBytesThenAtMostZeros() throws IOException {
        Path file = dir.resolve("000004.log");
        Env.WritableFile writable = env.newWritableFile(file);
        byte[] expected = new byte[300_000];
        new Random(7).nextBytes(expected);
        for (int i = 0; i < expected.length; i += 1_000) {
            writable.append(ByteBuffer.wrap(expected, i, 1_000));
            writable.flush();
            if (i % 100_000 == 0) {
                assertFlushedThenZeros(file, expected, i + 1_000);
            }
        }
        writable.sync();
        assertFlushedThenZeros(file, expected, expected.length);
        writable.close();
        assertArrayEquals(expected, readSequentially(file, 4096));
        assertEquals(expected.length, env.getFileSize(file));
        IOException closed = assertThrows(IOException.class, () -> writable.append(ByteBuffer.wrap(utf8("x"))));
        assertTrue(closed.getMessage().contains(file.toString()), closed.getMessage());
    }

    private void assertFlushedThenZeros(Path file, byte[] expected, int flushed) throws IOException {
        byte[] seen = readSequentially(file, 8192);
        assertTrue(seen.length >= flushed, seen.length + " bytes seen, " + flushed + " flushed");
        assertArrayEquals(java.util.Arrays.copyOf(expected, flushed), java.util.Arrays.copyOf(seen, flushed));
        for (int i = flushed; i < seen.length; i++) {
            if (seen[i] != 0) {
                fail("byte " + i + " past the " + flushed + " flushed bytes is " + seen[i] + ", not 0");
            }
        }
    }

    @Test
    public void writableFileReplacesExistingContent() throws IOException {
        Path file = dir.resolve("CURRENT");
        write(file, utf8("a much longer old content"));
        write(file, utf8("new"));
        assertArrayEquals(utf8("new"), readSequentially(file, 100));
        assertEquals(3, env.getFileSize(file));
    }

    @Test
    public void flushedBytesAreVisibleToNewReaders() throws IOException {
        Path file = dir.resolve("000003.ldb");
        Env.WritableFile writable = closeLater(env.newWritableFile(file));
        writable.append(ByteBuffer.wrap(utf8("first")));
        writable.flush();
        assertArrayEquals(utf8("first"), readSequentially(file, 100));
        assertEquals(5, env.getFileSize(file));

        writable.append(ByteBuffer.wrap(utf8(" second")));
        writable.sync();
        assertArrayEquals(utf8("first second"), readSequentially(file, 3));
        Env.RandomAccessFile random = closeLater(env.newRandomAccessFile(file));
        assertArrayEquals(utf8("second"), toArray(random.read(6, 100)));
    }

    // ----- Sequential reads

    @Test
    public void sequentialSkip() throws IOException {
        Path file = dir.resolve("f");
        write(file, utf8("0123456789"));
        Env.SequentialFile sequential = closeLater(env.newSequentialFile(file));
        ByteBuffer buffer = ByteBuffer.allocate(3);
        assertEquals(3, sequential.read(buffer));
        assertArrayEquals(utf8("012"), buffer.array());

        sequential.skip(0);
        sequential.skip(4);
        buffer.clear();
        assertEquals(3, sequential.read(buffer));
        assertArrayEquals(utf8("789"), buffer.array());

        sequential.skip(1_000_000);
        buffer.clear();
        assertEquals(0, sequential.read(buffer));
        sequential.skip(Long.MAX_VALUE);
        assertEquals(0, sequential.read(buffer));
        assertEquals(0, sequential.read(ByteBuffer.allocate(0)));
        assertThrows(IllegalArgumentException.class, () -> sequential.skip(-1));
    }

    @Test
    public void sequentialSkipPastEndThenReadsNothing() throws IOException {
        Path file = dir.resolve("f");
        write(file, utf8("abc"));
        Env.SequentialFile sequential = closeLater(env.newSequentialFile(file));
        sequential.skip(4);
        assertEquals(0, sequential.read(ByteBuffer.allocate(8)));
    }

    @Test
    public void sequentialReadFillsTheBufferWhenTheFileHasEnough(@Seed long seed) throws IOException {
        Path file = dir.resolve("f");
        byte[] content = randomBytes(new Random(seed), 200_000);
        write(file, content);
        Env.SequentialFile sequential = closeLater(env.newSequentialFile(file));
        ByteBuffer buffer = ByteBuffer.allocate(150_000);
        assertEquals(150_000, sequential.read(buffer));
        buffer.clear();
        assertEquals(50_000, sequential.read(buffer));
    }

    // ----- Random access

    @Test
    public void randomReadsAtEveryBoundary() throws IOException {
        Path file = dir.resolve("000007.ldb");
        byte[] content = utf8("0123456789");
        write(file, content);
        Env.RandomAccessFile random = closeLater(env.newRandomAccessFile(file));
        assertEquals(10, random.size());

        assertArrayEquals(content, toArray(random.read(0, 10)));
        assertArrayEquals(utf8("0"), toArray(random.read(0, 1)));
        assertArrayEquals(utf8("9"), toArray(random.read(9, 1)));
        assertArrayEquals(utf8("9"), toArray(random.read(9, 5)), "length past the end is cut short");
        assertArrayEquals(utf8("3456789"), toArray(random.read(3, Integer.MAX_VALUE)));
        assertEquals(0, random.read(4, 0).remaining(), "length 0");
        assertEquals(0, random.read(10, 1).remaining(), "offset = size");
        assertEquals(0, random.read(10, 0).remaining(), "offset = size, length 0");
        assertEquals(0, random.read(11, 1).remaining(), "offset > size");
        assertEquals(0, random.read(Long.MAX_VALUE, 1).remaining(), "offset far past the end");
    }

    @Test
    public void randomReadRejectsNegativeArgumentsNamingThem() throws IOException {
        Path file = dir.resolve("f");
        write(file, utf8("0123456789"));
        Env.RandomAccessFile random = closeLater(env.newRandomAccessFile(file));
        IllegalArgumentException offset = assertThrows(IllegalArgumentException.class, () -> random.read(-1, 4));
        assertTrue(offset.getMessage().contains("offset=-1") && offset.getMessage().contains("length=4"),
                offset.getMessage());
        IllegalArgumentException length = assertThrows(IllegalArgumentException.class, () -> random.read(2, -7));
        assertTrue(length.getMessage().contains("offset=2") && length.getMessage().contains("length=-7"),
                length.getMessage());
    }

    @Test
    public void randomReadsReturnIndependentReadOnlyBuffers() throws IOException {
        Path file = dir.resolve("f");
        write(file, utf8("0123456789"));
        Env.RandomAccessFile random = closeLater(env.newRandomAccessFile(file));
        ByteBuffer first = random.read(2, 4);
        assertTrue(first.isReadOnly());
        assertEquals(0, first.position());
        assertEquals(4, first.remaining());
        assertThrows(ReadOnlyBufferException.class, () -> first.put(0, (byte) 'x'));

        first.position(3);
        ByteBuffer second = random.read(2, 4);
        assertEquals(0, second.position());
        assertEquals('2', second.get(0));
        assertEquals('5', second.get(3));
        assertTrue(random.read(0, 0).isReadOnly());
        assertTrue(random.read(20, 1).isReadOnly());
    }

    @Test
    public void randomAccessSizeIsFixedAtOpen() throws IOException {
        Path file = dir.resolve("f");
        Env.WritableFile writable = closeLater(env.newWritableFile(file));
        writable.append(ByteBuffer.wrap(utf8("abc")));
        writable.flush();
        Env.RandomAccessFile random = closeLater(env.newRandomAccessFile(file));
        writable.append(ByteBuffer.wrap(utf8("def")));
        writable.flush();
        assertEquals(3, random.size());
        assertArrayEquals(utf8("abc"), toArray(random.read(0, 100)));
        assertArrayEquals(utf8("abcdef"), readSequentially(file, 100));
    }

    @Test
    public void concurrentRandomReads(@Seed long seed) throws Exception {
        byte[] content = randomBytes(new Random(seed), 1024 * 1024 + 17);
        Path file = dir.resolve("000009.ldb");
        write(file, content);
        Env.RandomAccessFile random = closeLater(env.newRandomAccessFile(file));
        int threads = 4;
        ExecutorService executor = Executors.newFixedThreadPool(threads);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Integer>> results = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                Random threadRandom = new Random(seed + t);
                Callable<Integer> reader = () -> {
                    start.await();
                    for (int i = 0; i < 3000; i++) {
                        int offset = threadRandom.nextInt(content.length + 10);
                        int length = threadRandom.nextInt(40_000);
                        ByteBuffer read = random.read(offset, length);
                        int from = Math.min(offset, content.length);
                        int to = Math.min(content.length, offset + length);
                        byte[] expected = Arrays.copyOfRange(content, from, to);
                        if (!Arrays.equals(expected, toArray(read))) {
                            throw new AssertionError("seed " + seed + ": wrong bytes at offset " + offset
                                    + " length " + length);
                        }
                    }
                    return 3000;
                };
                results.add(executor.submit(reader));
            }
            start.countDown();
            for (Future<Integer> result : results) {
                assertEquals(3000, result.get(60, TimeUnit.SECONDS));
            }
        } finally {
            executor.shutdownNow();
        }
    }

    // ----- Name space

    @Test
    public void renameReplacesExistingTarget() throws IOException {
        Path temp = dir.resolve("000004.dbtmp");
        Path current = dir.resolve("CURRENT");
        write(current, utf8("MANIFEST-000001\n"));
        write(temp, utf8("MANIFEST-000004\n"));
        env.renameFile(temp, current);
        assertFalse(env.fileExists(temp));
        assertArrayEquals(utf8("MANIFEST-000004\n"), readSequentially(current, 100));
        assertEquals(List.of("CURRENT"), env.getChildren(dir));
    }

    @Test
    public void renameToNewName() throws IOException {
        Path source = dir.resolve("a");
        Path target = dir.resolve("b");
        write(source, utf8("content"));
        env.renameFile(source, target);
        assertFalse(env.fileExists(source));
        assertArrayEquals(utf8("content"), readSequentially(target, 100));
    }

    @Test
    public void renameMovesADirectoryWithItsFiles() throws IOException {
        Path built = dir.resolve("copy.tmp");
        env.createDir(built.resolve("inner"));
        write(built.resolve("CURRENT"), utf8("MANIFEST-000002\n"));
        write(built.resolve("inner").resolve("x"), utf8("x"));
        Path target = dir.resolve("copy");
        env.renameFile(built, target);
        assertFalse(env.fileExists(built));
        assertTrue(env.isDirectory(target));
        assertArrayEquals(utf8("MANIFEST-000002\n"), readSequentially(target.resolve("CURRENT"), 100));
        assertArrayEquals(utf8("x"), readSequentially(target.resolve("inner").resolve("x"), 100));
        assertEquals(List.of("copy"), env.getChildren(dir));
    }

    @Test
    public void linkOrCopyFileGivesTheSameBytesAndLeavesTheSource() throws IOException {
        Path source = dir.resolve("000005.ldb");
        byte[] content = new byte[200_000];
        new Random(5).nextBytes(content);
        write(source, content);
        Path target = dir.resolve("000005-copy.ldb");
        env.linkOrCopyFile(source, target);
        assertArrayEquals(content, readSequentially(target, content.length + 1));
        assertArrayEquals(content, readSequentially(source, content.length + 1));
        assertThrows(IOException.class, () -> env.linkOrCopyFile(source, target), "the target exists");
        assertThrows(IOException.class, () -> env.linkOrCopyFile(dir.resolve("missing"), dir.resolve("t")));
    }

    @Test
    public void copyFileCopiesUpToTheLimitFromThePosition() throws IOException {
        Path source = dir.resolve("000007.vlog");
        byte[] content = new byte[100_000];
        new Random(7).nextBytes(content);
        write(source, content);
        try (Env.SequentialFile in = env.newSequentialFile(source)) {
            in.skip(10);
            assertEquals(70_000, env.copyFile(in, dir.resolve("part"), 70_000));
        }
        assertArrayEquals(Arrays.copyOfRange(content, 10, 70_010), readSequentially(dir.resolve("part"), content.length));
        try (Env.SequentialFile in = env.newSequentialFile(source)) {
            assertEquals(content.length, env.copyFile(in, dir.resolve("all"), Long.MAX_VALUE));
        }
        assertArrayEquals(content, readSequentially(dir.resolve("all"), content.length + 1));
    }

    @Test
    public void renameIsAtomicForConcurrentReaders() throws Exception {
        Path target = dir.resolve("CURRENT");
        int size = 4096;
        byte[] initial = new byte[size];
        write(target, initial);
        AtomicBoolean done = new AtomicBoolean();
        ExecutorService executor = Executors.newSingleThreadExecutor();
        try {
            Future<Integer> reader = executor.submit(() -> {
                int reads = 0;
                while (!done.get() || reads == 0) {
                    byte[] seen = readSequentially(target, 1000);
                    if (seen.length != size) {
                        throw new AssertionError("read " + seen.length + " bytes, expected " + size);
                    }
                    for (byte b : seen) {
                        if (b != seen[0]) {
                            throw new AssertionError("a mixture of two versions");
                        }
                    }
                    reads++;
                }
                return reads;
            });
            for (int version = 1; version <= 200; version++) {
                Path temp = dir.resolve("000" + version + ".dbtmp");
                byte[] content = new byte[size];
                Arrays.fill(content, (byte) version);
                write(temp, content);
                env.renameFile(temp, target);
            }
            done.set(true);
            assertTrue(reader.get(60, TimeUnit.SECONDS) > 0);
        } finally {
            done.set(true);
            executor.shutdownNow();
        }
        byte[] last = new byte[size];
        Arrays.fill(last, (byte) 200);
        assertArrayEquals(last, readSequentially(target, 1000));
        assertEquals(List.of("CURRENT"), env.getChildren(dir));
    }

    @Test
    public void renameOfMissingSourceNamesIt() {
        Path missing = dir.resolve("missing");
        NoSuchFileException e = assertThrows(NoSuchFileException.class,
                () -> env.renameFile(missing, dir.resolve("target")));
        assertTrue(e.getMessage().contains(missing.toString()), e.getMessage());
    }

    @Test
    public void getChildrenListsNamesOfFilesAndDirectories() throws IOException {
        assertEquals(List.of(), env.getChildren(dir));
        write(dir.resolve("000001.log"), utf8("x"));
        write(dir.resolve("CURRENT"), utf8("y"));
        env.createDir(dir.resolve("sub"));
        write(dir.resolve("sub").resolve("nested"), utf8("z"));
        assertEquals(Set.of("000001.log", "CURRENT", "sub"), new HashSet<>(env.getChildren(dir)));
        assertEquals(3, env.getChildren(dir).size());
        assertEquals(List.of("nested"), env.getChildren(dir.resolve("sub")));
    }

    @Test
    public void deleteFile() throws IOException {
        Path file = dir.resolve("000002.log");
        write(file, utf8("x"));
        assertTrue(env.fileExists(file));
        env.deleteFile(file);
        assertFalse(env.fileExists(file));
        assertEquals(List.of(), env.getChildren(dir));
        NoSuchFileException e = assertThrows(NoSuchFileException.class, () -> env.deleteFile(file));
        assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
    }

    @Test
    public void deleteFileRefusesDirectories() throws IOException {
        Path sub = dir.resolve("sub");
        env.createDir(sub);
        IOException e = assertThrows(IOException.class, () -> env.deleteFile(sub));
        assertTrue(e.getMessage().contains(sub.toString()), e.getMessage());
        assertTrue(env.fileExists(sub));
    }

    @Test
    public void createDirIsIdempotentAndCreatesParents() throws IOException {
        Path nested = dir.resolve("a").resolve("b").resolve("c");
        env.createDir(nested);
        env.createDir(nested);
        assertTrue(env.fileExists(nested));
        assertTrue(env.fileExists(dir.resolve("a")));
        assertEquals(List.of("a"), env.getChildren(dir));
        write(nested.resolve("f"), utf8("x"));
        assertEquals(List.of("f"), env.getChildren(nested));
    }

    @Test
    public void deleteDir() throws IOException {
        Path sub = dir.resolve("sub");
        env.createDir(sub);
        Path file = sub.resolve("f");
        write(file, utf8("x"));
        IOException notEmpty = assertThrows(IOException.class, () -> env.deleteDir(sub));
        assertTrue(notEmpty instanceof DirectoryNotEmptyException, notEmpty.toString());
        assertTrue(notEmpty.getMessage().contains(sub.toString()), notEmpty.getMessage());
        assertTrue(env.fileExists(file));

        env.deleteFile(file);
        env.deleteDir(sub);
        assertFalse(env.fileExists(sub));
        NoSuchFileException missing = assertThrows(NoSuchFileException.class, () -> env.deleteDir(sub));
        assertTrue(missing.getMessage().contains(sub.toString()), missing.getMessage());
    }

    @Test
    public void getFileSize() throws IOException {
        Path file = dir.resolve("f");
        write(file, new byte[12345]);
        assertEquals(12345, env.getFileSize(file));
    }

    @Test
    public void missingFilesAreReportedWithTheirPath() {
        Path missing = dir.resolve("000099.ldb");
        assertFalse(env.fileExists(missing));
        List<Executable> operations = List.of(
                () -> env.newSequentialFile(missing),
                () -> env.newRandomAccessFile(missing),
                () -> env.getFileSize(missing),
                () -> env.deleteFile(missing),
                () -> env.getChildren(dir.resolve("missing-dir")),
                () -> env.syncDir(dir.resolve("missing-dir")),
                () -> env.newWritableFile(dir.resolve("missing-dir").resolve("f")),
                () -> env.newAppendableFile(dir.resolve("missing-dir").resolve("f")));
        for (Executable operation : operations) {
            NoSuchFileException e = assertThrows(NoSuchFileException.class, operation);
            assertTrue(e.getMessage().contains(dir.toString()), e.getMessage());
        }
        NoSuchFileException e = assertThrows(NoSuchFileException.class, () -> env.newRandomAccessFile(missing));
        assertTrue(e.getMessage().contains(missing.toString()), e.getMessage());
    }

    @Test
    public void syncDir() throws IOException {
        write(dir.resolve("f"), utf8("x"));
        env.syncDir(dir);
        env.syncDir(tempDir);
    }

    // ----- Locks

    @Test
    public void lockCreatesTheFileAndRefusesASecondLock() throws IOException {
        Path lockFile = dir.resolve("LOCK");
        Env.FileLock lock = closeLater(env.lockFile(lockFile));
        assertTrue(env.fileExists(lockFile));
        IOException e = assertThrows(Env.LockHeldException.class, () -> env.lockFile(lockFile));
        assertEquals("lock " + lockFile + ": already held by process", e.getMessage());
        lock.close();
    }

    @Test
    public void lockExistingFileCreatesNothingAndLocksLikeLockFile() throws IOException {
        Path lockFile = dir.resolve("LOCK");
        assertNull(env.lockExistingFile(lockFile));
        assertFalse(env.fileExists(lockFile));
        write(lockFile, utf8(""));
        Env.FileLock lock = closeLater(env.lockExistingFile(lockFile));
        assertNotNull(lock);
        IOException e = assertThrows(Env.LockHeldException.class, () -> env.lockFile(lockFile));
        assertEquals("lock " + lockFile + ": already held by process", e.getMessage());
        e = assertThrows(Env.LockHeldException.class, () -> env.lockExistingFile(lockFile));
        assertEquals("lock " + lockFile + ": already held by process", e.getMessage());
        lock.close();
        closeLater(env.lockExistingFile(lockFile)).close();
        assertEquals(0, env.getFileSize(lockFile));
    }

    @Test
    public void lockIsRefusedUnderAnotherSpellingOfTheSamePath() throws IOException {
        Path lockFile = dir.resolve("LOCK");
        closeLater(env.lockFile(lockFile));
        Path other = dir.resolve("sub").resolve("..").resolve("LOCK");
        IOException e = assertThrows(Env.LockHeldException.class, () -> env.lockFile(other));
        assertEquals("lock " + other + ": already held by process", e.getMessage());
    }

    @Test
    public void lockCanBeRetakenAfterClose() throws IOException {
        Path lockFile = dir.resolve("LOCK");
        Env.FileLock first = env.lockFile(lockFile);
        first.close();
        first.close();
        Env.FileLock second = closeLater(env.lockFile(lockFile));
        assertThrows(IOException.class, () -> env.lockFile(lockFile));
        second.close();
        closeLater(env.lockFile(lockFile));
    }

    @Test
    public void locksOnDifferentFilesAreIndependent() throws IOException {
        env.createDir(dir.resolve("a"));
        env.createDir(dir.resolve("b"));
        closeLater(env.lockFile(dir.resolve("a").resolve("LOCK")));
        closeLater(env.lockFile(dir.resolve("b").resolve("LOCK")));
    }

    @Test
    public void onlyOneOfManyConcurrentLockersWins() throws Exception {
        Path lockFile = dir.resolve("LOCK");
        int threads = 8;
        ExecutorService executor = Executors.newFixedThreadPool(threads);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Env.FileLock>> attempts = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                attempts.add(executor.submit(() -> {
                    start.await();
                    try {
                        return env.lockFile(lockFile);
                    } catch (IOException e) {
                        assertEquals("lock " + lockFile + ": already held by process", e.getMessage());
                        return null;
                    }
                }));
            }
            start.countDown();
            int winners = 0;
            for (Future<Env.FileLock> attempt : attempts) {
                Env.FileLock lock = attempt.get(60, TimeUnit.SECONDS);
                if (lock != null) {
                    winners++;
                    closeLater(lock);
                }
            }
            assertEquals(1, winners);
        } finally {
            executor.shutdownNow();
        }
    }

    // ----- Use after close

    private static void assertClosed(Path file, Executable operation) {
        IOException e = assertThrows(IOException.class, operation);
        assertTrue(e.getMessage().contains("closed") && e.getMessage().contains(file.toString()), e.getMessage());
    }

    @Test
    public void sequentialFileUseAfterClose() throws IOException {
        Path file = dir.resolve("f");
        write(file, utf8("abc"));
        Env.SequentialFile sequential = env.newSequentialFile(file);
        sequential.close();
        sequential.close();
        assertClosed(file, () -> sequential.read(ByteBuffer.allocate(3)));
        assertClosed(file, () -> sequential.skip(1));
    }

    @Test
    public void randomAccessFileUseAfterClose() throws IOException {
        Path file = dir.resolve("f");
        write(file, utf8("abc"));
        Env.RandomAccessFile random = env.newRandomAccessFile(file);
        random.close();
        random.close();
        assertClosed(file, () -> random.read(0, 1));
        assertClosed(file, () -> random.read(10, 0));
        assertEquals(3, random.size());
    }

    @Test
    public void writableFileUseAfterClose() throws IOException {
        Path file = dir.resolve("f");
        Env.WritableFile writable = env.newWritableFile(file);
        writable.append(ByteBuffer.wrap(utf8("abc")));
        writable.close();
        writable.close();
        assertClosed(file, () -> writable.append(ByteBuffer.wrap(utf8("d"))));
        assertClosed(file, () -> writable.append(utf8("d"), 0, 1));
        assertClosed(file, writable::flush);
        assertClosed(file, writable::sync);
        assertArrayEquals(utf8("abc"), readSequentially(file, 10), "close keeps what was appended");
    }

    @Test
    public void closingOneHandleLeavesOthersOpen() throws IOException {
        Path file = dir.resolve("f");
        write(file, utf8("abc"));
        Env.RandomAccessFile first = env.newRandomAccessFile(file);
        Env.RandomAccessFile second = closeLater(env.newRandomAccessFile(file));
        first.close();
        assertArrayEquals(utf8("abc"), toArray(second.read(0, 3)));
        assertDoesNotThrow(() -> readSequentially(file, 1));
    }
}
