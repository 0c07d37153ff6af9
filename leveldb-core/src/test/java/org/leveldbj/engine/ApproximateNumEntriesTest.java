package org.leveldbj.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.iq80.leveldb.DBException;
import org.iq80.leveldb.ExtendedDB;
import org.iq80.leveldb.Options;
import org.iq80.leveldb.Snapshot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.leveldbj.db.LevelDbFactory;
import org.leveldbj.table.BlockHandle;
import org.leveldbj.table.StatsBlocks;
import org.leveldbj.testing.Seed;
import org.leveldbj.testing.SeedExtension;

/**
 * {@code leveldb.approximate-num-entries} against a model (a map of the live keys): exact for
 * distinct keys written once and after a full compaction, within a factor of 2 after overwrites
 * and deletions, the same after a reopen (counts read back from the tables' stats blocks), for
 * small (1-3 byte) and large (over 100 byte) keys; tolerant of damaged stats blocks.
 */
@ExtendWith(SeedExtension.class)
class ApproximateNumEntriesTest {
    private static final String PROPERTY = "leveldb.approximate-num-entries";

    static Stream<Arguments> sizes() {
        List<Arguments> out = new ArrayList<>();
        for (int n : new int[] {10, 1000, 100_000}) {
            out.add(Arguments.of(n, false));
            out.add(Arguments.of(n, true));
        }
        return out.stream();
    }

    /** Key {@code i} of {@code n}: as few bytes as {@code n} needs (1 to 3 here), or over 100 bytes. */
    static byte[] key(int i, int n, boolean large) {
        if (large) {
            return String.format("%0100d/%08d", (long) i * 7919 % 1000, i).getBytes(StandardCharsets.US_ASCII);
        }
        int bytes = n <= 256 ? 1 : n <= 65536 ? 2 : 3;
        byte[] k = new byte[bytes];
        for (int b = 0; b < bytes; b++) {
            k[bytes - 1 - b] = (byte) (i >>> (8 * b));
        }
        return k;
    }

    private static Options options() {
        return new Options().writeBufferSize(64 << 10).maxFileSize(256 << 10);
    }

    /**
     * The estimate, by the method and by the property, which must agree. A flush or compaction
     * finishing between the two calls changes the estimate (a table written counts the share of
     * its keys its sample found new), so the pair is read again, up to a bound, until the
     * property matches the method read just before or just after it.
     */
    private static long estimate(ExtendedDB db) throws InterruptedException {
        long before = 0;
        long viaProperty = 0;
        long after = 0;
        for (int attempt = 0; attempt < 100; attempt++) {
            before = db.approximateNumEntries();
            viaProperty = Long.parseLong(db.getProperty(PROPERTY));
            after = db.approximateNumEntries();
            if (viaProperty == before || viaProperty == after) {
                assertTrue(viaProperty >= 0);
                return viaProperty;
            }
            Thread.sleep(10); // background work changed the estimate meanwhile: read again
        }
        throw new AssertionError("the method and the property disagree: method " + before + " and " + after
                + ", property " + viaProperty);
    }

    private static void assertWithinTwice(long truth, long estimate, String what) {
        assertTrue(estimate * 2 >= truth && estimate <= truth * 2L, what + ": estimate " + estimate + ", live " + truth);
    }

    @ParameterizedTest(name = "{0} keys, large {1}")
    @MethodSource("sizes")
    void followsTheModelThroughPutsOverwritesDeletesFlushesAndCompactions(int n, boolean large, @Seed long seed,
                                                                         @TempDir Path tmp)
            throws IOException, InterruptedException {
        Random r = new Random(seed);
        Path dir = tmp.resolve("db");
        Map<String, byte[]> live = new TreeMap<>();
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            order.add(i);
        }
        Collections.shuffle(order, r);
        try (ExtendedDB db = LevelDbFactory.factory.open(dir.toFile(), options())) {
            assertEquals(0, estimate(db));
            for (int i : order) {
                byte[] k = key(i, n, large);
                byte[] v = DbTestSupport.randomBytes(r, 10 + r.nextInt(20));
                db.put(k, v);
                live.put(Arrays.toString(k), v);
            }
            assertEquals(n, estimate(db), "distinct keys written once");
            db.flushMemTable();
            assertEquals(n, estimate(db), "after a flush");

            int overwrites = 0;
            for (int i = 0; i < n; i++) {
                if (r.nextBoolean()) {
                    db.put(key(i, n, large), new byte[] {1});
                    overwrites++;
                }
            }
            long e = estimate(db);
            // A key counts once however many versions the memtable or a table holds, and the
            // versions in the memtable and the tables written meanwhile count only as far as a
            // sample of them found them new to the database: close to n (within the sampling
            // error), not n + overwrites.
            assertTrue(Math.abs(e - n) <= n / 5, "after " + overwrites + " overwrites: " + e);
            assertWithinTwice(live.size(), e, "overwrites");
            db.compactRange(null, null);
            assertEquals(n, estimate(db), "after a full compaction");

            // Two keys of three deleted, with flushes on the way, so that deletions travel down
            // the levels and meet their values in compactions while the estimate is read.
            int deletes = 0;
            double lowest = 1;
            double highest = 1;
            for (int i = 0; i < n; i++) {
                if (i % 3 != 0) {
                    db.delete(key(i, n, large));
                    live.remove(Arrays.toString(key(i, n, large)));
                    if (++deletes % Math.max(1, n / 10) == 0) {
                        db.flushMemTable();
                        long now = estimate(db);
                        assertWithinTwice(n - deletes, now, deletes + " deletes");
                        lowest = Math.min(lowest, (double) now / (n - deletes));
                        highest = Math.max(highest, (double) now / (n - deletes));
                    }
                }
            }
            e = estimate(db);
            System.out.printf("%d keys, large %b: after %d deletes, estimate %d, live %d; between flushes, estimate/live "
                    + "%.3f to %.3f%n", n, large, deletes, e, live.size(), lowest, highest);
            assertWithinTwice(live.size(), e, "deletes");

            db.compactRange(null, null);
            assertEquals(live.size(), estimate(db), "after a full compaction");

            for (int i = n; i < n + n / 10; i++) {
                byte[] k = key(i, n + n / 10, large);
                if (k.length == key(0, n, large).length) { // a new key, not one of the first n
                    db.put(k, new byte[] {2});
                    live.put(Arrays.toString(k), new byte[] {2});
                }
            }
            assertEquals(live.size(), estimate(db), "new keys in the memtable");
        }
        try (ExtendedDB db = LevelDbFactory.factory.open(dir.toFile(), options())) {
            assertEquals(live.size(), estimate(db), "after a reopen: counts from the stats blocks");
            assertEquals(live.size(), estimate(db), "again, from memory");
        }
    }

    /**
     * Deletions that meet their values in a compaction above the last level are kept there (for
     * the level below) while their values go: the compaction records them as settled, and a
     * later compaction passing them on unmet keeps that share settled. Without either, each such
     * deletion would still cancel a value, and the estimate would read 0 for {@code n} live keys.
     */
    @Test
    void deletionsThatTookTheirValuesAlongAreNotSubtractedAgain(@TempDir Path tmp) throws IOException, InterruptedException {
        int n = 2000;
        try (ExtendedDB db = LevelDbFactory.factory.open(tmp.resolve("db").toFile(),
                new Options().writeBufferSize(16 << 20))) {
            DbImpl impl = (DbImpl) db;
            for (int i = 0; i < n; i++) {
                db.put(key(2 * i, 2 * n, false), new byte[] {1}); // even keys
            }
            db.flushMemTable(); // nothing overlaps: level 2
            impl.compactLevelForTesting(2);
            impl.compactLevelForTesting(3); // now on level 4, below everything that follows
            assertEquals("1", db.getProperty("leveldb.num-files-at-level4"));
            for (int i = 0; i < n; i++) {
                db.put(key(2 * i + 1, 2 * n, false), new byte[] {2}); // odd keys
            }
            db.flushMemTable(); // level 2
            for (int i = 0; i < n; i++) {
                db.delete(key(2 * i + 1, 2 * n, false));
            }
            db.flushMemTable(); // over the odd keys: level 1
            assertEquals("1", db.getProperty("leveldb.num-files-at-level1"));
            assertEquals("1", db.getProperty("leveldb.num-files-at-level2"));
            assertEquals(n, estimate(db), "values minus deletions");

            impl.compactLevelForTesting(1); // deletions meet the odd values: values dropped, deletions kept
            assertEquals("0", db.getProperty("leveldb.num-files-at-level1"));
            assertEquals(n, estimate(db), "the deletions kept on level 2 are settled");

            impl.rewriteLevelForTesting(2); // the deletions pass through a compaction meeting nothing
            assertEquals(n, estimate(db), "and stay settled");

            db.compactRange(null, null); // the last level drops them
            assertEquals(n, estimate(db));
            try (var it = db.iterator()) {
                int count = 0;
                for (it.seekToFirst(); it.hasNext(); it.next()) {
                    count++;
                }
                assertEquals(n, count);
            }
        }
    }

    @Test
    void aSnapshotKeepsOldVersionsCounted(@TempDir Path tmp) throws IOException, InterruptedException {
        try (ExtendedDB db = LevelDbFactory.factory.open(tmp.resolve("db").toFile(), options())) {
            for (int i = 0; i < 1000; i++) {
                db.put(key(i, 1000, false), new byte[] {1});
            }
            Snapshot snapshot = db.getSnapshot();
            for (int i = 0; i < 1000; i++) {
                db.put(key(i, 1000, false), new byte[] {2});
            }
            db.compactRange(null, null);
            long held = estimate(db);
            snapshot.close();
            assertEquals(1000, held, "both versions of every key are held for the snapshot, each key counted once");
            // A third version of every key, so that the compaction merges the file that holds
            // the first two (a file alone may move down a level without being rewritten).
            for (int i = 0; i < 1000; i++) {
                db.put(key(i, 1000, false), new byte[] {3});
            }
            db.compactRange(null, null);
            assertEquals(1000, estimate(db), "the old versions dropped");
        }
    }

    @Test
    void deletingEverythingGivesZeroNeverLess(@TempDir Path tmp) throws IOException, InterruptedException {
        try (ExtendedDB db = LevelDbFactory.factory.open(tmp.resolve("db").toFile(), options())) {
            for (int i = 0; i < 500; i++) {
                db.delete(key(i, 1000, false)); // absent keys: each deletion cancels nothing real
            }
            assertEquals(0, estimate(db));
            db.flushMemTable();
            for (int i = 0; i < 500; i++) {
                db.put(key(i, 1000, false), new byte[] {1});
            }
            assertEquals(0, estimate(db), "500 values minus 500 deletions, though 500 keys are live: the bias");
            db.flushMemTable();
            assertEquals(0, estimate(db), "the same in tables");
            db.compactRange(null, null);
            assertEquals(500, estimate(db), "a compaction drops the deletions under their newer values");
        }
    }

    @Test
    void damagedStatsBlocksAreToleratedAndReported(@TempDir Path tmp, @Seed long seed) throws IOException, InterruptedException {
        Random r = new Random(seed);
        Path dir = tmp.resolve("db");
        int n = 20_000;
        try (ExtendedDB db = LevelDbFactory.factory.open(dir.toFile(), options())) {
            for (int i = 0; i < n; i++) {
                db.put(key(i, n, true), DbTestSupport.randomBytes(r, 20));
            }
            db.compactRange(null, null);
            assertEquals(n, estimate(db));
        }
        List<Path> tables;
        try (var files = Files.list(dir)) {
            tables = files.filter(p -> p.toString().endsWith(".sst") || p.toString().endsWith(".ldb")).sorted().toList();
        }
        assertTrue(tables.size() > 2, "tables: " + tables);
        // Damage every other table's block: those are estimated from one data block each.
        List<String> damaged = new ArrayList<>();
        for (int t = 0; t < tables.size(); t += 2) {
            byte[] bytes = Files.readAllBytes(tables.get(t));
            BlockHandle h = StatsBlocks.find(bytes);
            bytes[(int) h.offset() + r.nextInt((int) h.size())] ^= 0x40;
            Files.write(tables.get(t), bytes);
            damaged.add(tables.get(t).getFileName() + " offset " + h.offset());
        }
        try (ExtendedDB db = LevelDbFactory.factory.open(dir.toFile(), options())) {
            long e = estimate(db);
            assertTrue(Math.abs(e - n) < n / 5, "estimate " + e + " of " + n + " with " + damaged.size()
                    + " damaged stats blocks");
            try (var it = db.iterator()) {
                int count = 0;
                for (it.seekToFirst(); it.hasNext(); it.next()) {
                    count++;
                }
                assertEquals(n, count, "the tables are read as ever");
            }
            assertArrayEquals(db.get(key(7, n, true)), db.get(key(7, n, true)));
        }
        String log = Files.readString(dir.resolve("LOG"), StandardCharsets.ISO_8859_1)
                + (Files.exists(dir.resolve("LOG.old")) ? Files.readString(dir.resolve("LOG.old"), StandardCharsets.ISO_8859_1) : "");
        for (String d : damaged) {
            String file = d.substring(0, d.indexOf(' '));
            String offset = d.substring(d.lastIndexOf(' ') + 1);
            assertTrue(log.lines().anyMatch(l -> l.contains("stats block unreadable") && l.contains(file)
                    && l.contains("block checksum mismatch") && l.contains(offset)), "LOG reports " + d + ":\n" + log);
        }
    }

    /**
     * Calls from another thread while two writers put and delete keys of their own, memtables
     * switch and compactions run: every call answers (never negative, never an exception), and
     * once the writers are done and everything is compacted, the estimate is the live count.
     */
    @Test
    void callsDuringWritesFlushesAndCompactions(@TempDir Path tmp, @Seed long seed) throws Exception {
        try (ExtendedDB db = LevelDbFactory.factory.open(tmp.resolve("db").toFile(), options())) {
            int perWriter = 20_000;
            java.util.concurrent.atomic.AtomicBoolean done = new java.util.concurrent.atomic.AtomicBoolean();
            java.util.concurrent.atomic.AtomicLong calls = new java.util.concurrent.atomic.AtomicLong();
            java.util.concurrent.atomic.AtomicReference<Throwable> failure = new java.util.concurrent.atomic.AtomicReference<>();
            Thread reader = new Thread(() -> {
                try {
                    while (!done.get()) {
                        // Two calls, two moments: each answers on its own.
                        assertTrue(db.approximateNumEntries() >= 0);
                        assertTrue(Long.parseLong(db.getProperty(PROPERTY)) >= 0);
                        calls.incrementAndGet();
                    }
                } catch (Throwable t) {
                    failure.compareAndSet(null, t);
                }
            });
            List<Map<String, Boolean>> lives = new ArrayList<>();
            List<Thread> writers = new ArrayList<>();
            for (int w = 0; w < 2; w++) {
                int writer = w;
                Map<String, Boolean> live = new TreeMap<>();
                lives.add(live);
                writers.add(new Thread(() -> {
                    Random r = new Random(seed + writer);
                    try {
                        for (int op = 0; op < perWriter; op++) {
                            int i = r.nextInt(perWriter / 2);
                            byte[] k = ("w" + writer + "/" + i).getBytes(StandardCharsets.US_ASCII);
                            if (r.nextInt(4) == 0) {
                                db.delete(k);
                                live.remove("w" + writer + "/" + i);
                            } else {
                                db.put(k, DbTestSupport.randomBytes(r, 30));
                                live.put("w" + writer + "/" + i, true);
                            }
                        }
                    } catch (Throwable t) {
                        failure.compareAndSet(null, t);
                    }
                }));
            }
            reader.start();
            writers.forEach(Thread::start);
            for (Thread t : writers) {
                t.join();
            }
            done.set(true);
            reader.join();
            if (failure.get() != null) {
                throw new AssertionError("failed during the run", failure.get());
            }
            assertTrue(calls.get() > 0);
            long live = lives.get(0).size() + lives.get(1).size();
            assertWithinTwice(live, estimate(db), "after the writers");
            db.compactRange(null, null);
            long e = estimate(db);
            System.out.printf("concurrent: %d calls during the writes; after a full compaction estimate %d, live %d%n",
                    calls.get(), e, live);
            assertWithinTwice(live, e, "after a full compaction");
        }
    }

    @Test
    void aClosedDatabaseSaysSo(@TempDir Path tmp) throws IOException, InterruptedException {
        ExtendedDB db = LevelDbFactory.factory.open(tmp.resolve("db").toFile(), options());
        db.put(new byte[] {1}, new byte[] {1});
        assertEquals(1, estimate(db));
        db.close();
        assertThrows(DBException.class, db::approximateNumEntries);
        assertThrows(DBException.class, () -> db.getProperty(PROPERTY));
    }
}
