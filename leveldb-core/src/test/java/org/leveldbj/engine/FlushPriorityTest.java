package org.leveldbj.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.iq80.leveldb.BackgroundPool;
import org.iq80.leveldb.CompressionType;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.Env;
import org.iq80.leveldb.Options;
import org.junit.jupiter.api.Test;
import org.leveldbj.db.LevelDbFactory;
import org.leveldbj.filename.FileNames;
import org.leveldbj.filename.FileType;
import org.leveldbj.testing.ForwardingEnv;
import org.leveldbj.testing.MemEnv;

/**
 * A flush does not wait for another database's compaction: on a pool of one thread, while
 * database A compacts (held inside the creation of the first of the several output tables of
 * its step), database B fills its memtable; once A goes on, the next table created in the
 * process is B's flush, before the next table of A's same compaction step (a compaction runs
 * waiting flushes between its entries).
 *
 * <p>Deterministic: A is held by the environment on a latch, and the test knows B's memtable
 * was switched (its flush asked for) from the new log file it created, before it lets A go.
 */
class FlushPriorityTest {
    private static final long DEADLINE_SECONDS = 60;
    private static final File A = new File("/a");
    private static final File B = new File("/b");

    /** Records the table and log files created, and holds the first table of an armed directory. */
    private static final class GateEnv extends ForwardingEnv {
        final List<String> created = Collections.synchronizedList(new ArrayList<>());
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        volatile Path armed;

        GateEnv(Env target) {
            super(target);
        }

        @Override
        public WritableFile newWritableFile(Path file) throws IOException {
            FileNames.Parsed p = FileNames.parse(file.getFileName().toString());
            if (p != null && (p.type() == FileType.TABLE || p.type() == FileType.LOG)) {
                created.add(file.getParent().getFileName() + " " + p.type());
                if (p.type() == FileType.TABLE && file.getParent().equals(armed)) {
                    armed = null;
                    entered.countDown();
                    await(release);
                }
            }
            return super.newWritableFile(file);
        }

        long count(String entry) {
            synchronized (created) {
                return created.stream().filter(entry::equals).count();
            }
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            assertTrue(latch.await(DEADLINE_SECONDS, TimeUnit.SECONDS), "timed out");
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aDatabasesFlushRunsBeforeTheRestOfAnotherDatabasesCompaction() throws Exception {
        GateEnv env = new GateEnv(new MemEnv());
        try (BackgroundPool pool = LevelDbFactory.newBackgroundPool(1)) {
            Options options = new Options().env(env).backgroundPool(pool).writeBufferSize(16 << 10)
                    .compressionType(CompressionType.NONE);
            // A's compaction steps write several small tables each: B's flush must come between two
            // tables of one step, not only before A's next step.
            Options small = new Options(options).maxFileSize(2 << 10).blockSize(512);
            try (DB a = LevelDbFactory.factory.open(A, small); DB b = LevelDbFactory.factory.open(B, options)) {
                // A: tables at several levels (every flush overlaps the one before), so that a
                // full manual compaction takes more than one step.
                for (int round = 0; round < 4; round++) {
                    for (int i = 0; i < 200; i++) {
                        a.put(bytes(String.format("key%04d", i)), bytes("a" + round + "-" + i));
                    }
                    ((org.iq80.leveldb.ExtendedDB) a).flushMemTable();
                }
                env.armed = A.toPath();
                AtomicReference<Throwable> failure = new AtomicReference<>();
                Thread compacting = new Thread(() -> {
                    try {
                        a.compactRange(null, null);
                    } catch (Throwable t) {
                        failure.set(t);
                    }
                });
                compacting.start();
                await(env.entered); // A's compaction holds the pool's one thread

                long logs = env.count("b LOG");
                int written = 0;
                while (env.count("b LOG") == logs) { // until B's memtable is switched: its flush waits
                    b.put(bytes(String.format("key%06d", written)), bytes("b" + written));
                    written++;
                }
                int tablesBefore = env.created.size();
                env.release.countDown();
                compacting.join(TimeUnit.SECONDS.toMillis(DEADLINE_SECONDS));
                assertTrue(!compacting.isAlive() && failure.get() == null, "A's compaction ended: " + failure.get());

                List<String> after = tablesOnly(env.created.subList(tablesBefore, env.created.size()));
                assertEquals("b TABLE", after.get(0), "the first table after A went on is B's flush: " + after);
                assertTrue(after.size() >= 3 && after.subList(1, after.size()).stream().allMatch("a TABLE"::equals),
                        "then A's compaction went on, with more tables of its step: " + after);
                for (int i = 0; i < written; i++) {
                    assertArrayEquals(bytes("b" + i), b.get(bytes(String.format("key%06d", i))));
                }
                for (int i = 0; i < 200; i++) {
                    assertArrayEquals(bytes("a3-" + i), a.get(bytes(String.format("key%04d", i))));
                }
            }
        }
    }

    private static List<String> tablesOnly(List<String> created) {
        List<String> tables = new ArrayList<>();
        for (String c : created) {
            if (c.endsWith("TABLE")) {
                tables.add(c);
            }
        }
        return tables;
    }
}
