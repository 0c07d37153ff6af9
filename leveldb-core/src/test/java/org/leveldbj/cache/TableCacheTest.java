package org.leveldbj.cache;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.iq80.leveldb.CorruptionException;
import org.iq80.leveldb.DBException;
import org.iq80.leveldb.Env;
import org.iq80.leveldb.NotFoundException;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.leveldbj.comparator.BytewiseComparator;
import org.leveldbj.env.FileSystemEnv;
import org.leveldbj.filename.FileNames;
import org.leveldbj.iterator.SortedIterator;
import org.leveldbj.key.InternalKeyComparator;
import org.leveldbj.key.InternalKeys;
import org.leveldbj.key.ValueType;
import org.leveldbj.table.BloomFilterPolicy;
import org.leveldbj.table.FilterKeyExtractor;
import org.leveldbj.table.TableBuilder;
import org.leveldbj.table.TableOptions;
import org.leveldbj.table.TableReadOptions;
import org.leveldbj.testing.MemEnv;
import org.leveldbj.testing.Seed;
import org.leveldbj.testing.SeedExtension;

/**
 * The table cache over real tables in an in-memory and in the real file system: the capacity
 * bound, tables kept open while read after eviction and closed after, the .sst fallback, errors
 * naming the file, and concurrent use.
 */
@ExtendWith(SeedExtension.class)
class TableCacheTest {
    private static final int ENTRIES = 200;
    private static final TableOptions OPTIONS = TableOptions.DEFAULTS
            .withComparator(new InternalKeyComparator(BytewiseComparator.INSTANCE))
            .withFilter(new BloomFilterPolicy(10), FilterKeyExtractor.dropSuffix(8))
            .withBlockSize(512)
            .withBlockCache(new ClockBlockCache(1 << 20));

    @TempDir
    Path tempDir;

    private CountingEnv env;
    private Path dir;

    private void setUp(String kind) throws IOException {
        if (kind.equals("mem")) {
            env = new CountingEnv(new MemEnv());
            dir = Path.of("/db");
        } else {
            env = new CountingEnv(new FileSystemEnv());
            dir = tempDir.resolve("db");
        }
        env.createDir(dir);
    }

    private static byte[] key(long file, int i) {
        return String.format("f%03d-k%05d", file, i).getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] value(long file, int i) {
        return ("value " + file + "/" + i + " " + "x".repeat(i % 40)).getBytes(StandardCharsets.UTF_8);
    }

    private static ByteBuffer lookupKey(long file, int i) {
        return ByteBuffer.wrap(InternalKeys.encode(key(file, i), InternalKeys.MAX_SEQUENCE, ValueType.FOR_SEEK));
    }

    /** Writes table {@code file} under {@code name}; returns its size. */
    private long writeTable(long file, String name) throws IOException {
        try (Env.WritableFile out = env.newWritableFile(dir.resolve(name))) {
            TableBuilder builder = new TableBuilder(OPTIONS, out);
            for (int i = 0; i < ENTRIES; i++) {
                builder.add(InternalKeys.encode(key(file, i), 100 + i, ValueType.VALUE), value(file, i));
            }
            builder.finish();
            return builder.fileSize();
        }
    }

    private long writeTable(long file) throws IOException {
        return writeTable(file, FileNames.tableFileName(file));
    }

    private static int count(SortedIterator it) {
        int n = 0;
        for (it.seekToFirst(); it.valid(); it.next()) {
            n++;
        }
        return n;
    }

    private static byte[] get(TableCache cache, long file, long size, int i) {
        byte[][] found = new byte[1][];
        ByteBuffer k = lookupKey(file, i);
        boolean called = cache.get(file, size, k, TableReadOptions.DEFAULT, (key, value) -> {
            byte[] user = new byte[key.remaining() - 8];
            key.get(key.position(), user);
            if (java.util.Arrays.equals(user, key(file, i))) {
                found[0] = new byte[value.remaining()];
                value.get(value.position(), found[0]);
            }
        });
        assertTrue(called || found[0] == null);
        return found[0];
    }

    @ParameterizedTest
    @ValueSource(strings = {"mem", "fs"})
    void keepsAtMostCapacityTablesOpen(String kind, Random r) throws IOException {
        setUp(kind);
        int files = 10;
        long[] sizes = new long[files + 1];
        for (int f = 1; f <= files; f++) {
            sizes[f] = writeTable(f);
        }
        TableCache cache = new TableCache(env, dir, 3, OPTIONS);
        for (int round = 0; round < 300; round++) {
            int f = 1 + r.nextInt(files);
            int i = r.nextInt(ENTRIES);
            assertArrayEquals(value(f, i), get(cache, f, sizes[f], i));
            assertTrue(cache.openTables() <= 3, "open " + cache.openTables());
            assertTrue(cache.cachedTables() <= 3);
            assertEquals(cache.openTables(), env.openNow());
        }
        try (SortedIterator it = cache.iterator(4, sizes[4], TableReadOptions.DEFAULT)) {
            assertEquals(ENTRIES, count(it));
        }
        assertTrue(cache.approximateOffsetOf(5, sizes[5], lookupKey(5, ENTRIES - 1)) > 0);
        assertEquals(0, cache.approximateOffsetOf(5, sizes[5], lookupKey(0, 0)));
        cache.close();
        assertEquals(0, cache.openTables());
        assertEquals(0, env.openNow());
    }

    @ParameterizedTest
    @ValueSource(strings = {"mem", "fs"})
    void anEvictedTableStaysOpenUntilItsLastReaderCloses(String kind) throws IOException {
        setUp(kind);
        long[] sizes = new long[6];
        for (int f = 1; f <= 5; f++) {
            sizes[f] = writeTable(f);
        }
        TableCache cache = new TableCache(env, dir, 2, OPTIONS);
        SortedIterator reader = cache.iterator(1, sizes[1], TableReadOptions.DEFAULT);
        reader.seekToFirst();
        for (int f = 2; f <= 5; f++) { // idle tables are evicted before tables being read
            assertArrayEquals(value(f, 7), get(cache, f, sizes[f], 7));
        }
        assertEquals(2, cache.cachedTables());
        assertEquals(0, env.closes("000001.ldb"));
        try (SortedIterator other = cache.iterator(2, sizes[2], TableReadOptions.DEFAULT)) {
            // Both cached tables are being read: the next one pushes out the older, table 1.
            assertArrayEquals(value(3, 9), get(cache, 3, sizes[3], 9));
            assertEquals(2, cache.cachedTables());
            assertEquals(3, cache.openTables(), "the two cached tables and the evicted one being read");
            assertEquals(0, env.closes("000001.ldb"));
            assertEquals(ENTRIES, count(other));
        }
        int n = 0;
        for (; reader.valid(); reader.next()) {
            n++;
        }
        assertEquals(ENTRIES, n, "the evicted table is still readable");
        reader.close();
        reader.close();
        assertEquals(1, env.closes("000001.ldb"), "closed when its reader is closed");
        assertEquals(2, cache.openTables());
        assertEquals(2, env.openNow());

        // evict() of a table being read (3, cached with 2): the same.
        int closedBefore = env.closes("000003.ldb");
        SortedIterator second = cache.iterator(3, sizes[3], TableReadOptions.DEFAULT);
        cache.evict(3);
        assertEquals(closedBefore, env.closes("000003.ldb"));
        assertEquals(ENTRIES, count(second));
        second.close();
        assertEquals(closedBefore + 1, env.closes("000003.ldb"));
        // evict() of an idle table closes it at once; evicting what is not cached does nothing.
        closedBefore = env.closes("000002.ldb");
        cache.evict(2);
        cache.evict(2);
        cache.evict(99);
        assertEquals(closedBefore + 1, env.closes("000002.ldb"));
        assertEquals(0, cache.openTables());
        assertEquals(0, cache.cachedTables());

        // close() with a reader still open: the reader's table closes when the reader does.
        SortedIterator third = cache.iterator(3, sizes[3], TableReadOptions.DEFAULT);
        cache.close();
        assertEquals(1, cache.openTables());
        assertEquals(ENTRIES, count(third));
        third.close();
        assertEquals(0, cache.openTables());
        assertEquals(0, env.openNow());
        DBException e = assertThrows(DBException.class, () -> cache.iterator(3, sizes[3], TableReadOptions.DEFAULT));
        assertTrue(e.getMessage().contains("closed"), e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"mem", "fs"})
    void readsSstWhenThereIsNoLdb(String kind) throws IOException {
        setUp(kind);
        long size = writeTable(7, FileNames.sstTableFileName(7));
        TableCache cache = new TableCache(env, dir, 10, OPTIONS);
        assertArrayEquals(value(7, 3), get(cache, 7, size, 3));
        try (SortedIterator it = cache.iterator(7, size, TableReadOptions.DEFAULT)) {
            assertEquals(ENTRIES, count(it));
        }
        assertEquals(1, env.opens("000007.sst"));
        cache.close();
        assertEquals(1, env.closes("000007.sst"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"mem", "fs"})
    void aMissingOrDamagedFileIsReportedByNameAndNotCached(String kind) throws IOException {
        setUp(kind);
        TableCache cache = new TableCache(env, dir, 10, OPTIONS);
        // C++'s NotFound (a kind of I/O error here), with the message C++ words as an IO error.
        NotFoundException missing = assertThrows(NotFoundException.class,
                () -> cache.iterator(9, 1000, TableReadOptions.DEFAULT));
        assertTrue(missing.getMessage().startsWith("IO error: ") && missing.getMessage().contains("000009.ldb"),
                missing.getMessage());
        assertTrue(missing.getMessage().contains("000009.sst"), missing.getMessage());
        assertEquals(0, cache.cachedTables());
        assertThrows(DBException.class, () -> get(cache, 9, 1000, 0));

        try (Env.WritableFile out = env.newWritableFile(dir.resolve("000010.ldb"))) {
            out.append(ByteBuffer.wrap(new byte[100]));
        }
        CorruptionException bad = assertThrows(CorruptionException.class, () -> get(cache, 10, 100, 0));
        assertTrue(bad.getMessage().contains("000010.ldb"), bad.getMessage());
        assertEquals(0, cache.cachedTables());
        assertEquals(0, cache.openTables());
        assertEquals(env.opens("000010.ldb"), env.closes("000010.ldb"), "the damaged file was closed");

        // Once the file exists, the next use opens it: failures are not remembered.
        long size = writeTable(9);
        assertArrayEquals(value(9, 0), get(cache, 9, size, 0));
        cache.close();
        assertEquals(0, env.openNow());
    }

    @ParameterizedTest
    @ValueSource(strings = {"mem", "fs"})
    void concurrentReadersOpenEachFileOnceAndCloseEverything(String kind, @Seed long seed) throws Exception {
        setUp(kind);
        int files = 6;
        long[] sizes = new long[files + 1];
        for (int f = 1; f <= files; f++) {
            sizes[f] = writeTable(f);
        }
        // A large cache: every file must be opened exactly once, however the threads race.
        env.openDelayMillis = 20;
        TableCache big = new TableCache(env, dir, 100, OPTIONS);
        runReaders(big, sizes, files, seed, 6, 300);
        for (int f = 1; f <= files; f++) {
            assertEquals(1, env.opens(FileNames.tableFileName(f)), "file " + f);
        }
        big.close();
        assertEquals(0, env.openNow());
        // A small cache: tables come and go; all are closed in the end.
        env.openDelayMillis = 0;
        TableCache small = new TableCache(env, dir, 2, OPTIONS);
        runReaders(small, sizes, files, seed + 1, 4, 2000);
        assertTrue(small.openTables() <= 2, "open " + small.openTables());
        assertEquals(small.openTables(), env.openNow());
        small.close();
        assertEquals(0, env.openNow());
    }

    private static void runReaders(TableCache cache, long[] sizes, int files, long seed, int threads, int steps)
            throws InterruptedException {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> all = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            long threadSeed = seed * 31 + t;
            all.add(new Thread(() -> {
                try {
                    Random r = new Random(threadSeed);
                    start.await();
                    for (int s = 0; s < steps; s++) {
                        int f = 1 + r.nextInt(files);
                        if (r.nextInt(10) == 0) {
                            try (SortedIterator it = cache.iterator(f, sizes[f], TableReadOptions.DEFAULT)) {
                                it.seek(lookupKey(f, 10));
                                for (int i = 10; i < 30; i++, it.next()) {
                                    byte[] v = new byte[it.value().remaining()];
                                    it.value().get(it.value().position(), v);
                                    assertArrayEquals(value(f, i), v);
                                }
                            }
                        } else {
                            int i = r.nextInt(ENTRIES);
                            assertArrayEquals(value(f, i), get(cache, f, sizes[f], i));
                            assertFalse(cache.cachedTables() > cache.capacity());
                        }
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            }));
        }
        all.forEach(Thread::start);
        start.countDown();
        for (Thread t : all) {
            t.join();
        }
        if (failure.get() != null) {
            throw new AssertionError("seed " + seed, failure.get());
        }
    }
}
