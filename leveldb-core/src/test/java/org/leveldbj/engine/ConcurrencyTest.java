package org.leveldbj.engine;

import org.leveldbj.db.LevelDbFactory;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.leveldbj.engine.DbTestSupport.contents;
import static org.leveldbj.engine.DbTestSupport.newModel;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.DBException;
import org.iq80.leveldb.DBIterator;
import org.iq80.leveldb.Options;
import org.iq80.leveldb.ReadOptions;
import org.iq80.leveldb.Snapshot;
import org.iq80.leveldb.WriteBatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.leveldbj.testing.MemEnv;
import org.leveldbj.testing.Seed;
import org.leveldbj.testing.SeedExtension;

/**
 * Concurrent writers and readers on one database while flushes and compactions run (small
 * buffers). Writers own disjoint key spaces and keep models; readers check what can be checked
 * without them: values belong to their keys, a reader never sees a key go back in time, batches
 * are seen whole, a snapshot's view never changes while it is held, and iterators return
 * strictly ordered keys both ways. Everything is bounded: a deadlock fails the test instead of
 * hanging it.
 *
 * <p>Values are {@code <key>@<counter>}: the counter grows with every write of a writer, so a
 * reader can tell an older value from a newer one. Writer 0 also writes pairs
 * ({@code pair-a-i}, {@code pair-b-i}) with the same value in one batch; nobody may see them
 * differ.
 *
 * <p>A failure reports its seed; replay it with {@code -Dleveldbj.seed=N}.
 */
@ExtendWith(SeedExtension.class)
class ConcurrencyTest {
    private static final int WRITERS = 3;
    private static final int KEYS_PER_WRITER = 300;
    private static final int PAIRS = 50;
    private static final Duration LIMIT = Duration.ofSeconds(60);

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String str(byte[] b) {
        return b == null ? null : new String(b, StandardCharsets.UTF_8);
    }

    private static String key(int writer, int k) {
        return String.format("w%d-%04d", writer, k);
    }

    private static Options options(org.iq80.leveldb.Env env) {
        Options o = new Options().writeBufferSize(8_000).maxFileSize(16_000).blockSize(512);
        return env == null ? o : o.env(env);
    }

    /** Failures of any thread, reported by the main thread. */
    private final ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();

    private Thread start(String name, ThrowingRunnable body) {
        Thread t = new Thread(() -> {
            try {
                body.run();
            } catch (Throwable e) {
                failures.add(new AssertionError(name + ": " + e, e));
            }
        }, name);
        t.setDaemon(true);
        t.start();
        return t;
    }

    private interface ThrowingRunnable {
        void run() throws Exception;
    }

    private void rethrowFailures() {
        Throwable first = failures.peek();
        if (first != null) {
            failures.forEach(f -> {
                if (f != first) {
                    first.addSuppressed(f);
                }
            });
            if (first instanceof AssertionError a) {
                throw a;
            }
            throw new AssertionError(first);
        }
    }

    @Test
    void writersAndReadersAgreeWhileCompactionsRun(@Seed long seed) {
        assertTimeoutPreemptively(LIMIT, () -> run(seed, false));
    }

    @Test
    void writersAndReadersAgreeWhileCompactionsRunOnSeparatedValues(@Seed long seed) {
        // Values of up to 4 KB, those of 1,000 bytes and more in value files of 500 KB: the
        // writers fill several while flushes sync them.
        assertTimeoutPreemptively(LIMIT, () -> run(seed, true));
    }

    private void run(long seed, boolean separated) throws Exception {
        MemEnv env = new MemEnv();
        File dir = new File("/db");
        List<TreeMap<byte[], byte[]>> models = new ArrayList<>();
        AtomicBoolean writing = new AtomicBoolean(true);
        AtomicLong readerRounds = new AtomicLong();
        Options options = separated ? options(env).valueThreshold(1000) : options(env);
        int padding = separated ? 4000 : 40;
        try (DB db = LevelDbFactory.factory.open(dir, options)) {
            List<Thread> writers = new ArrayList<>();
            for (int w = 0; w < WRITERS; w++) {
                TreeMap<byte[], byte[]> model = newModel();
                models.add(model);
                int writer = w;
                Random r = new Random(seed * 31 + w);
                writers.add(start("writer-" + w, () -> write(db, writer, r, model, padding)));
            }
            List<Thread> readers = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                Random r = new Random(seed * 17 + i);
                readers.add(start("reader-" + i, () -> {
                    Map<String, Long> lastSeen = new HashMap<>();
                    while (writing.get() && failures.isEmpty()) {
                        read(db, r, lastSeen);
                        readerRounds.incrementAndGet();
                    }
                    read(db, r, lastSeen); // once more over the final state
                }));
            }
            for (Thread t : writers) {
                t.join();
            }
            writing.set(false);
            for (Thread t : readers) {
                t.join();
            }
            rethrowFailures();
            assertTrue(readerRounds.get() > 0);
            if (separated) {
                long written = Long.parseLong(db.getProperty("leveldbj.value-bytes-written"));
                assertTrue(written > 3 * 32 * 16_000, "the writers filled several value files: " + written + " bytes");
            }
            // The database holds exactly what the writers' models say.
            TreeMap<byte[], byte[]> expected = newModel();
            models.forEach(expected::putAll);
            TreeMap<byte[], byte[]> actual = contents(db);
            assertEquals(expected.size(), actual.size(), "seed " + seed);
            for (Map.Entry<byte[], byte[]> e : expected.entrySet()) {
                assertArrayEquals(e.getValue(), actual.get(e.getKey()), "seed " + seed + " key " + str(e.getKey()));
                assertArrayEquals(e.getValue(), db.get(e.getKey()), "seed " + seed + " key " + str(e.getKey()));
            }
        }
        // And so does the reopened database.
        try (DB db = LevelDbFactory.factory.open(dir, options)) {
            TreeMap<byte[], byte[]> expected = newModel();
            models.forEach(expected::putAll);
            TreeMap<byte[], byte[]> actual = contents(db);
            assertEquals(expected.keySet().stream().map(ConcurrencyTest::str).toList(),
                    actual.keySet().stream().map(ConcurrencyTest::str).toList());
        }
    }

    private void write(DB db, int writer, Random r, TreeMap<byte[], byte[]> model, int padding) throws IOException {
        long counter = 0;
        for (int op = 0; op < 2500 && failures.isEmpty(); op++) {
            int kind = r.nextInt(100);
            if (kind < 55) {
                String k = key(writer, r.nextInt(KEYS_PER_WRITER));
                byte[] v = utf8(k + "@" + (++counter) + "#" + "v".repeat(r.nextInt(padding)));
                db.put(utf8(k), v);
                model.put(utf8(k), v);
            } else if (kind < 70) {
                String k = key(writer, r.nextInt(KEYS_PER_WRITER));
                db.delete(utf8(k));
                model.remove(utf8(k));
            } else if (kind < 90 || writer != 0) {
                try (WriteBatch batch = db.createWriteBatch()) {
                    TreeMap<byte[], byte[]> staged = newModel();
                    List<byte[]> deleted = new ArrayList<>();
                    for (int i = r.nextInt(10); i >= 0; i--) {
                        String k = key(writer, r.nextInt(KEYS_PER_WRITER));
                        if (r.nextInt(4) == 0) {
                            batch.delete(utf8(k));
                            staged.remove(utf8(k));
                            deleted.add(utf8(k));
                        } else {
                            byte[] v = utf8(k + "@" + (++counter) + "#");
                            batch.put(utf8(k), v);
                            staged.put(utf8(k), v);
                            deleted.removeIf(d -> Arrays.equals(d, utf8(k)));
                        }
                    }
                    db.write(batch);
                    deleted.forEach(model::remove);
                    model.putAll(staged);
                }
            } else {
                // Writer 0: a pair, both keys in one batch with the same value.
                int i = r.nextInt(PAIRS);
                byte[] v = utf8("pair@" + (++counter));
                try (WriteBatch batch = db.createWriteBatch()) {
                    batch.put(utf8("pair-a-" + i), v).put(utf8("pair-b-" + i), v);
                    db.write(batch);
                }
                model.put(utf8("pair-a-" + i), v);
                model.put(utf8("pair-b-" + i), v);
            }
            if (writer == 2 && op % 700 == 699) {
                db.compactRange(utf8(key(writer, 0)), utf8(key(writer, KEYS_PER_WRITER)));
            }
        }
    }

    /** The writer counter of a value, checking that the value belongs to the key. */
    private static long counterOf(String key, byte[] value) {
        String v = str(value);
        int at = v.indexOf('@');
        int hash = v.indexOf('#');
        if (key.startsWith("pair-")) {
            assertTrue(v.startsWith("pair@"), key + " holds " + v);
            return Long.parseLong(v.substring(at + 1));
        }
        assertEquals(key, v.substring(0, at), "value of " + key);
        return Long.parseLong(v.substring(at + 1, hash));
    }

    private void read(DB db, Random r, Map<String, Long> lastSeen) throws IOException {
        // Plain gets: a key's value never goes back to an older one.
        for (int i = 0; i < 50; i++) {
            String k = key(r.nextInt(WRITERS), r.nextInt(KEYS_PER_WRITER));
            byte[] v = db.get(utf8(k));
            if (v != null) {
                long c = counterOf(k, v);
                Long before = lastSeen.put(k, c);
                if (before != null && before > c) {
                    fail(k + " went back from counter " + before + " to " + c);
                }
            }
        }
        // A snapshot: read twice, with writes and compactions going on in between.
        try (Snapshot snapshot = db.getSnapshot()) {
            ReadOptions at = new ReadOptions().snapshot(snapshot);
            Map<String, String> first = new HashMap<>();
            for (int i = 0; i < 40; i++) {
                String k = r.nextInt(4) == 0 ? "pair-a-" + r.nextInt(PAIRS) : key(r.nextInt(WRITERS), r.nextInt(KEYS_PER_WRITER));
                first.put(k, str(db.get(utf8(k), at)));
            }
            List<Map.Entry<String, String>> forward = walk(db, at, true);
            Thread.yield();
            for (Map.Entry<String, String> e : first.entrySet()) {
                assertEquals(e.getValue(), str(db.get(utf8(e.getKey()), at)), "snapshot changed for " + e.getKey());
            }
            List<Map.Entry<String, String>> backward = walk(db, at, false);
            List<Map.Entry<String, String>> reversed = new ArrayList<>(backward);
            java.util.Collections.reverse(reversed);
            assertEquals(forward, reversed, "a snapshot's forward and backward walks differ");
            // The walk agrees with the gets, and batches are whole in the snapshot.
            Map<String, String> walked = new HashMap<>();
            forward.forEach(e -> walked.put(e.getKey(), e.getValue()));
            for (Map.Entry<String, String> e : first.entrySet()) {
                assertEquals(e.getValue(), walked.get(e.getKey()), "walk vs get for " + e.getKey());
            }
            for (int i = 0; i < PAIRS; i++) {
                assertEquals(walked.get("pair-a-" + i), walked.get("pair-b-" + i), "pair " + i + " torn");
            }
        }
        // A walk without a snapshot (the iterator's implicit one): ordered, unique, pairs whole.
        List<Map.Entry<String, String>> live = walk(db, new ReadOptions(), r.nextBoolean());
        Map<String, String> walked = new HashMap<>();
        live.forEach(e -> walked.put(e.getKey(), e.getValue()));
        for (int i = 0; i < PAIRS; i++) {
            assertEquals(walked.get("pair-a-" + i), walked.get("pair-b-" + i), "pair " + i + " torn in a live walk");
        }
    }

    /** Walks every entry one way, checking strict order; returns them in walk order. */
    private static List<Map.Entry<String, String>> walk(DB db, ReadOptions options, boolean forward)
            throws IOException {
        List<Map.Entry<String, String>> out = new ArrayList<>();
        try (DBIterator it = db.iterator(options)) {
            byte[] previous = null;
            if (forward) {
                for (it.seekToFirst(); it.hasNext(); ) {
                    Map.Entry<byte[], byte[]> e = it.next();
                    previous = checkOrder(previous, e.getKey(), true);
                    out.add(Map.entry(str(e.getKey()), str(e.getValue())));
                }
            } else {
                it.seekToLast();
                while (it.hasNext()) {
                    Map.Entry<byte[], byte[]> e = it.peekNext();
                    previous = checkOrder(previous, e.getKey(), false);
                    out.add(Map.entry(str(e.getKey()), str(e.getValue())));
                    if (!it.hasPrev()) {
                        break;
                    }
                    it.prev();
                }
            }
        }
        for (Map.Entry<String, String> e : out) {
            counterOf(e.getKey(), utf8(e.getValue()));
        }
        return out;
    }

    private static byte[] checkOrder(byte[] previous, byte[] key, boolean forward) {
        if (previous != null) {
            int c = Arrays.compareUnsigned(previous, key);
            if (forward ? c >= 0 : c <= 0) {
                fail("iterator out of order " + (forward ? "forward" : "backward") + ": " + str(previous) + " then "
                        + str(key));
            }
        }
        return key;
    }

    /**
     * Closing the database while readers are still reading: they see {@link DBException}s (or
     * keep reading from what they hold), never another exception, a JVM crash or a hang. On disk,
     * so that use of unmapped table files would show.
     */
    @Test
    void closingUnderActiveReadersOnlyRaisesDbException(@TempDir Path tmp) {
        assertTimeoutPreemptively(LIMIT, () -> {
            for (int round = 0; round < 3; round++) {
                closeUnderReaders(tmp.resolve("db" + round).toFile(), round);
            }
        });
    }

    private void closeUnderReaders(File dir, int round) throws Exception {
        DB db = LevelDbFactory.factory.open(dir, options(null));
        for (int i = 0; i < 3000; i++) {
            db.put(utf8(key(i % WRITERS, i % KEYS_PER_WRITER)), utf8(key(i % WRITERS, i % KEYS_PER_WRITER) + "@" + i + "#"));
        }
        db.compactRange(null, null);
        for (int i = 0; i < 500; i++) {
            db.put(utf8(key(0, i % KEYS_PER_WRITER)), utf8(key(0, i % KEYS_PER_WRITER) + "@" + (10_000 + i) + "#"));
        }
        CountDownLatch warmedUp = new CountDownLatch(3);
        AtomicLong unexpected = new AtomicLong();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 3; t++) {
            int kind = t;
            threads.add(start("reader-" + t, () -> {
                Random r = new Random(kind);
                long ops = 0;
                while (true) {
                    try {
                        if (kind == 0) {
                            db.get(utf8(key(r.nextInt(WRITERS), r.nextInt(KEYS_PER_WRITER))));
                        } else if (kind == 1) {
                            // Iterators opened before the close and used after it.
                            try (DBIterator it = db.iterator()) {
                                it.seekToFirst();
                                int n = 0;
                                while (it.hasNext() && n++ < 2000) {
                                    it.next();
                                }
                                it.seekToLast();
                                for (int i = 0; i < 200 && it.hasPrev(); i++) {
                                    it.prev();
                                }
                            }
                        } else {
                            try (Snapshot s = db.getSnapshot()) {
                                db.get(utf8(key(0, r.nextInt(KEYS_PER_WRITER))), new ReadOptions().snapshot(s));
                                db.put(utf8("late"), utf8("write"));
                            }
                        }
                    } catch (DBException e) {
                        if (ops > 0 || warmedUp.getCount() == 0) {
                            return; // closed: the only acceptable failure
                        }
                        throw e;
                    } catch (RuntimeException | Error e) {
                        unexpected.incrementAndGet();
                        throw e;
                    }
                    if (++ops == 20) {
                        warmedUp.countDown();
                    }
                }
            }));
        }
        assertTrue(warmedUp.await(30, TimeUnit.SECONDS), "readers did not start");
        db.close();
        db.close();
        for (Thread t : threads) {
            t.join();
        }
        rethrowFailures();
        assertEquals(0, unexpected.get());
        // The directory is intact and the lock released.
        try (DB reopened = LevelDbFactory.factory.open(dir, options(null))) {
            assertEquals(key(0, 5) + "@" + 10_305 + "#", str(reopened.get(utf8(key(0, 5)))), "round " + round);
        }
    }

    /**
     * Many short races between {@code close()} and calls already past their entry check: each
     * call either completes or throws {@link DBException}; nothing else (such as a
     * NullPointerException from released memtables) may escape.
     */
    @Test
    void callsRacingCloseOnlyRaiseDbException() {
        assertTimeoutPreemptively(LIMIT, () -> {
            for (int round = 0; round < 120; round++) {
                MemEnv env = new MemEnv();
                DB db = LevelDbFactory.factory.open(new File("/db"), options(env));
                db.put(utf8("a"), utf8("b"));
                CountDownLatch started = new CountDownLatch(4);
                List<Thread> threads = new ArrayList<>();
                for (int t = 0; t < 4; t++) {
                    int kind = t;
                    threads.add(start("racer-" + t, () -> {
                        started.countDown();
                        while (true) {
                            try {
                                switch (kind) {
                                    case 0 -> db.get(utf8("a"));
                                    case 1 -> db.iterator().close();
                                    case 2 -> {
                                        db.getProperty("leveldb.approximate-memory-usage");
                                        db.getApproximateSizes(new org.iq80.leveldb.Range(utf8("a"), utf8("z")));
                                    }
                                    default -> db.put(utf8("k"), utf8("v"));
                                }
                            } catch (DBException e) {
                                return;
                            }
                        }
                    }));
                }
                started.await();
                db.close();
                for (Thread t : threads) {
                    t.join();
                }
                rethrowFailures();
            }
        });
    }
}
