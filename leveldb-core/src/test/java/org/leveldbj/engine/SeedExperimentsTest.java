package org.leveldbj.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.leveldbj.engine.DbTestSupport.contents;
import static org.leveldbj.db.LevelDbFactory.asString;
import static org.leveldbj.db.LevelDbFactory.bytes;

import org.leveldbj.db.LevelDbFactory;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.iq80.leveldb.CompressionType;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.DBIterator;
import org.iq80.leveldb.Options;
import org.iq80.leveldb.ReadOptions;
import org.iq80.leveldb.Snapshot;
import org.iq80.leveldb.WriteBatch;
import org.iq80.leveldb.WriteOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.leveldbj.testing.FaultInjectionEnv;
import org.leveldbj.testing.MemEnv;
import org.leveldbj.testing.Seed;
import org.leveldbj.testing.SeedExtension;

/**
 * The seed experiments (/work/shared/seeds/000_*: a leveldbjni walkthrough) at reduced scale,
 * checking the data where the originals only timed: put/get/delete of {@code key<i>} ->
 * {@code value<i>}, sequential and random reads, compaction after deleting everything, sync
 * every N writes, batches of N, snapshot isolation, the block cache and compression.
 *
 * <p>A failure reports its seed; replay it with {@code -Dleveldbj.seed=N}.
 */
@ExtendWith(SeedExtension.class)
class SeedExperimentsTest {
    private static final int KEYS = 20_000;
    private static final Duration LIMIT = Duration.ofSeconds(60);

    @TempDir
    Path tmp;

    private static byte[] key(int i) {
        return bytes("key" + i);
    }

    private static byte[] value(int i) {
        return bytes("value" + i);
    }

    private static long tableBytes(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.toString().endsWith(".ldb") || p.toString().endsWith(".sst"))
                    .mapToLong(p -> p.toFile().length()).sum();
        }
    }

    private static long tableCount(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.toString().endsWith(".ldb") || p.toString().endsWith(".sst")).count();
        }
    }

    /** Put, sequential get, random get, delete; then compacting everything away (on disk). */
    @Test
    void putGetDeleteThenCompactAway(@Seed long seed) {
        assertTimeoutPreemptively(LIMIT, () -> {
            Path dir = tmp.resolve("lvltest");
            Options options = new Options().createIfMissing(true).writeBufferSize(256 << 10);
            try (DB db = LevelDbFactory.factory.open(dir.toFile(), options)) {
                for (int i = 0; i < KEYS; i++) {
                    db.put(key(i), value(i));
                }
                for (int i = 0; i < KEYS; i++) {
                    assertEquals("value" + i, asString(db.get(key(i))), "something wrong! key" + i);
                }
                Random r = new Random(seed);
                for (int n = 0; n < KEYS; n++) {
                    int i = r.nextInt(KEYS);
                    assertEquals("value" + i, asString(db.get(key(i))), "seed " + seed);
                }
                assertNull(db.get(bytes("key" + KEYS)));
                for (int i = 0; i < KEYS; i++) {
                    db.delete(key(i));
                }
                // Deletes are tombstones: the tables written so far are still there.
                assertTrue(tableCount(dir) > 0, "writeBufferSize 256 KiB should have flushed tables");
                assertNull(db.get(key(7)));
            }
            // The second program of the walkthrough: open and compact everything.
            try (DB db = LevelDbFactory.factory.open(dir.toFile(), options)) {
                db.compactRange(null, null);
                assertEquals(0, tableCount(dir), db.getProperty("leveldb.sstables"));
                try (DBIterator it = db.iterator()) {
                    it.seekToFirst();
                    assertFalse(it.hasNext());
                    it.seekToLast();
                    assertFalse(it.hasNext());
                }
            }
            try (DB db = LevelDbFactory.factory.open(dir.toFile(), options); DBIterator it = db.iterator()) {
                assertFalse(it.hasNext());
                assertEquals(0, tableCount(dir));
            }
        });
    }

    /**
     * {@code wo.sync(i % N == 0)} for N = 1, 10, 100 and never: the same data after a clean
     * reopen, and after a crash at least everything up to the last synced write.
     */
    @ParameterizedTest(name = "sync every {0}")
    @ValueSource(ints = {1, 10, 100, 0})
    void syncEveryNWritesKeepsTheSameData(int every) throws IOException {
        for (boolean crash : new boolean[] {false, true}) {
            FaultInjectionEnv env = new FaultInjectionEnv();
            File dir = new File("/lvltest");
            Options options = new Options().env(env).writeBufferSize(128 << 10);
            int lastSynced = -1;
            DB db = LevelDbFactory.factory.open(dir, options);
            for (int i = 0; i < KEYS; i++) {
                boolean sync = every > 0 && i % every == 0;
                db.put(key(i), value(i), new WriteOptions().sync(sync));
                lastSynced = sync ? i : lastSynced;
            }
            // The power fails once the database is closed: only synced data remains. (Not
            // before close: the fault-injection env's handles must not be used after a crash,
            // and a background compaction may still be writing.)
            db.close();
            if (crash) {
                env.crash();
            }
            try (DB reopened = LevelDbFactory.factory.open(dir, options)) {
                TreeMap<byte[], byte[]> state = contents(reopened);
                int present = 0;
                for (int i = 0; i < KEYS; i++) {
                    byte[] v = reopened.get(key(i));
                    if (v != null) {
                        assertArrayEquals(value(i), v);
                        present++;
                    } else if (!crash || i <= lastSynced) {
                        fail("key" + i + " lost (sync every " + every + ", crash " + crash + ", last synced " + lastSynced + ")");
                    }
                }
                assertEquals(present, state.size());
                if (!crash) {
                    assertEquals(KEYS, present);
                } else {
                    // A prefix in write order: key<i> present implies every earlier key present.
                    for (int i = 1; i < KEYS; i++) {
                        if (reopened.get(key(i)) != null) {
                            assertTrue(reopened.get(key(i - 1)) != null, "key" + i + " survived but key" + (i - 1) + " did not");
                        }
                    }
                }
            }
        }
    }

    /**
     * The walkthrough's batching loop ({@code batch.put; if (i % N == 0) write and start a new
     * batch}) for N = 1, 2, 5, 10, 100, 1000: a clean run holds everything; after a crash at a
     * random I/O call, every batch is present entirely or not at all, and the present ones are
     * the first ones.
     */
    @ParameterizedTest(name = "batches of {0}")
    @ValueSource(ints = {1, 2, 5, 10, 100, 1000})
    void batchesAreAtomicAcrossCrashes(int n, @Seed long seed) {
        assertTimeoutPreemptively(LIMIT, () -> {
            int keys = 5_000;
            // The dry run: every batch present, and how many mutating I/O calls the run makes.
            ScriptedEnv env = new ScriptedEnv(new FaultInjectionEnv());
            List<int[]> batches = runBatches(env, keys, n, false);
            long calls = env.mutations();
            checkBatches(env, batches, keys, false, "dry run");
            Random r = new Random(seed);
            for (int run = 0; run < 4; run++) {
                ScriptedEnv crashing = new ScriptedEnv(new FaultInjectionEnv());
                long at = (long) (r.nextDouble() * calls);
                crashing.freezeAfter(at);
                try {
                    runBatches(crashing, keys, n, true);
                } catch (RuntimeException | IOException e) {
                    assertTrue(crashing.isFrozen(), e.toString());
                }
                crashing.crashAndThaw();
                checkBatches(crashing, batches, keys, true, "seed " + seed + " crash after " + at + " of " + calls);
            }
        });
    }

    /** Runs the batching loop; returns each batch's [first, last] key index. */
    private static List<int[]> runBatches(ScriptedEnv env, int keys, int n, boolean crash) throws IOException {
        List<int[]> batches = new ArrayList<>();
        Options options = new Options().env(env).writeBufferSize(32 << 10);
        DB db = LevelDbFactory.factory.open(new File("/lvltest"), options);
        try {
            WriteBatch batch = db.createWriteBatch();
            int first = 0;
            for (int i = 0; i < keys; i++) {
                batch.put(key(i), value(i));
                if (i % n == 0) {
                    db.write(batch);
                    batch.close();
                    batches.add(new int[] {first, i});
                    first = i + 1;
                    batch = db.createWriteBatch();
                }
            }
            db.write(batch);
            batch.close();
            if (first < keys) {
                batches.add(new int[] {first, keys - 1});
            }
        } finally {
            if (crash) {
                env.freeze(); // nothing after this point reaches the disk: the power fails here
            }
            db.close();
        }
        return batches;
    }

    private static void checkBatches(ScriptedEnv env, List<int[]> batches, int keys, boolean crashed, String context)
            throws IOException {
        boolean all = !crashed;
        if (crashed) {
            env.crashAndThaw();
        }
        try (DB db = LevelDbFactory.factory.open(new File("/lvltest"), new Options().env(env).paranoidChecks(true))) {
            boolean missingSeen = false;
            int total = 0;
            for (int[] b : batches) {
                int present = 0;
                for (int i = b[0]; i <= b[1]; i++) {
                    byte[] v = db.get(key(i));
                    if (v != null) {
                        assertArrayEquals(value(i), v, context);
                        present++;
                    }
                }
                int size = b[1] - b[0] + 1;
                assertTrue(present == 0 || present == size,
                        context + ": batch [" + b[0] + ", " + b[1] + "] is partly there: " + present + " of " + size);
                if (present == 0) {
                    missingSeen = true;
                } else {
                    assertFalse(missingSeen, context + ": batch [" + b[0] + ", " + b[1] + "] follows a lost batch");
                }
                total += present;
            }
            assertEquals(total, contents(db).size(), context);
            if (all) {
                assertEquals(keys, total, context);
            }
        }
    }

    /** A snapshot scan sees the old values while another thread rewrites every key. */
    @Test
    void snapshotScanIsIsolatedFromARewriteOfEveryKey() {
        assertTimeoutPreemptively(LIMIT, () -> {
            MemEnv env = new MemEnv();
            try (DB db = LevelDbFactory.factory.open(new File("/lvltest"), new Options().env(env).writeBufferSize(64 << 10))) {
                for (int i = 0; i < KEYS; i++) {
                    db.put(key(i), value(i));
                }
                AtomicReference<Throwable> failure = new AtomicReference<>();
                try (Snapshot snapshot = db.getSnapshot()) {
                    Thread rewriter = new Thread(() -> {
                        try {
                            for (int i = 0; i < KEYS; i++) {
                                if (i % 10 == 0) {
                                    db.delete(key(i));
                                } else {
                                    db.put(key(i), bytes("rewritten" + i));
                                }
                            }
                            db.compactRange(null, null);
                        } catch (Throwable e) {
                            failure.set(e);
                        }
                    });
                    rewriter.start();
                    ReadOptions at = new ReadOptions().snapshot(snapshot);
                    for (int pass = 0; pass < 3; pass++) {
                        int count = 0;
                        try (DBIterator it = db.iterator(at)) {
                            for (it.seekToFirst(); it.hasNext(); ) {
                                Map.Entry<byte[], byte[]> e = it.next();
                                String k = asString(e.getKey());
                                assertEquals("value" + k.substring(3), asString(e.getValue()), "pass " + pass);
                                count++;
                            }
                        }
                        assertEquals(KEYS, count, "pass " + pass);
                    }
                    rewriter.join();
                    assertNull(failure.get(), String.valueOf(failure.get()));
                    // After the rewrite and a full compaction, the snapshot still reads the old data.
                    for (int i = 0; i < KEYS; i += 97) {
                        assertEquals("value" + i, asString(db.get(key(i), at)));
                    }
                }
                int count = 0;
                try (DBIterator it = db.iterator()) {
                    for (it.seekToFirst(); it.hasNext(); ) {
                        Map.Entry<byte[], byte[]> e = it.next();
                        assertEquals("rewritten" + asString(e.getKey()).substring(3), asString(e.getValue()));
                        count++;
                    }
                }
                assertEquals(KEYS - KEYS / 10, count);
            }
        });
    }

    /**
     * cacheSize 0 (the default cache) and 100 MB, with each compression: the same data; and
     * compressible values make SNAPPY and ZSTD tables smaller than uncompressed ones.
     */
    @Test
    void cacheSizesAndCompressionsGiveTheSameData(@Seed long seed) {
        assertTimeoutPreemptively(LIMIT, () -> {
            Map<CompressionType, Long> sizes = new EnumMap<>(CompressionType.class);
            for (CompressionType compression : CompressionType.values()) {
                for (long cacheSize : new long[] {0, 100L << 20}) {
                    Path dir = tmp.resolve(compression + "-" + cacheSize);
                    Options options = new Options().cacheSize(cacheSize).compressionType(compression)
                            .writeBufferSize(512 << 10);
                    try (DB db = LevelDbFactory.factory.open(dir.toFile(), options)) {
                        for (int i = 0; i < KEYS; i++) {
                            db.put(key(i), compressible(i));
                        }
                        db.compactRange(null, null);
                        Random r = new Random(seed);
                        for (int n = 0; n < 5_000; n++) {
                            int i = r.nextInt(KEYS);
                            assertArrayEquals(compressible(i), db.get(key(i)), compression + " cache " + cacheSize);
                        }
                    }
                    try (DB db = LevelDbFactory.factory.open(dir.toFile(), options)) {
                        TreeMap<byte[], byte[]> all = contents(db);
                        assertEquals(KEYS, all.size());
                        for (Map.Entry<byte[], byte[]> e : all.entrySet()) {
                            int i = Integer.parseInt(asString(e.getKey()).substring(3));
                            assertArrayEquals(compressible(i), e.getValue(), compression + " cache " + cacheSize);
                        }
                    }
                    long size = tableBytes(dir);
                    Long other = sizes.putIfAbsent(compression, size);
                    if (other != null) {
                        assertEquals(other, size, compression + ": the cache size changed the tables");
                    }
                }
            }
            long none = sizes.get(CompressionType.NONE);
            assertTrue(sizes.get(CompressionType.SNAPPY) < none * 0.8, sizes.toString());
            assertTrue(sizes.get(CompressionType.ZSTD) < none * 0.8, sizes.toString());
        });
    }

    /** A 100-byte value compressible to about half, like db_bench's. */
    private static byte[] compressible(int i) {
        Random r = new Random(i);
        StringBuilder sb = new StringBuilder("value").append(i).append('-');
        while (sb.length() < 100) {
            char c = (char) ('a' + r.nextInt(26));
            sb.append(c).append(c);
        }
        return bytes(sb.substring(0, 100));
    }
}
