package org.leveldbj.engine;

import org.leveldbj.db.LevelDbFactory;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.leveldbj.engine.DbTestSupport.randomBytes;
import static org.leveldbj.engine.DbTestSupport.utf8;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.Options;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.leveldbj.testing.ForwardingEnv;
import org.leveldbj.testing.ForwardingWritableFile;
import org.leveldbj.testing.MemEnv;
import org.leveldbj.testing.Seed;
import org.leveldbj.testing.SeedExtension;

/**
 * Full value files are synced when a sync needs them, outside the value log's lock: a flush
 * syncing them does not hold up writers of large values meanwhile.
 */
@ExtendWith(SeedExtension.class)
class ValueLogSyncTest {
    private final File dir = new File("/db");

    /** Blocks the syncs of value files, once armed, until released. */
    private static final class SlowValueSyncEnv extends ForwardingEnv {
        final CountDownLatch blocked = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        volatile boolean armed;

        SlowValueSyncEnv() {
            super(new MemEnv());
        }

        @Override
        public WritableFile newWritableFile(Path file) throws IOException {
            WritableFile created = super.newWritableFile(file);
            if (!file.toString().endsWith(".vlog")) {
                return created;
            }
            return new ForwardingWritableFile(file, created) {
                @Override
                public void sync() throws IOException {
                    if (armed) {
                        blocked.countDown();
                        try {
                            release.await();
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                            throw new IOException("interrupted", e);
                        }
                    }
                    super.sync();
                }
            };
        }
    }

    @Test
    void writersOfLargeValuesGoOnWhileAFlushSyncsFullValueFiles(@Seed Random r) throws Exception {
        SlowValueSyncEnv env = new SlowValueSyncEnv();
        // Value files of 128 KiB: 100 values of 3,000 bytes fill two, which wait unsynced.
        Options options = new Options().env(env).valueThreshold(1000).maxFileSize(4096);
        ExecutorService threads = Executors.newFixedThreadPool(2);
        List<byte[]> values = new ArrayList<>();
        try (DB db = LevelDbFactory.factory.open(dir, options)) {
            for (int i = 0; i < 100; i++) {
                values.add(randomBytes(r, 3000));
                db.put(utf8("k" + i), values.get(i));
            }
            env.armed = true;
            // The flush syncs the full value files before recording its table.
            Future<?> flush = threads.submit(() -> {
                db.compactRange(null, null);
                return null;
            });
            assertTrue(env.blocked.await(30, TimeUnit.SECONDS), "the flush syncs a full value file");
            Future<?> put = threads.submit(() -> {
                values.add(randomBytes(r, 3000));
                db.put(utf8("k100"), values.get(100));
                return null;
            });
            try {
                put.get(30, TimeUnit.SECONDS);
                assertFalse(flush.isDone(), "the put finished while the flush was still syncing");
            } finally {
                env.armed = false;
                env.release.countDown();
            }
            flush.get(30, TimeUnit.SECONDS);
            for (int i = 0; i < values.size(); i++) {
                assertArrayEquals(values.get(i), db.get(utf8("k" + i)), "k" + i);
            }
        } finally {
            threads.shutdownNow();
        }
    }
}
