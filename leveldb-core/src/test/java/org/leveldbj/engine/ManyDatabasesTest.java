package org.leveldbj.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.iq80.leveldb.BackgroundPool;
import org.iq80.leveldb.CompressionType;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.DBException;
import org.iq80.leveldb.Env;
import org.iq80.leveldb.Options;
import org.junit.jupiter.api.Test;
import org.leveldbj.db.LevelDbFactory;
import org.leveldbj.filename.FileNames;
import org.leveldbj.filename.FileType;
import org.leveldbj.testing.ForwardingEnv;
import org.leveldbj.testing.MemEnv;

/**
 * Two hundred databases on a pool of two threads: each is written enough to flush its memtable
 * several times and compact its level 0 (4 KiB write buffers, every flush overlapping the one
 * before); the process's threads stay within a small constant of what it had before (not one
 * per database); every database flushed (tables created) and compacted (tables deleted: only a
 * compaction retires a table); closing some leaves the others working, and every database,
 * closed and reopened or still open, holds what was written to it.
 *
 * <p>The databases live in memory ({@link MemEnv}): the test is about scheduling, not the disk.
 * It waits for background work by its progress, with a deadline that only a stall trips.
 */
class ManyDatabasesTest {
    private static final int DATABASES = 200;
    private static final int THREADS = 2;
    private static final int KEYS = 60;
    private static final int ROUNDS = 8;
    /** The process may start a few threads of its own meanwhile (compiler, GC, output syncs). */
    private static final int THREAD_SLACK = 12;
    private static final long STALL_NANOS = TimeUnit.SECONDS.toNanos(60);

    /** Counts table files created and deleted per database directory. */
    private static final class CountingEnv extends ForwardingEnv {
        final Map<Path, AtomicInteger> created = new ConcurrentHashMap<>();
        final Map<Path, AtomicInteger> deleted = new ConcurrentHashMap<>();

        CountingEnv(Env target) {
            super(target);
        }

        private static boolean isTable(Path file) {
            FileNames.Parsed p = FileNames.parse(file.getFileName().toString());
            return p != null && p.type() == FileType.TABLE;
        }

        @Override
        public WritableFile newWritableFile(Path file) throws IOException {
            if (isTable(file)) {
                created.computeIfAbsent(file.getParent(), d -> new AtomicInteger()).incrementAndGet();
            }
            return super.newWritableFile(file);
        }

        @Override
        public void deleteFile(Path file) throws IOException {
            if (isTable(file)) {
                deleted.computeIfAbsent(file.getParent(), d -> new AtomicInteger()).incrementAndGet();
            }
            super.deleteFile(file);
        }

        int created(File dir) {
            return created.getOrDefault(dir.toPath(), new AtomicInteger()).get();
        }

        int deleted(File dir) {
            return deleted.getOrDefault(dir.toPath(), new AtomicInteger()).get();
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String value(int db, int round, int key) {
        return "value of key " + key + " in database " + db + ", round " + round + ", padded to a hundred bytes "
                + "x".repeat(30);
    }

    @Test
    void twoHundredDatabasesOnTwoThreadsFlushCompactAndCloseOneByOne() throws Exception {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        int before = threads.getThreadCount();
        CountingEnv env = new CountingEnv(new MemEnv());
        File[] dirs = new File[DATABASES];
        DB[] dbs = new DB[DATABASES];
        int[] lastRound = new int[DATABASES];
        int most = before;
        try (BackgroundPool pool = LevelDbFactory.newBackgroundPool(THREADS)) {
            Options options = new Options().env(env).backgroundPool(pool).writeBufferSize(4 << 10)
                    .compressionType(CompressionType.NONE);
            for (int d = 0; d < DATABASES; d++) {
                dirs[d] = new File("/db/" + d);
                dbs[d] = LevelDbFactory.factory.open(dirs[d], options);
            }
            assertEquals(DATABASES, pool.databases());
            for (int round = 0; round < ROUNDS; round++) {
                for (int d = 0; d < DATABASES; d++) {
                    write(dbs[d], d, round);
                    lastRound[d] = round;
                    most = Math.max(most, threads.getThreadCount());
                }
            }
            awaitCompactions(env, dirs, threads);
            most = Math.max(most, threads.getThreadCount());
            assertTrue(most <= before + THREAD_SLACK, "threads: " + before + " before, " + most + " at most, with "
                    + DATABASES + " databases on " + THREADS + " pool threads");
            for (int d = 0; d < DATABASES; d++) {
                assertTrue(env.created(dirs[d]) >= 4, "database " + d + " flushed: " + env.created(dirs[d]));
                assertTrue(env.deleted(dirs[d]) > 0, "database " + d + " compacted");
            }

            // Close every fourth database; the others keep working and keep their data.
            for (int d = 0; d < DATABASES; d += 4) {
                dbs[d].close();
            }
            assertEquals(DATABASES - DATABASES / 4, pool.databases());
            assertThrows(IllegalStateException.class, pool::close, "the pool refuses to close while in use");
            for (int round = ROUNDS; round < ROUNDS + 2; round++) {
                for (int d = 0; d < DATABASES; d++) {
                    if (d % 4 != 0) {
                        write(dbs[d], d, round);
                        lastRound[d] = round;
                    }
                }
            }
            for (int d = 0; d < DATABASES; d++) {
                if (d % 4 == 0) {
                    int closed = d;
                    assertThrows(DBException.class, () -> dbs[closed].get(bytes("key0")));
                    dbs[d] = LevelDbFactory.factory.open(dirs[d], options);
                }
                check(dbs[d], d, lastRound[d]);
            }
            for (DB db : dbs) {
                db.close();
            }
            assertEquals(0, pool.databases());
        }
    }

    private static void write(DB db, int d, int round) {
        for (int k = 0; k < KEYS; k++) {
            db.put(bytes("key" + k), bytes(value(d, round, k)));
        }
    }

    private static void check(DB db, int d, int round) {
        for (int k = 0; k < KEYS; k++) {
            assertArrayEquals(bytes(value(d, round, k)), db.get(bytes("key" + k)), "database " + d + " key " + k);
        }
    }

    /** Waits until every database has compacted, failing only when none made progress for a while. */
    private static void awaitCompactions(CountingEnv env, File[] dirs, ThreadMXBean threads) throws InterruptedException {
        List<Integer> waiting = new ArrayList<>();
        long progressAt = System.nanoTime();
        int lastWaiting = Integer.MAX_VALUE;
        while (true) {
            waiting.clear();
            for (int d = 0; d < dirs.length; d++) {
                if (env.deleted(dirs[d]) == 0) {
                    waiting.add(d);
                }
            }
            if (waiting.isEmpty()) {
                return;
            }
            if (waiting.size() < lastWaiting) {
                lastWaiting = waiting.size();
                progressAt = System.nanoTime();
            } else if (System.nanoTime() - progressAt > STALL_NANOS) {
                fail("no database compacted for 60 s; still waiting: " + waiting);
            }
            Thread.sleep(10); // polling the counts, not waiting for them to change
        }
    }
}
